#include "query/compile.hpp"

#include <algorithm>
#include <array>
#include <set>

#include "egtb/core/fen.hpp"
#include "query/filter.hpp"
#include "query/parser.hpp"
#include "query/transform.hpp"

namespace egtb::query {

using detail::FilterPtr;
using detail::Filters;

namespace {

struct CompileFailure {
  QueryError error;
};

// t's image of the squares b that node n names; refused under rotate45 unless b is every square
// or none (see transform.hpp): "rotate45 Qd4".
Bitboard transformed_squares(const Node& n, Bitboard b, const SquareTransform& t) {
  if (b != AllSquares && b && t.turns_45())
    throw CompileFailure{{n.range,
                          "rotate45 cannot be applied to particular squares: a square has no image "
                          "under a turn of 45 degrees"}};
  return t.squares(b);
}

// Refuses light and dark (node n) under rotate45 (see transform.hpp): "rotate45 light Q".
void refuse_square_colors_45(const Node& n, const SquareTransform& t) {
  if (t.turns_45())
    throw CompileFailure{{n.range,
                          "rotate45 cannot be applied to light or dark: a square's colour has no image "
                          "under a turn of 45 degrees"}};
}

// The directions a ray admits: those of its direction words, or all of them.
DirectionSet ray_directions(const Node& n) {
  DirectionSet dirs = 0;
  for (Keyword d : n.directions) dirs = static_cast<DirectionSet>(dirs | keyword_info(d).directions);
  return dirs ? dirs : AllDirections;
}

// The men of a FEN placement ("k7/1Q6/2K5/8/8/8/8/8", side and counters optional).
std::optional<Position> placement(const std::string& fen) {
  for (const char* suffix : {"", " w - - 0 1", " b - - 0 1"}) {
    const Expected<Position, FenError> p = parse_fen(fen + suffix);
    if (p) return *p;
  }
  return std::nullopt;
}

// A side's word ("White", "Black", "1-0", "0-1") for the other side when the transform swaps the
// colours, as CQL's flipcolor turns player white into player black and result 1-0 into 0-1.
std::string other_side(const std::string& word, const SquareTransform& t) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 2> Pairs = {
      {{"White", "Black"}, {"1-0", "0-1"}}};
  if (!t.swaps_colors()) return word;
  for (const auto& [a, b] : Pairs) {
    if (word == a) return std::string(b);
    if (word == b) return std::string(a);
  }
  return word;
}

class Compiler {
public:
  explicit Compiler(const SemaInfo& info) : dictionaries_(info.dictionaries) {
    for (size_t i = 0; i < info.variables.size(); ++i)
      if (info.variables[i].atomic) atomics_.push_back(i);
  }

  FilterPtr compile(const Node& n, const SquareTransform& t) {
    if (outer_transform_) charge(1);
    return build(n, t);
  }

private:
  const Node* outer_transform_ = nullptr;     // the outermost transform being compiled
  size_t transformed_ = 0;                    // filters compiled and nodes read inside transforms
  size_t line_moves_ = 0;                     // move filters compiled that follow a line (FlagLineMove)
  std::vector<size_t> atomics_;               // the slots of the atomic variables, for every path
  std::vector<DictionaryInfo> dictionaries_;  // what each dictionary holds, to print it

  // Counts the work of expanding transforms, failing beyond MaxTransformedFilters.
  void charge(size_t filters) {
    transformed_ += filters;
    if (transformed_ > MaxTransformedFilters)
      throw CompileFailure{{outer_transform_->range, "transforms expand this query to more than " +
                                                         std::to_string(MaxTransformedFilters) + " filters"}};
  }

  FilterPtr build(const Node& n, const SquareTransform& t) {
    switch (n.kind) {
      case NodeKind::Query:
      case NodeKind::Block: return sequence(n, t);
      case NodeKind::Designator:
        return detail::make_designator(t.pieces(n.pieces), transformed_squares(n, n.squares, t));
      case NodeKind::Number: return detail::make_number(n.number);
      case NodeKind::String: return detail::make_string(n.name);
      case NodeKind::Function: return detail::make_true(true);
      case NodeKind::Variable:
        if (n.has(FlagPiece)) return detail::make_piece_variable(n.slot);
        return detail::make_variable(n.slot, n.filter);
      case NodeKind::PieceAssign: return detail::make_piece_assign(n.slot, compile(n.child(0), t));
      case NodeKind::PieceId:
        if (n.child(0).has(FlagPiece)) return detail::make_piece_id(n.child(0).slot, nullptr);
        return detail::make_piece_id(-1, compile(n.child(0), t));
      case NodeKind::Assign: return detail::make_assign(n.slot, compile(n.child(0), t));
      case NodeKind::Call: return compile(*n.expansion, t);
      case NodeKind::Keyword: return keyword(n, t);
      case NodeKind::Not: return detail::make_not(compile(n.child(0), t));
      case NodeKind::And: return detail::make_and(children(n, t));
      case NodeKind::Or: return detail::make_or(children(n, t));
      case NodeKind::In:
        if (n.child(0).filter == FilterKind::String)
          return detail::make_string_in(compile(n.child(0), t), compile(n.child(1), t));
        return detail::make_subset(compile(n.child(0), t), compile(n.child(1), t));
      case NodeKind::Compare: return compare(n, t);
      case NodeKind::Arith:
        if (n.filter == FilterKind::String)
          return detail::make_concatenation(compile(n.child(0), t), compile(n.child(1), t));
        return detail::make_arith(n.arith, compile(n.child(0), t), compile(n.child(1), t));
      case NodeKind::Negate: return detail::make_negate(compile(n.child(0), t));
      case NodeKind::Abs: return detail::make_abs(compile(n.child(0), t));
      case NodeKind::Max:
      case NodeKind::Min: return detail::make_extremum(n.kind == NodeKind::Max, children(n, t));
      case NodeKind::Union: return detail::make_union(children(n, t));
      case NodeKind::Intersect:
        if (n.child(0).filter == FilterKind::Position)
          return detail::make_same_squares(compile(n.child(0), t), compile(n.child(1), t));
        return detail::make_intersection(children(n, t));
      case NodeKind::Complement: return detail::make_complement(compile(n.child(0), t));
      case NodeKind::Count:
        if (n.child(0).kind == NodeKind::Dictionary) return detail::make_dictionary_count(n.child(0).slot);
        if (n.child(0).filter == FilterKind::String) return detail::make_length(compile(n.child(0), t));
        return detail::make_count(compile(n.child(0), t));
      case NodeKind::AttackChain: return chain(n, t);
      case NodeKind::Attacks:
        return detail::make_attacks(compile(n.child(0), t), compile(n.child(1), t), true);
      case NodeKind::AttackedBy:
        return detail::make_attacks(compile(n.child(1), t), compile(n.child(0), t), false);
      case NodeKind::If: return if_filter(n, t);
      case NodeKind::Repeat: return detail::make_repeat(compile(n.child(0), t), n.range);
      case NodeKind::While:
        if (n.child(0).kind == NodeKind::StringMatch) return match_loop(n, t);
        return detail::make_while(compile(n.child(0), t), compile(n.child(1), t), n.range);
      case NodeKind::SquareLoop:
      case NodeKind::PieceLoop:
        return detail::make_loop(n.slot, compile(n.child(0), t), compile(n.child(1), t), n.has(FlagAll),
                                 n.kind == NodeKind::PieceLoop, n.range);
      case NodeKind::DictLoop:
        return detail::make_dictionary_loop(n.slot, n.child(0).slot, compile(n.child(1), t), n.range);
      case NodeKind::Sort: return detail::make_sort(compile(n.child(0), t), static_cast<size_t>(n.slot));
      case NodeKind::Pin: return pin(n, t);
      case NodeKind::Ray: return ray(n, t);
      case NodeKind::XRay: return detail::make_rays(children(n, t), AllDirections, true, false);
      case NodeKind::Between: return detail::make_between(compile(n.child(0), t), compile(n.child(1), t));
      case NodeKind::Power: return detail::make_power(compile(n.child(0), t));
      case NodeKind::SquareFact: return detail::make_square_fact(n.keyword, compile(n.child(0), t));
      case NodeKind::MakeSquare: return detail::make_square_of(children(n, t));
      case NodeKind::Sqrt: return detail::make_sqrt(compile(n.child(0), t));
      case NodeKind::Binding: return detail::make_binding(n.keyword, n.slot);
      case NodeKind::Assert: return detail::make_assert(compile(n.child(0), t), n.range);
      case NodeKind::Dictionary: return detail::make_true(true);
      case NodeKind::DictEntry:
        return detail::make_dictionary_entry(n.slot, compile(n.child(0), t), n.filter);
      case NodeKind::DictAssign:
        return detail::make_dictionary_assign(n.slot, compile(n.child(0), t), compile(n.child(1), t));
      case NodeKind::DictUnbind:
        return detail::make_dictionary_unbind(n.slot, n.children.empty() ? nullptr : compile(n.child(0), t));
      case NodeKind::Vector:
        if (n.has(FlagRange))
          return detail::make_counted_vector(t.directions(keyword_info(n.keyword).directions),
                                             compile(n.child(1), t), compile(n.child(2), t),
                                             compile(n.child(0), t));
        return detail::make_vector(t.directions(keyword_info(n.keyword).directions), n.number, n.high,
                                   compile(n.child(0), t));
      case NodeKind::Distance:
        if (n.child(0).filter == FilterKind::Position)
          return detail::make_position_distance(compile(n.child(0), t), compile(n.child(1), t));
        return detail::make_distance(compile(n.child(0), t), compile(n.child(1), t));
      case NodeKind::Lca: return detail::make_lca(compile(n.child(0), t), compile(n.child(1), t));
      case NodeKind::Echo:
        return detail::make_echo(n.child(0).slot, n.child(1).slot, n.has(FlagAll), compile(n.child(2), t),
                                 n.range);
      case NodeKind::ConsecutiveMoves:
        return detail::make_consecutive_moves(n.child(0).slot, n.child(1).slot, n.number, n.high);
      case NodeKind::Light:
      case NodeKind::Dark:
        refuse_square_colors_45(n, t);
        return detail::make_square_color(compile(n.child(0), t),
                                         (n.kind == NodeKind::Light) != t.swaps_square_colors());
      case NodeKind::Transform: return transform(n, t);
      case NodeKind::NoTransform: return compile(n.child(0), SquareTransform());
      case NodeKind::Fen: return fen(n, t);
      case NodeKind::Message: return message(n, t);
      case NodeKind::Move: return move(n, t);
      case NodeKind::PlayedMove: return played_move(n, t);
      case NodeKind::Child: return detail::make_child(n.children.empty() ? nullptr : compile(n.child(0), t));
      case NodeKind::PositionAt: return detail::make_position_at(compile(n.child(0), t));
      case NodeKind::Find: return find(n, t);
      case NodeKind::WithPosition:
        return detail::make_with_position(compile(n.child(0), t), compile(n.child(1), t));
      case NodeKind::Result: return detail::make_result(other_side(n.name, t));
      case NodeKind::Header:
      case NodeKind::HeaderFeature: return detail::make_true(true);
      case NodeKind::Imagine: return imagine(n, t);
      case NodeKind::LineEnd:
        return detail::make_line_end(n.metric, n.has(FlagAll), compile(n.child(0), t), n.range);
      case NodeKind::Nag: return detail::make_nag(static_cast<uint8_t>(n.number));
      case NodeKind::SetTag: return detail::make_set_tag(n.name, compile(n.child(0), t));
      case NodeKind::HhdbAward: return detail::make_hhdb_award(n.name, n.has(FlagSpecial), n.has(FlagMax));
      case NodeKind::GameText: return detail::make_tag(other_side(n.name, t));
      case NodeKind::Elo: return detail::make_elo(other_side(n.name, t));
      case NodeKind::StringMatch: return string_match(n, t);
      case NodeKind::GroupRef: return detail::make_group(n.number);
      case NodeKind::Substring:
        return detail::make_substring(compile(n.child(0), t), compile(n.child(1), t),
                                      n.children.size() > 2 ? compile(n.child(2), t) : nullptr,
                                      n.has(FlagRange));
      case NodeKind::IndexOf: return detail::make_index_of(compile(n.child(0), t), compile(n.child(1), t));
      case NodeKind::Convert: return detail::make_convert(n.keyword, compile(n.child(0), t));
      case NodeKind::Path: return path(n, t);
      case NodeKind::Line: return line(n, t);
      case NodeKind::Dash: {
        detail::PathStep step = path_step(n, t);
        return detail::make_dash(std::move(step), n.filter, n.has(FlagPrevious));
      }
      case NodeKind::ImagineSpec:
      case NodeKind::PathParam:
      case NodeKind::PathDash:
      case NodeKind::PathChain:
      case NodeKind::PathRepeat: break;
    }
    throw CompileFailure{{n.range, "cannot compile this filter here"}};
  }

  Filters children(const Node& n, const SquareTransform& t) {
    Filters out;
    for (const NodePtr& c : n.children) out.push_back(compile(*c, t));
    return out;
  }

  FilterPtr sequence(const Node& n, const SquareTransform& t) {
    if (n.children.empty()) return detail::make_true(true);
    if (n.children.size() == 1) return compile(n.child(0), t);
    return detail::make_sequence(children(n, t));
  }

  // A keyword filter, the one of the other colour when the transform swaps colours.
  static FilterPtr keyword(const Node& n, const SquareTransform& t) {
    Keyword k = n.keyword;
    const Keyword swapped = keyword_info(k).colors_swapped;
    if (t.swaps_colors() && swapped != Keyword::None) k = swapped;
    switch (k) {
      case Keyword::True: return detail::make_true(true);
      case Keyword::False: return detail::make_true(false);
      case Keyword::CurrentTransform: return detail::make_string(t.cql_text());
      case Keyword::Initial:
      case Keyword::Terminal:
      case Keyword::MainLine:
      case Keyword::Variation:
      case Keyword::VirtualMainLine:
      case Keyword::Ply:
      case Keyword::MoveNumber:
      case Keyword::PositionId:
      case Keyword::GameNumber:
      case Keyword::LastGameNumber:
      case Keyword::Parent:
      case Keyword::CurrentPosition:
      case Keyword::CurPos:
      case Keyword::InitialPosition:
      case Keyword::Depth:
      case Keyword::Try: return detail::make_game_word(k);
      case Keyword::From:
      case Keyword::To: return detail::make_move_square(k == Keyword::From);
      case Keyword::PassedPawns:
      case Keyword::DoubledPawns:
      case Keyword::IsolatedPawns:
      case Keyword::ConnectedPawns: return detail::make_pawns(k);
      case Keyword::PathCount:
      case Keyword::PathCountUnfocused:
      case Keyword::PathStart:
      case Keyword::PathLastPosition: return detail::make_path_word(k);
      case Keyword::Year:
      case Keyword::OriginalComment: return detail::make_game_data(k);
      case Keyword::RemoveComment: return detail::make_remove_comment();
      default: return detail::make_keyword(k);
    }
  }

  FilterPtr compare(const Node& n, const SquareTransform& t) {
    FilterPtr a = compile(n.child(0), t);
    FilterPtr b = compile(n.child(1), t);
    if (n.filter == FilterKind::String)
      return detail::make_string_compare(n.compare, std::move(a), std::move(b));
    if (n.filter == FilterKind::Logical)
      return detail::make_set_equality(std::move(a), std::move(b), n.compare == CompareOp::Eq);
    if (n.filter == FilterKind::Position)
      return detail::make_position_compare(n.compare, std::move(a), std::move(b));
    return detail::make_compare(n.compare, std::move(a), std::move(b));
  }

  FilterPtr chain(const Node& n, const SquareTransform& t) {
    const bool right = n.arrow == Arrow::Right;
    if (n.children.size() == 2) {
      FilterPtr a = compile(n.child(0), t);
      FilterPtr b = compile(n.child(1), t);
      return right ? detail::make_attacks(std::move(a), std::move(b), true)
                   : detail::make_attacks(std::move(b), std::move(a), false);
    }
    Filters sets = children(n, t);
    if (!right) std::reverse(sets.begin(), sets.end());
    return detail::make_rays(std::move(sets), AllDirections, true, right);
  }

  FilterPtr if_filter(const Node& n, const SquareTransform& t) {
    FilterPtr otherwise = n.children.size() > 2 ? compile(n.child(2), t) : nullptr;
    return detail::make_if(compile(n.child(0), t), compile(n.child(1), t), std::move(otherwise), n.filter);
  }

  // pin [from X] [through Y] [to Z]: the value is the set of the first role given (through
  // when none is).
  FilterPtr pin(const Node& n, const SquareTransform& t) {
    std::array<FilterPtr, 3> parts;
    for (size_t i = 0; i < n.children.size(); ++i)
      parts[static_cast<size_t>(n.pin_roles[i])] = compile(n.child(i), t);
    const PinRole role = n.pin_roles.empty() ? PinRole::Through : n.pin_roles.front();
    return detail::make_pin(std::move(parts[0]), std::move(parts[1]), std::move(parts[2]), role);
  }

  FilterPtr ray(const Node& n, const SquareTransform& t) {
    const bool attack =
        std::find(n.directions.begin(), n.directions.end(), Keyword::Attack) != n.directions.end();
    return detail::make_rays(children(n, t), t.directions(ray_directions(n)), attack, false);
  }

  FilterPtr transform(const Node& n, const SquareTransform& outer);
  FilterPtr fen(const Node& n, const SquareTransform& t);
  FilterPtr message(const Node& n, const SquareTransform& t);
  [[nodiscard]] FilterPtr dictionary_text(const Node& d) const;
  FilterPtr move(const Node& n, const SquareTransform& t);
  FilterPtr imagine(const Node& n, const SquareTransform& t);
  FilterPtr played_move(const Node& n, const SquareTransform& t);
  FilterPtr path(const Node& n, const SquareTransform& t);
  // A dash is a move of the path, or in a line (`line`) CQL's dash filter.
  detail::PathStep path_step(const Node& n, const SquareTransform& t, bool line = false);
  FilterPtr line(const Node& n, const SquareTransform& t);
  FilterPtr find(const Node& n, const SquareTransform& t);

  FilterPtr string_match(const Node& n, const SquareTransform& t) {
    std::string error;
    FilterPtr f = detail::make_string_match(compile(n.child(0), t), n.name, n.range, error);
    if (!f) invalid_pattern(n, error);
    return f;
  }
  // while (s ~~ r) body.
  FilterPtr match_loop(const Node& n, const SquareTransform& t) {
    const Node& test = n.child(0);
    std::string error;
    FilterPtr f =
        detail::make_match_loop(compile(test.child(0), t), test.name, compile(n.child(1), t), n.range, error);
    if (!f) invalid_pattern(test, error);
    return f;
  }
  [[noreturn]] static void invalid_pattern(const Node& match, const std::string& error) {
    throw CompileFailure{
        {match.range, "invalid regular expression \"" + quote_source(match.name) + "\": " + error}};
  }
};

// The constants of a filter under a transform, in a fixed order; false when a square designator
// leaves the board entirely.
bool collect_constants(const Node& n, const SquareTransform& t, std::vector<uint64_t>& out) {
  if (n.kind == NodeKind::NoTransform || n.kind == NodeKind::Function) return true;
  if (n.kind == NodeKind::Designator && n.squares != AllSquares) {
    const Bitboard b = transformed_squares(n, n.squares, t);
    if (!b) return false;
    out.push_back(b);
    out.push_back(t.pieces(n.pieces));
  }
  if (n.kind == NodeKind::Light || n.kind == NodeKind::Dark) refuse_square_colors_45(n, t);
  if (n.kind == NodeKind::Ray) out.push_back(t.directions(ray_directions(n)));
  if (n.kind == NodeKind::Vector) out.push_back(t.directions(keyword_info(n.keyword).directions));
  if (n.kind == NodeKind::Fen && !n.name.empty()) {
    if (const std::optional<Position> p = placement(n.name)) {
      const Bitboard mapped = transformed_squares(n, p->pieces(), t);
      if (popcount(mapped) != popcount(p->pieces())) return false;
      out.push_back(mapped);
    }
  }
  if (n.kind == NodeKind::Call) return collect_constants(*n.expansion, t, out);
  for (const NodePtr& c : n.children)
    if (!collect_constants(*c, t, out)) return false;
  return true;
}

// Each step's variant of the operand, but those whose constants an earlier step gave; reading
// the constants of a step counts as compiling the operand.
FilterPtr Compiler::transform(const Node& n, const SquareTransform& outer) {
  const Node* outer_node = outer_transform_;
  if (!outer_transform_) outer_transform_ = &n;
  const size_t operand_size = tree_size(n.child(0)).nodes;
  Filters variants;
  std::set<std::vector<uint64_t>> seen;
  for (const TransformStep& step : transform_family(n.transform)) {
    charge(operand_size);
    const SquareTransform t = outer.after(step);
    std::vector<uint64_t> constants{t.swaps_colors(), t.swaps_square_colors()};
    if (!collect_constants(n.child(0), t, constants)) continue;
    if (!seen.insert(std::move(constants)).second) continue;
    variants.push_back(compile(n.child(0), t));
  }
  outer_transform_ = outer_node;
  return detail::make_variants(std::move(variants), n.child(0).filter, n.has(FlagCount));
}

FilterPtr Compiler::fen(const Node& n, const SquareTransform& t) {
  if (n.name.empty()) return detail::make_current_fen();
  const std::optional<Position> p = placement(n.name);
  if (!p) throw CompileFailure{{n.range, "invalid FEN \"" + quote_source(n.name) + "\""}};
  Position mapped;
  Bitboard men = p->pieces();
  while (men) {
    const Square s = pop_lsb(men);
    const Piece piece = p->piece_on(s);
    const Bitboard to = transformed_squares(n, square_bb(s), t);
    if (!to) continue;
    mapped.put_piece(t.swaps_colors() ? make_piece(~color_of(piece), type_of(piece)) : piece, lsb(to));
  }
  return detail::make_fen_match(mapped);
}

// message(D): D's entries; a dictionary never assigned prints as empty.
FilterPtr Compiler::dictionary_text(const Node& d) const {
  const DictionaryInfo& info = dictionaries_[static_cast<size_t>(d.slot)];
  return detail::make_dictionary_text(d.slot, info.name, info.key.value_or(FilterKind::Numeric),
                                      info.value.value_or(FilterKind::Numeric));
}

FilterPtr Compiler::message(const Node& n, const SquareTransform& t) {
  Filters args;
  std::vector<std::string> literals;
  for (const NodePtr& c : n.children) {
    // legalposition and reachableposition as arguments print the reason of their answer.
    const bool report = c->kind == NodeKind::Keyword &&
                        (c->keyword == Keyword::LegalPosition || c->keyword == Keyword::ReachablePosition);
    literals.push_back(c->kind == NodeKind::String ? c->name : std::string());
    if (c->kind == NodeKind::String)
      args.push_back(nullptr);
    else if (c->kind == NodeKind::Dictionary && n.keyword != Keyword::Str)
      args.push_back(dictionary_text(*c));
    else
      args.push_back(report ? detail::make_report(c->keyword == Keyword::ReachablePosition) : compile(*c, t));
  }
  if (n.keyword == Keyword::Str) return detail::make_str(std::move(args), std::move(literals));
  return detail::make_message(std::string(), std::move(args), std::move(literals));
}

// The kinds of move (enpassant, castle, o-o, o-o-o) a move filter's flags keep.
detail::MoveKindFilter move_kinds(const Node& n) {
  return {.en_passant = n.has(FlagEnPassant),
          .castle = n.has(FlagCastle),
          .kingside = n.has(FlagCastleKingside),
          .queenside = n.has(FlagCastleQueenside)};
}

FilterPtr Compiler::move(const Node& n, const SquareTransform& t) {
  detail::MoveSpec spec;
  spec.count = n.has(FlagCount);
  spec.all = n.has(FlagAll);
  spec.squares_only = n.keyword == Keyword::CountMoves;
  spec.pseudolegal = n.has(FlagPseudoLegal);
  spec.kind = move_kinds(n);
  spec.value_is_to = n.keyword == Keyword::Legal ||  // legal S--T
                     (!n.move_roles.empty() &&
                      (n.move_roles.front() == MoveRole::To || n.move_roles.front() == MoveRole::Capture));
  Filters params;
  FilterPtr body;
  for (size_t i = 0; i < n.children.size(); ++i) {
    const MoveRole role = n.move_roles[i];
    switch (role) {
      case MoveRole::Promote: spec.promote = t.pieces(n.child(i).pieces); break;
      case MoveRole::Body: body = compile(n.child(i), t); break;
      case MoveRole::From:
      case MoveRole::To:
      case MoveRole::Capture:
      case MoveRole::EnPassantSquare:
        spec.roles.push_back(role);
        params.push_back(compile(n.child(i), t));
        break;
    }
  }
  return detail::make_move(spec, std::move(params), std::move(body), n.range);
}

FilterPtr Compiler::played_move(const Node& n, const SquareTransform& t) {
  detail::PlayedMoveSpec spec{.previous = n.has(FlagPrevious),
                              .null = n.has(FlagNull),
                              .primary = n.has(FlagPrimary),
                              .secondary = n.has(FlagSecondary),
                              .kind = move_kinds(n),
                              .promote = t.pieces(n.pieces),
                              .follows_line = n.has(FlagLineMove)};
  if (spec.follows_line) ++line_moves_;
  std::array<FilterPtr, 4> sets;  // from, to, capture, enpassantsquare
  FilterPtr comment;
  for (size_t i = 0; i < n.children.size(); ++i)
    (n.move_roles[i] == MoveRole::Body ? comment : sets[static_cast<size_t>(n.move_roles[i])]) =
        compile(n.child(i), t);
  if (!n.move_roles.empty() && n.move_roles.front() <= MoveRole::Capture) spec.value = n.move_roles.front();
  if (sets[3]) spec.kind.en_passant = true;
  return detail::make_played_move(spec, std::move(sets[0]), std::move(sets[1]), std::move(sets[2]),
                                  std::move(comment), std::move(sets[3]));
}

FilterPtr Compiler::path(const Node& n, const SquareTransform& t) {
  detail::PathSpec spec{.nest_ban = n.has(FlagNestBan),
                        .primary = n.has(FlagPrimary),
                        .first_match = n.has(FlagFirstMatch),
                        .last_position = n.has(FlagLastPosition),
                        .focus = nullptr,
                        .max = nullptr,
                        .piece_path = n.has(FlagPiecePath),
                        .keep_all_best = n.has(FlagKeepAllBest),
                        .title = n.name,
                        .range = n.range,
                        .atomics = atomics_};
  std::vector<detail::PathStep> steps;
  for (const NodePtr& c : n.children) {
    if (c->kind != NodeKind::PathParam) {
      steps.push_back(path_step(*c, t));
    } else if (c->keyword == Keyword::Focus) {
      spec.focus = compile(c->child(0), t);
      spec.focus_capture = c->has(FlagCapture);
    } else {
      spec.max = compile(c->child(0), t);
    }
  }
  return detail::make_path(std::move(spec), std::move(steps));
}

detail::PathStep Compiler::path_step(const Node& n, const SquareTransform& t, bool line) {
  detail::PathStep step;
  const bool dash = (n.kind == NodeKind::PathDash || n.kind == NodeKind::Dash) && !line;
  switch (dash ? NodeKind::PathDash : n.kind) {
    case NodeKind::PathChain:
      step.kind = detail::PathStep::Kind::Chain;
      for (const NodePtr& c : n.children) step.steps.push_back(path_step(*c, t, line));
      break;
    case NodeKind::PathRepeat:
      step.kind = detail::PathStep::Kind::Repeat;
      step.low = n.number;
      step.high = n.high;
      step.steps.push_back(path_step(n.child(0), t, line));
      break;
    case NodeKind::PathDash: {
      step.kind = detail::PathStep::Kind::Dash;
      step.capture = n.has(FlagCapture);
      Filters targets;
      if (n.pieces) {  // =P: the move promotes to P
        const detail::PlayedMoveSpec promotes{.previous = true, .kind = {}, .promote = t.pieces(n.pieces)};
        targets.push_back(detail::make_played_move(promotes, nullptr, nullptr, nullptr));
      }
      for (size_t i = 0; i < n.children.size(); ++i) {
        FilterPtr f = compile(n.child(i), t);
        if (n.move_roles[i] == MoveRole::From)
          step.from = std::move(f);
        else if (n.move_roles[i] == MoveRole::To)
          step.to = std::move(f);
        else if (n.move_roles[i] == MoveRole::Promote)
          targets.push_back(detail::make_promotion_named(std::move(f)));
        else
          targets.push_back(std::move(f));
      }
      if (targets.size() == 1) step.filter = std::move(targets.front());
      if (targets.size() > 1) step.filter = detail::make_sequence(std::move(targets));
      break;
    }
    default: {
      const size_t moves = line_moves_;
      step.filter = compile(n, t);
      step.follows_line = line_moves_ > moves;
      break;
    }
  }
  return step;
}

// A line's constituents are compiled as a path's (a line has no dash); those of a line inside
// one of them do not count as its own move filters.
FilterPtr Compiler::line(const Node& n, const SquareTransform& t) {
  const detail::LineSpec spec{.backward = n.has(FlagPrevious),
                              .single_color = n.has(FlagSingleColor),
                              .primary = n.has(FlagPrimary),
                              .secondary = n.has(FlagSecondary),
                              .nest_ban = n.has(FlagNestBan),
                              .first_match = n.has(FlagFirstMatch),
                              .last_position = n.has(FlagLastPosition),
                              .low = n.has(FlagCount) ? n.number : 0,
                              .high = n.has(FlagCount) ? n.high : INT64_MAX,
                              .range = n.range};
  const size_t moves = line_moves_;
  std::vector<detail::PathStep> steps;
  for (const NodePtr& c : n.children) steps.push_back(path_step(*c, t, true));
  line_moves_ = moves;
  return detail::make_line(spec, std::move(steps));
}

FilterPtr Compiler::find(const Node& n, const SquareTransform& t) {
  detail::FindSpec spec{.backward = n.has(FlagPrevious), .count = n.has(FlagCount)};
  if (n.has(FlagAll)) spec.low = 1;
  if (n.children.size() > 1) spec.low = spec.high = n.child(1).number;
  if (n.children.size() > 2) spec.high = n.child(2).number;
  return detail::make_find(spec, compile(n.child(0), t), n.range);
}

FilterPtr Compiler::imagine(const Node& n, const SquareTransform& t) {
  std::vector<detail::ImagineAction> steps;
  Filters args;
  for (size_t i = 0; i + 1 < n.children.size(); ++i) {
    const Node& spec = n.child(i);
    detail::ImagineAction action;
    action.step = spec.imagine_step;
    if (spec.imagine_step == ImagineStep::Piece) action.piece = t.pieces(spec.child(0).pieces);
    action.side = spec.side;
    if (t.swaps_colors() && spec.side != Side::Reverse)
      action.side = spec.side == Side::White ? Side::Black : Side::White;
    for (const NodePtr& c : spec.children) args.push_back(compile(*c, t));
    steps.push_back(action);
  }
  return detail::make_imagine(std::move(steps), std::move(args), compile(*n.children.back(), t));
}

}  // namespace

Program::Program(std::unique_ptr<detail::Filter> root, SemaInfo info, FilterKind kind)
    : root_(std::move(root)), info_(std::move(info)), kind_(kind) {}
Program::Program(Program&&) noexcept = default;
Program& Program::operator=(Program&&) noexcept = default;
Program::~Program() = default;

Expected<Program, QueryError> compile(const Node& root, const SemaInfo& info) {
  try {
    FilterPtr filter = Compiler(info).compile(root, SquareTransform());
    return Program(std::move(filter), info, root.filter);
  } catch (CompileFailure& f) {
    return unexpected(std::move(f.error));
  }
}

Expected<Program, QueryError> compile(std::string_view source) {
  Expected<NodePtr, QueryError> tree = parse(source);
  if (!tree) return unexpected(tree.error());
  Expected<SemaInfo, QueryError> info = analyze(**tree);
  if (!info) return unexpected(info.error());
  return compile(**tree, *info);
}

}  // namespace egtb::query
