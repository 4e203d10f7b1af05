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

std::string word(Keyword k) { return std::string(keyword_text(k)); }

// The head of a node's S-expression: its keyword, or a symbol or name.
std::string operator_name(const Node& n) {
  switch (n.kind) {
    case NodeKind::Query: return "query";
    case NodeKind::Block: return "block";
    case NodeKind::Negate: return "neg";
    case NodeKind::Union: return "|";
    case NodeKind::Intersect: return "&";
    case NodeKind::Complement: return "~";
    case NodeKind::Count: return "#";
    case NodeKind::Assign: return "=";
    case NodeKind::Call: return "call";
    case NodeKind::Compare: return std::string(operator_text(n.compare));
    case NodeKind::Arith: return std::string(operator_text(n.arith));
    case NodeKind::AttackChain: return std::string(operator_text(n.arrow));
    case NodeKind::WithPosition: return std::string(operator_spelling(TokenKind::Colon));
    case NodeKind::StringMatch: return std::string(operator_spelling(TokenKind::Match));
    case NodeKind::Substring: return n.has(FlagRange) ? "[:]" : "[]";
    case NodeKind::DictEntry: return "[]";
    case NodeKind::DictAssign: return "[]=";
    case NodeKind::DictLoop: return std::string(operator_spelling(TokenKind::Element));
    case NodeKind::PathDash:
    case NodeKind::Dash:
      return std::string(operator_spelling(n.has(FlagCapture) ? TokenKind::CaptureDash : TokenKind::Dash));
    case NodeKind::PathChain: return "chain";
    case NodeKind::PathRepeat: return "repeat";
    default: return word(keyword_of(n));
  }
}

// The words printed between the operator and the children.
std::string header(const Node& n) {
  std::string s;
  auto add = [&s](const std::string& w) { s += " " + w; };
  if (n.kind == NodeKind::Move) {
    add(word(n.has(FlagPseudoLegal) ? Keyword::PseudoLegal : Keyword::Legal));
    if (n.has(FlagCount)) add(word(Keyword::Count));
    if (n.has(FlagAll)) add(word(Keyword::All));
    for (const auto& [k, flag] : LegalTargetFlags)
      if (n.has(flag)) add(word(k));
    return s;
  }
  if (n.kind == NodeKind::Path) {
    for (const auto& [k, flag] : PathParameterFlags)
      if (n.has(flag)) add(word(k));
    if (!n.name.empty()) add(word(Keyword::Title) + " " + quoted(n.name));
    return s;
  }
  if (n.kind == NodeKind::Line) {
    for (const auto& [k, flag] : LineParameterFlags)
      if (n.has(flag)) add(word(k));
    if (n.has(FlagCount)) add(std::to_string(n.number) + " " + std::to_string(n.high));
    add(std::string(
        operator_spelling(n.has(FlagPrevious) ? TokenKind::LongBackArrow : TokenKind::LongArrow)));
    return s;
  }
  if (n.kind == NodeKind::PathParam && n.has(FlagCapture)) return " " + word(Keyword::Capture);
  if (n.kind == NodeKind::PathRepeat) {
    add(std::to_string(n.number));
    add(n.high == INT64_MAX ? "inf" : std::to_string(n.high));
    return s;
  }
  if (n.kind == NodeKind::PathDash || n.kind == NodeKind::Dash) {
    if (n.pieces) add("=" + designator_text(n.pieces, AllSquares));
    if (n.has(FlagPrevious)) add(word(Keyword::Previous));
    return s;
  }
  if (n.kind == NodeKind::PlayedMove) {
    for (const auto& [k, flag] : PlayedMoveFlags)
      if (n.has(flag)) add(word(k));
    if (n.pieces) add(word(Keyword::Promote) + " " + designator_text(n.pieces, AllSquares));
    return s;
  }
  if (n.has(FlagAll)) add(word(Keyword::All));
  if (n.kind == NodeKind::Find && n.has(FlagPrevious))
    add(std::string(operator_spelling(TokenKind::BackArrow)));
  if (n.has(FlagAny)) add(word(Keyword::Any));
  if (n.has(FlagMin)) add(word(Keyword::Min));
  if (n.has(FlagMax)) add(word(Keyword::Max));
  if (n.has(FlagCount) && n.kind == NodeKind::Transform) add(word(Keyword::Count));
  if (n.has(FlagPersistent)) add(word(Keyword::Persistent));
  if (n.has(FlagAtomic)) add(word(Keyword::Atomic));
  if (n.kind == NodeKind::Nag) add(std::to_string(n.number));
  if (n.kind == NodeKind::HhdbAward) add(n.name + (n.has(FlagSpecial) ? " special" : ""));
  if (n.has(FlagQuiet)) add(word(Keyword::Quiet));
  switch (n.kind) {
    case NodeKind::Assign:
    case NodeKind::SquareLoop:
    case NodeKind::PieceLoop:
    case NodeKind::Binding:
    case NodeKind::Dictionary:
    case NodeKind::DictEntry:
    case NodeKind::DictAssign:
    case NodeKind::DictUnbind:
    case NodeKind::DictLoop:
    case NodeKind::Call: add(n.name); break;
    case NodeKind::PieceAssign: add(n.name + " ="); break;
    case NodeKind::Sort:
    case NodeKind::SetTag:
    case NodeKind::Result:
    case NodeKind::HeaderFeature:
    case NodeKind::GameText:
    case NodeKind::Elo:
      if (!n.name.empty()) add(quoted(n.name));
      break;
    case NodeKind::Function: {
      add(n.name);
      std::string params;
      for (const std::string& p : n.params) params += (params.empty() ? "" : " ") + p;
      add("(" + params + ")");
      break;
    }
    case NodeKind::Ray:
      if (!n.directions.empty()) {
        std::string dirs;
        for (Keyword d : n.directions) dirs += (dirs.empty() ? "" : " ") + word(d);
        add("(" + dirs + ")");
      }
      break;
    case NodeKind::Vector:
    case NodeKind::ConsecutiveMoves: add(std::to_string(n.number) + " " + std::to_string(n.high)); break;
    case NodeKind::ImagineSpec:
      if (n.imagine_step == ImagineStep::SideToMove) add(word(spelling(SideWords, n.side)));
      break;
    default: break;
  }
  return s;
}

// The role word printed before child i of a pin or move filter ("from", ":" for the body), or "".
std::string role(const Node& n, size_t i) {
  if (n.kind == NodeKind::Pin) return word(spelling(PinRoleWords, n.pin_roles[i]));
  const bool dash = n.kind == NodeKind::PathDash || n.kind == NodeKind::Dash;
  if (n.kind != NodeKind::Move && n.kind != NodeKind::PlayedMove && !dash) return {};
  if (dash && n.move_roles[i] == MoveRole::Body) return {};
  if (n.move_roles[i] == MoveRole::Body) return std::string(operator_spelling(TokenKind::Colon));
  return word(spelling(MoveRoleWords, n.move_roles[i]));
}

bool associative(const Node& n) {
  return n.kind == NodeKind::And || n.kind == NodeKind::Or || n.kind == NodeKind::Union ||
         n.kind == NodeKind::Intersect;
}

// A chain of an associative operator, printed nested to the left as it associates:
// "a and b and c" is (and (and a b) c).
std::string nested(const Node& n) {
  std::string s;
  const std::string open = "(" + operator_name(n) + " ";
  for (size_t i = 1; i < n.children.size(); ++i) s += open;
  s += to_sexpr(n.child(0));
  for (size_t i = 1; i < n.children.size(); ++i) s += " " + to_sexpr(n.child(i)) + ")";
  return s;
}

bool is_leaf(const Node& n) {
  switch (n.kind) {
    case NodeKind::Designator:
    case NodeKind::Number:
    case NodeKind::String:
    case NodeKind::Variable:
    case NodeKind::GroupRef:
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
    case NodeKind::Variable: return n.name;
    case NodeKind::GroupRef: return "\\" + std::to_string(n.number);
    default: return word(keyword_of(n));
  }
}

}  // namespace

std::string designator_text(PieceMask pieces, Bitboard squares) {
  if (pieces == AnyMen) return squares == AllSquares ? "." : square_list(squares);
  return squares == AllSquares ? piece_text(pieces) : piece_text(pieces) + square_list(squares);
}

std::string to_sexpr(const Node& n) {
  if (is_leaf(n)) return leaf(n);
  if (associative(n)) return nested(n);
  std::string s = "(" + operator_name(n) + header(n);
  if (n.kind == NodeKind::Fen || n.kind == NodeKind::StringMatch) s += " " + quoted(n.name);
  for (size_t i = 0; i < n.children.size(); ++i) {
    const std::string r = role(n, i);
    if (!r.empty()) s += " " + r;
    s += " " + to_sexpr(n.child(i));
  }
  return s + ")";
}

}  // namespace egtb::query
