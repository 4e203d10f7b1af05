#include "query/print.hpp"

namespace egtb::query {

namespace {

std::string piece_text(PieceMask pieces) {
  std::string s;
  if ((pieces & WhiteMen) == WhiteMen) {
    s += 'A';
  } else {
    for (PieceType pt : {PieceType::King, PieceType::Queen, PieceType::Rook, PieceType::Bishop,
                         PieceType::Knight, PieceType::Pawn})
      if (pieces & (1u << to_index(make_piece(Color::White, pt))))
        s += piece_char(make_piece(Color::White, pt));
  }
  if ((pieces & BlackMen) == BlackMen) {
    s += 'a';
  } else {
    for (PieceType pt : {PieceType::King, PieceType::Queen, PieceType::Rook, PieceType::Bishop,
                         PieceType::Knight, PieceType::Pawn})
      if (pieces & (1u << to_index(make_piece(Color::Black, pt))))
        s += piece_char(make_piece(Color::Black, pt));
  }
  if (pieces & EmptyBit) s += '_';
  return s.size() == 1 ? s : "[" + s + "]";
}

std::string square_list(Bitboard squares) {
  std::string s = "[";
  while (squares) {
    s += square_name(pop_lsb(squares));
    if (squares) s += ',';
  }
  return s + "]";
}

std::string quoted(const std::string& text) {
  std::string s = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') s += '\\';
    s += c;
  }
  return s + "\"";
}

std::string operator_name(const Node& n) {
  switch (n.kind) {
    case NodeKind::Query: return "query";
    case NodeKind::Block: return "block";
    case NodeKind::Not: return "not";
    case NodeKind::And: return "and";
    case NodeKind::Or: return "or";
    case NodeKind::In: return "in";
    case NodeKind::Negate: return "neg";
    case NodeKind::Union: return "|";
    case NodeKind::Intersect: return "&";
    case NodeKind::Complement: return "~";
    case NodeKind::Count: return "#";
    case NodeKind::Attacks: return "attacks";
    case NodeKind::AttackedBy: return "attackedby";
    case NodeKind::If: return "if";
    case NodeKind::Abs: return "abs";
    case NodeKind::Max: return "max";
    case NodeKind::Min: return "min";
    case NodeKind::XRay: return "xray";
    case NodeKind::Between: return "between";
    case NodeKind::Power: return "power";
    case NodeKind::Distance: return "distance";
    case NodeKind::Light: return "light";
    case NodeKind::Dark: return "dark";
    case NodeKind::NoTransform: return "notransform";
    case NodeKind::Imagine: return "imagine";
    case NodeKind::Assign: return "=";
    case NodeKind::SquareLoop: return "square";
    case NodeKind::PieceLoop: return "piece";
    case NodeKind::Sort: return "sort";
    case NodeKind::Pin: return "pin";
    case NodeKind::Ray: return "ray";
    case NodeKind::Call: return "call";
    case NodeKind::Function: return "function";
    case NodeKind::Move: return "move";
    case NodeKind::Fen: return "fen";
    default: return n.name;
  }
}

// The words printed between the operator and the children.
std::string header(const Node& n) {
  std::string s;
  auto word = [&s](const std::string& w) { s += " " + w; };
  if (n.kind == NodeKind::Move) {
    word(n.name);
    if (n.has(FlagCount)) word("count");
    if (n.has(FlagAll)) word("all");
    return s;
  }
  if (n.has(FlagAll)) word("all");
  if (n.has(FlagAny)) word("any");
  if (n.has(FlagMin)) word("min");
  if (n.has(FlagMax)) word("max");
  if (n.has(FlagCount) && n.kind == NodeKind::Transform) word("count");
  switch (n.kind) {
    case NodeKind::Assign:
    case NodeKind::SquareLoop:
    case NodeKind::PieceLoop:
    case NodeKind::Call: word(n.name); break;
    case NodeKind::Sort:
      if (!n.name.empty()) word(quoted(n.name));
      break;
    case NodeKind::Function: {
      word(n.name);
      std::string params;
      for (const std::string& p : n.params) params += (params.empty() ? "" : " ") + p;
      word("(" + params + ")");
      break;
    }
    case NodeKind::Ray:
      if (!n.params.empty()) {
        std::string dirs;
        for (const std::string& p : n.params) dirs += (dirs.empty() ? "" : " ") + p;
        word("(" + dirs + ")");
      }
      break;
    case NodeKind::ImagineSpec:
      for (const std::string& p : n.params) word(p);
      break;
    default: break;
  }
  return s;
}

bool is_leaf(const Node& n) {
  switch (n.kind) {
    case NodeKind::Designator:
    case NodeKind::Number:
    case NodeKind::String:
    case NodeKind::Variable:
    case NodeKind::Keyword: return true;
    case NodeKind::Fen: return n.name.empty();
    default: return false;
  }
}

std::string leaf(const Node& n) {
  switch (n.kind) {
    case NodeKind::Designator: return designator_text(n.pieces, n.squares);
    case NodeKind::Number: return std::to_string(n.number);
    case NodeKind::String: return quoted(n.name);
    case NodeKind::Fen: return "fen";
    default: return n.name;
  }
}

}  // namespace

std::string designator_text(PieceMask pieces, Bitboard squares) {
  if (pieces == AnyMen) return squares == AllSquares ? "." : square_list(squares);
  return squares == AllSquares ? piece_text(pieces) : piece_text(pieces) + square_list(squares);
}

std::string to_sexpr(const Node& n) {
  if (is_leaf(n)) return leaf(n);
  std::string s = "(" + operator_name(n) + header(n);
  if (n.kind == NodeKind::Fen) s += " " + quoted(n.name);
  const bool roles = n.kind == NodeKind::Pin || n.kind == NodeKind::Move;
  for (size_t i = 0; i < n.children.size(); ++i) {
    if (roles && i < n.params.size()) s += " " + (n.params[i] == "body" ? std::string(":") : n.params[i]);
    s += " " + to_sexpr(n.child(i));
  }
  return s + ")";
}

}  // namespace egtb::query
