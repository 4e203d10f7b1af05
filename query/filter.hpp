// The compiled form of a query (internal to egtb_query): a tree of Filter objects built once by
// compile() and run on every position without allocating.
//
// A Filter answers matches(); a Set filter also squares() (it matches when they are not empty), a
// Numeric filter number() (it matches when the number is defined). The Context carries the
// position, the variables and per-position facts computed at most once (mate, stalemate, the
// pure/model/ideal sets), and is reused from position to position.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "egtb/core/cancellation.hpp"
#include "egtb/core/position.hpp"
#include "pgn/game.hpp"
#include "query/ast.hpp"
#include "query/eval.hpp"
#include "query/game_selection.hpp"
#include "query/mate.hpp"
#include "query/piece_ids.hpp"
#include "query/table_context.hpp"

namespace egtb::query::detail {

struct Slot {
  Bitboard squares = 0;
  int64_t number = 0;
  std::string text;
  bool bound = false;
  uint64_t visit = 0;  // Context::visit where a piece variable was bound: its man stands on `squares` there

  // As a variable never assigned; allocates nothing (the text keeps its capacity), since loops
  // and every position of a table scan unbind.
  void unbind() {
    squares = 0;
    number = 0;
    text.clear();
    bound = false;
    visit = 0;
  }
};

// A key or a value of a dictionary (CQL's dictionary D: D[k] = v). A dictionary holds keys of one
// kind and values of one kind (sema), each in its field, the others zero, so that keys compare by
// their kind's field: a set by its bitboard, a number, a string by its bytes, a position by its node
// in the game (kept in `number`). Example: D[3] = a1 adds the key {number 3} with {squares a1}.
struct Datum {
  Bitboard squares = 0;
  int64_t number = 0;
  std::string text;
  auto operator<=>(const Datum&) const = default;
};
using Dictionary = std::map<Datum, Datum>;

// Facts about the current position, computed on first use.
struct PositionFacts {
  uint8_t known = 0;  // bits: 1 terminal, 2 mates, 4 stalemates
  bool checkmate = false;
  bool stalemate = false;
  MateSets mates;
  MateSets stalemates;
};

// A path found (filters_path.cpp): where it starts and ends, its moves and its max value.
struct PathStatus {
  pgn::NodeId start = pgn::NoNode;
  pgn::NodeId best = pgn::NoNode;
  int64_t count = -1;
  int64_t max = 0;
};

struct Context {
  const Position* pos = nullptr;
  const TableContext* tables = nullptr;
  // The game the position belongs to and its node there; null over tables and FEN lists, where a
  // position is a game of one position (filters_game.cpp).
  const pgn::Game* game = nullptr;
  pgn::NodeId node = pgn::Game::Root;
  // lastgamenumber: the number of the input's last game, counted before the run (0: not counted,
  // off a PGN input).
  uint64_t last_game_number = 0;
  // Whether the positions of variations are read (--variations, cql(variations)); without, the game
  // is its mainline, as CQL reads it: no variation moves, children or positions to find.
  bool variations = true;
  // The game's positions in preorder and each node's place there (positionid, position N), built
  // once per game so that a query reading them at every position of a long game stays linear.
  struct GameOrder {
    const pgn::Game* game = nullptr;
    uint64_t number = 0;
    size_t size = 0;
    std::vector<pgn::NodeId> nodes;  // by positionid
    std::vector<uint32_t> ids;       // by node
    std::vector<uint32_t> last;      // by node: the positionid of its last descendant (its own if none)
  } order;
  const GameOrder& game_order();
  // CQL's piece identity (piece_ids.hpp) at the current position: the number of the man on `s`
  // (NoPieceId on an empty square), and the square of the man numbered `id` (none once captured).
  // The numbers of a game's positions are built once per game, on first use.
  GamePieceIds game_piece_ids;
  [[nodiscard]] int8_t piece_id(Square s) {
    if (!game) return start_piece_id(*pos, s);
    return game_piece_ids.of(*game).by_node[node][static_cast<size_t>(to_index(s))];
  }
  [[nodiscard]] std::optional<Square> piece_square(int64_t id);
  std::vector<Slot> slots;
  std::vector<Dictionary> dictionaries;  // indexed as SemaInfo::dictionaries
  std::vector<std::string> notes;        // message and comment output of this position
  std::vector<SortValue> sort_values;    // sort filter values, in evaluation order
  GameEdits edits;                       // what settag and removecomment ask of the game written
  // The groups of the last regular expression matched (~~), for \N; none after a failed match.
  std::vector<std::optional<std::string>> groups;
  PositionFacts facts;
  std::vector<std::vector<Position>> line_ends;  // scratch for dtsend/dtmend, one per nesting level
  size_t line_depth = 0;
  const Cancellation* cancellation = nullptr;
  uint64_t steps = 0;  // loop bodies run on this position
  // path nestban: per path filter, the positions of the game inside a path found so far, where no
  // later path of that filter may start (CQL's nestIds); cleared when the game changes.
  struct NestBans {
    const pgn::Game* game = nullptr;
    uint64_t number = 0;
    std::map<const void*, std::vector<bool>> banned;
  } nest_bans;
  std::vector<bool>& banned_starts(const void* path);
  // pathcount, pathstart and pathlastposition read the search under way (inside a path) or the
  // last path found in the game.
  struct PathSearch {
    PathStatus found;
    int64_t moves = 0;  // so far
  };
  const PathSearch* searching = nullptr;
  // While a constituent of a line is matched at a position, the move (its node) the line goes on
  // with from there when the constituent holds move filters that follow it (CQL's linearize:
  // "line --> move from K --> check" is a king's move that gives check), else NoNode; the move
  // filters that follow the line read it (PlayedMoveSpec::follows_line).
  pgn::NodeId line_move = pgn::NoNode;
  // The squares a dash's two sets hold while its target runs at the position after the move
  // (CQL's owned FromToNode masks): from and to read them to tell a castling's king from its rook.
  // Every square elsewhere; a filter that moves to another position (PositionScope) clears them.
  struct DashMasks {
    Bitboard from = ~Bitboard{0};
    Bitboard to = ~Bitboard{0};
  } dash_masks;
  struct LastPath {
    const pgn::Game* game = nullptr;
    uint64_t number = 0;
    PathStatus status;
  } last_path;

  // One more run of the body of the loop at `where` (square, piece, move, dtsend, dtmend): throws
  // RunError past MaxLoopSteps on this position, and Cancelled once the
  // cancellation is requested (asked every 64 steps, and at each line end, a costly step).
  void step(const SourceRange& where, bool costly = false);

  // Numbers the positions the evaluator stands on, each time it comes to one (1, 2, ...; a
  // PositionScope's end returns to the number it left): a piece variable bound at visit 5 finds its
  // man where it was bound as long as the visit is 5, without looking at his identity.
  uint64_t visit = 0;
  uint64_t visits = 0;
  void set_position(const Position& p) {
    pos = &p;
    facts.known = 0;
    visit = ++visits;
  }
  void terminal();  // fills facts.checkmate and facts.stalemate
  const MateSets& mates();
  const MateSets& stalemates();
};

// A variable bound for one scope (the runs of a loop, echo's pairs): unbound when the scope ends,
// however it ends (a step limit's throw too), as CQL leaves such variables unbound after them.
class ScopedSlot {
public:
  ScopedSlot(Context& ctx, size_t slot) : slot_(ctx.slots[slot]) {}
  ~ScopedSlot() { slot_.unbind(); }
  ScopedSlot(const ScopedSlot&) = delete;
  ScopedSlot& operator=(const ScopedSlot&) = delete;
  Slot* operator->() const { return &slot_; }

private:
  Slot& slot_;
};

// Evaluates a filter at another position and restores the current one. A position off the game
// (move legal, imagine, dtsend) has no node: game filters see it as a game of one position.
class PositionScope {
public:
  PositionScope(Context& ctx, const Position& p) : PositionScope(ctx) {
    ctx.set_position(p);
    ctx.game = nullptr;
    ctx.node = pgn::Game::Root;
  }
  // At another node of the current game.
  PositionScope(Context& ctx, pgn::NodeId node) : PositionScope(ctx) {
    ctx.set_position(ctx.game->position(node));
    ctx.node = node;
  }
  ~PositionScope() {
    ctx_.pos = pos_;
    ctx_.visit = visit_;
    ctx_.facts = facts_;
    ctx_.game = game_;
    ctx_.node = node_;
    ctx_.dash_masks = masks_;
  }
  PositionScope(const PositionScope&) = delete;
  PositionScope& operator=(const PositionScope&) = delete;

private:
  // Saves the current position; the dash's sets are every square at the new one.
  explicit PositionScope(Context& ctx)
      : ctx_(ctx),
        pos_(ctx.pos),
        visit_(ctx.visit),
        facts_(ctx.facts),
        game_(ctx.game),
        node_(ctx.node),
        masks_(ctx.dash_masks) {
    ctx.dash_masks = {};
  }

  Context& ctx_;
  const Position* pos_;
  uint64_t visit_;
  PositionFacts facts_;
  const pgn::Game* game_;
  pgn::NodeId node_;
  Context::DashMasks masks_;
};

class Filter {
public:
  explicit Filter(FilterKind kind) : kind_(kind) {}
  virtual ~Filter() = default;
  Filter(const Filter&) = delete;
  Filter& operator=(const Filter&) = delete;

  [[nodiscard]] FilterKind kind() const { return kind_; }
  virtual bool matches(Context& ctx) const {
    if (kind_ == FilterKind::Position) return position(ctx) != pgn::NoNode;
    if (kind_ == FilterKind::String) {
      std::string s;
      return text(ctx, s);
    }
    int64_t n = 0;
    return kind_ == FilterKind::Set ? squares(ctx) != 0 : number(ctx, n);
  }
  virtual Bitboard squares(Context& ctx) const { return matches(ctx) ? ~Bitboard{0} : 0; }
  virtual bool number(Context& ctx, int64_t& out) const {
    out = 0;
    return matches(ctx);
  }
  // The text of a String filter, when it has one.
  virtual bool text(Context&, std::string&) const { return false; }
  // The node of a Position filter (parent, child), or NoNode when there is none.
  virtual pgn::NodeId position(Context&) const { return pgn::NoNode; }

private:
  FilterKind kind_;
};

using FilterPtr = std::unique_ptr<Filter>;
using Filters = std::vector<FilterPtr>;

// Value of a Set filter, or the set counted by a Numeric comparison with a set operand.
inline bool number_of(const Filter& f, Context& ctx, int64_t& out) {
  if (f.kind() == FilterKind::Set) {
    out = popcount(f.squares(ctx));
    return true;
  }
  return f.number(ctx, out);
}

// ---- factories, by theme (filters_logic.cpp, filters_set.cpp, filters_board.cpp)

FilterPtr make_true(bool value);
FilterPtr make_sequence(Filters parts);  // { ... }: all match; the value of the last
FilterPtr make_not(FilterPtr f);
FilterPtr make_and(Filters parts);  // each matches, tried in order
FilterPtr make_or(Filters parts);   // one matches, tried in order
FilterPtr make_if(FilterPtr test, FilterPtr then, FilterPtr otherwise, FilterKind kind);
// loop f: f again and again while it matches; matches if it matched once. while (t) f: f each time
// t matches; matches. Each round is a step of the loop bound (Context::step).
FilterPtr make_repeat(FilterPtr body, SourceRange range);
FilterPtr make_while(FilterPtr test, FilterPtr body, SourceRange range);
FilterPtr make_number(int64_t value);
FilterPtr make_arith(ArithOp op, FilterPtr a, FilterPtr b);
FilterPtr make_negate(FilterPtr f);
FilterPtr make_abs(FilterPtr f);
FilterPtr make_sqrt(FilterPtr f);
// isbound x, isunbound x (slot -1: no variable of that name, never bound), unbind x.
FilterPtr make_binding(Keyword word, int slot);
// assert f: matches where f does, and fails the run (RunError, located at `range`) elsewhere.
FilterPtr make_assert(FilterPtr f, SourceRange range);  // the root of a number >= 0, rounded down as CQL does
FilterPtr make_extremum(bool max, Filters args);
FilterPtr make_compare(CompareOp op, FilterPtr a, FilterPtr b);  // numbers or counted sets
FilterPtr make_count(FilterPtr set);
FilterPtr make_variable(int slot, FilterKind kind);
FilterPtr make_assign(int slot, FilterPtr value);
// square x in S / piece x in S: the body for each square of S (piece: each man on S, whose number
// x holds, piece_ids.hpp); the squares where it matches, or (all) whether it matches on every one.
FilterPtr make_loop(int slot, FilterPtr set, FilterPtr body, bool all, bool pieces, SourceRange range);
// ---- piece identity (filters_piece.cpp)
FilterPtr make_piece_variable(int slot);  // the square of its man at the position (none once captured)
// piece x = S: x holds the man on S when S is one square with a man (and matches), else fails and
// leaves x as it was.
FilterPtr make_piece_assign(int slot, FilterPtr set);
// pieceid: the number of the man of a piece variable (slot), or of the man on a set of one square.
FilterPtr make_piece_id(int slot, FilterPtr set);
FilterPtr make_sort(FilterPtr body, size_t key);  // key: its index in SemaInfo::sorts
FilterPtr make_message(std::string prefix, Filters args, std::vector<std::string> literals);
FilterPtr make_variants(Filters variants, FilterKind kind, bool count);  // transforms

FilterPtr make_designator(PieceMask pieces, Bitboard squares);
FilterPtr make_union(Filters sets);
FilterPtr make_intersection(Filters sets);
FilterPtr make_complement(FilterPtr a);
FilterPtr make_subset(FilterPtr a, FilterPtr b);
FilterPtr make_set_equality(FilterPtr a, FilterPtr b, bool equal);
FilterPtr make_attacks(FilterPtr from, FilterPtr to, bool value_is_from);
FilterPtr make_rays(Filters sets, uint8_t directions, bool attack, bool value_is_first);
FilterPtr make_pin(FilterPtr from, FilterPtr through, FilterPtr to, PinRole role);
FilterPtr make_between(FilterPtr a, FilterPtr b);
FilterPtr make_power(FilterPtr a);
FilterPtr make_distance(FilterPtr a, FilterPtr b);
FilterPtr make_square_color(FilterPtr a, bool light);
// rank, file (from 1), colortype, type (CQL's numbers), typename, piecename (letters) of one square;
// none unless the set is one square.
FilterPtr make_square_fact(Keyword keyword, FilterPtr square);
FilterPtr make_square_of(Filters args);  // makesquare: (file rank) from 1, or a name ("e4")
FilterPtr make_pawns(Keyword keyword);   // passedpawns, doubledpawns, isolatedpawns, connectedpawns
// up, diagonal, anydirection ... as filters: the squares low to high steps from those of `from` in
// the directions.
FilterPtr make_vector(DirectionSet directions, int64_t low, int64_t high, FilterPtr from);
// The same with counts evaluated at the position, from -7 to 7 (a negative count steps the other
// way); none out of that range or with low > high (where CQL stops with an error).
FilterPtr make_counted_vector(DirectionSet directions, FilterPtr low, FilterPtr high, FilterPtr from);

FilterPtr make_keyword(Keyword keyword);  // wtm btm check mate ... puremate ... dtm ... (not true, false)
FilterPtr make_report(bool reachable);    // legalposition / reachableposition as text
FilterPtr make_current_fen();
FilterPtr make_fen_match(const Position& placement);
// move legal: roles[i] (From, To or Capture) names params[i]; the promotion men are in `promote`.
// The kinds of move a move filter keeps: en passant captures, castlings (of one side or of
// either). CQL's o-o is a king's move to the g file: castling is stored as the king's move e1g1.
struct MoveKindFilter {
  bool en_passant = false;
  bool castle = false;
  bool kingside = false;   // o-o
  bool queenside = false;  // o-o-o
  [[nodiscard]] bool admits(Move m) const {
    const bool castling = m.kind() == MoveKind::Castling;
    if (en_passant && m.kind() != MoveKind::EnPassant) return false;
    if ((castle || kingside || queenside) && !castling) return false;
    if (kingside && file_of(m.to()) != 6) return false;  // e1g1, e8g8
    return !queenside || file_of(m.to()) == 2;           // e1c1, e8c8
  }
  [[nodiscard]] bool admits_every_move() const { return !en_passant && !castle && !kingside && !queenside; }
};
struct MoveSpec {
  std::vector<MoveRole> roles;
  PieceMask promote = 0;
  bool count = false;
  bool all = false;
  bool value_is_to = false;  // the value is the target squares (the first role is to or capture)
  // countmoves legal --: a move is its two squares, as CQL counts (a promotion counts once)
  bool squares_only = false;
  // legal --(target): only the moves of that kind (CQL's targets: o-o, o-o-o, castle, enpassant)
  MoveKindFilter kind;
  // pseudolegal: every move of the side to move's men by their rules, whether or not it leaves
  // its king in check (pseudolegal_moves); castling as in legal
  bool pseudolegal = false;
};
FilterPtr make_move(const MoveSpec& spec, Filters params, FilterPtr body, SourceRange range);
// imagine: Piece (the man in `piece`, two arguments: unused, squares), Swap (two squares
// arguments), SideToMove (`side`, no arguments).
struct ImagineAction {
  ImagineStep step = ImagineStep::Piece;
  PieceMask piece = 0;
  Side side = Side::White;
};
FilterPtr make_imagine(std::vector<ImagineAction> steps, Filters spec_args, FilterPtr body);
// ---- the game (filters_game.cpp)
// The next alternative to the move to `child`, when variations are read (NoNode without).
pgn::NodeId next_sibling(const Context& ctx, pgn::NodeId child);
// The square a move captures on (the e.p. pawn's for an en passant capture), or none.
std::optional<Square> capture_square(const Position& before, Move m);
FilterPtr make_move_square(bool from);      // from, to: the squares of the move that led here
FilterPtr make_game_word(Keyword keyword);  // initial terminal ply movenumber mainline variation ...
FilterPtr make_child(FilterPtr index);      // child, child(n): index may be null
FilterPtr make_position_at(FilterPtr id);   // position N
// find [<-] [all | N [M]] f: the first position from the current one on (backward: up to the start)
// where f matches; with count, the number of them when it is within [low, high].
struct FindSpec {
  bool backward = false;
  bool count = false;
  int64_t low = 0;
  int64_t high = INT64_MAX;
};
FilterPtr make_find(const FindSpec& spec, FilterPtr body, SourceRange range);
FilterPtr make_with_position(FilterPtr position, FilterPtr body);  // parent : f
FilterPtr make_result(std::string result);                         // result "1-0"
// ---- positions as values (filters_echo.cpp)
// p & q: the squares where the two positions have the same man, or are both empty.
FilterPtr make_same_squares(FilterPtr p, FilterPtr q);
FilterPtr make_position_distance(FilterPtr p, FilterPtr q);  // plies from each to their lca, summed
FilterPtr make_lca(FilterPtr p, FilterPtr q);                // their latest common ancestor
// p < q ... (positionids), p [<] q (p an ancestor of q) ...: the value is p.
FilterPtr make_position_compare(CompareOp op, FilterPtr p, FilterPtr q);
// echo (s t) [in all] body: body at every position of the game but the current one (all: every
// one), s the current position and t that one; with a numeric body, the greatest value.
FilterPtr make_echo(int source, int target, bool all, FilterPtr body, SourceRange range);
// consecutivemoves low high (s t): the longest run of the same moves on the ways from lca(s t) to
// s and to t, when it is within [low, high].
FilterPtr make_consecutive_moves(int source, int target, int64_t low, int64_t high);
// move [previous] [from X] [to Y] [capture Z] [promote T] [null] [primary|secondary] [enpassant]
// [castle]: the moves
// played from the position (or the one that led to it); `value` is the role whose squares are the
// value, or Body for a logical filter.
struct PlayedMoveSpec {
  bool previous = false;
  bool null = false;
  bool primary = false;
  bool secondary = false;
  MoveKindFilter kind;  // enpassant, castle, o-o, o-o-o
  PieceMask promote = 0;
  MoveRole value = MoveRole::Body;
  // A move filter of a line's constituent (not inside another filter read elsewhere): it sees only
  // the move the line goes on with, Context::line_move, when there is one.
  bool follows_line = false;
};
// comment (may be null): CQL's "move ... comment (...)", written at the position the move leads to.
// en_passant_square (may be null): "move enpassantsquare S", an e.p. capture of a pawn on S.
FilterPtr make_played_move(const PlayedMoveSpec& spec, FilterPtr from, FilterPtr to, FilterPtr capture,
                           FilterPtr comment = nullptr, FilterPtr en_passant_square = nullptr);
FilterPtr make_line_end(Metric metric, bool all, FilterPtr body, SourceRange range);
// path (filters_path.cpp) and line (filters_line.cpp): a constituent, compiled. Filter: `filter`
// matches where the path has come to (in a line: at the next position of the line); Dash (path
// only): a move (a capture) from `from` to `to` (null: any square), then `filter` (may be null) at
// the position it leads to; Chain: `steps` in order; Repeat: steps[0] from `low` to `high` times.
struct PathStep {
  enum class Kind : uint8_t { Filter, Dash, Chain, Repeat };
  Kind kind = Kind::Filter;
  FilterPtr filter;
  FilterPtr from;
  FilterPtr to;
  bool capture = false;
  std::vector<PathStep> steps;
  int64_t low = 0;
  int64_t high = 0;
  bool follows_line = false;  // a line's Filter with move filters that follow the line's next move
};
struct PathSpec {
  bool nest_ban = false;
  bool primary = false;
  bool first_match = false;
  bool last_position = false;
  FilterPtr focus;  // the men whose moves the dashes follow; null: every move
  bool focus_capture = false;
  FilterPtr max;               // the value to maximise at the path's end; null: its length
  bool piece_path = false;     // note the ways of the focused men ("Focus path: Qh8-g8-g7")
  bool keep_all_best = false;  // keep the notes of every best path, not the first one's only
  std::string title;           // noted where the path starts, unless empty
  SourceRange range;
  std::vector<size_t> atomics;  // the slots of the atomic variables (atomic x = e), restored as it backtracks
};
FilterPtr make_path(PathSpec spec, std::vector<PathStep> steps);
// CQL's dash as a filter (a Dash step): a move played from the position fits it; the value (of
// `kind`) is its target's after the first such move.
// previous: the move that led to the position (previous --, currentmove --), its sets read there.
FilterPtr make_dash(PathStep dash, FilterKind kind, bool previous);
FilterPtr make_path_word(Keyword keyword);  // pathcount pathstart pathlastposition
// A dash's "=s", s a string: the move that led to the position promoted to a man whose letter
// (either case) is in s, evaluated before the move; "" or "." any promotion (CQL's PastMoveNode).
FilterPtr make_promotion_named(FilterPtr letters);
// line: forward (-->) or back to the start (<--); the value is the number of positions matched
// (singlecolor: of the side to move), or with last_position the line's last position.
struct LineSpec {
  bool backward = false;
  bool single_color = false;
  bool primary = false;
  bool secondary = false;
  bool nest_ban = false;
  bool first_match = false;
  bool last_position = false;
  int64_t low = 0;  // the lengths admitted
  int64_t high = INT64_MAX;
  SourceRange range;
};
FilterPtr make_line(LineSpec spec, std::vector<PathStep> steps);
// ---- strings and the game's data (filters_text.cpp)
FilterPtr make_string(std::string text);                              // a literal
FilterPtr make_str(Filters args, std::vector<std::string> literals);  // str(...): message's text
// The text of a filter as message and str write it: a set's squares, a number, a string, or
// <true>/<false>; "<none>" for a number or string without a value.
std::string text_of(const Filter& f, Context& ctx);
FilterPtr make_string_compare(CompareOp op, FilterPtr a, FilterPtr b);
FilterPtr make_concatenation(FilterPtr a, FilterPtr b);
FilterPtr make_string_in(FilterPtr part, FilterPtr whole);
FilterPtr make_index_of(FilterPtr part, FilterPtr whole);  // where part begins in whole (none if not)
FilterPtr make_length(FilterPtr s);
// s ~~ pattern at `range`; nullptr when the pattern is no regular expression (`error` says why).
FilterPtr make_string_match(FilterPtr s, const std::string& pattern, SourceRange range, std::string& error);
// while (s ~~ pattern) body: body for each match, \N its groups; nullptr as make_string_match.
FilterPtr make_match_loop(FilterPtr s, const std::string& pattern, FilterPtr body, SourceRange range,
                          std::string& error);
FilterPtr make_group(int64_t group);
FilterPtr make_substring(FilterPtr s, FilterPtr start, FilterPtr stop, bool range);
FilterPtr make_convert(Keyword keyword, FilterPtr s);  // lowercase, uppercase, int
FilterPtr make_tag(std::string name);                  // "" for player: both players
FilterPtr make_elo(std::string side);                  // "White", "Black" or "" (the higher)
FilterPtr make_game_data(Keyword keyword);
// hhdb [award|prize|hm|commendation] [special] [max] (query/hhdb.hpp): the rank of the game's award
// in its Event tag; it matches (without a value) a special award that `special` did not ask for.
FilterPtr make_hhdb_award(std::string type, bool special, bool max);
// originalcomment "!": the move that led to the position has that NAG.
FilterPtr make_nag(uint8_t nag);
// removecomment: the comments after the move that led to the position are left out of the game
// written (Context::edits); it matches.
FilterPtr make_remove_comment();
// settag("name" value): the game written gets the tag (Context::edits); it matches when value has
// a value.
FilterPtr make_set_tag(std::string name, FilterPtr value);  // year, originalcomment
// ---- dictionaries (filters_dictionary.cpp), each named by its index in Context::dictionaries
// D[key]: matches when D has the key; its value there, of `kind` (Logical: presence only).
FilterPtr make_dictionary_entry(int dictionary, FilterPtr key, FilterKind kind);
// D[key] = value: matches when both have a value, and sets the entry.
FilterPtr make_dictionary_assign(int dictionary, FilterPtr key, FilterPtr value);
// unbind D (key null: every entry), unbind D[key]: matches (unless the key has no value).
FilterPtr make_dictionary_unbind(int dictionary, FilterPtr key);
FilterPtr make_dictionary_count(int dictionary);  // #D: its number of entries
// x ∊ D body: body once for each key of D, x bound to it; matches (CQL's DictionaryIterateNode).
FilterPtr make_dictionary_loop(int slot, int dictionary, FilterPtr body, SourceRange range);
// message(D), comment(D): D's entries as text, each key of kind `key` and value of kind `value`.
FilterPtr make_dictionary_text(int dictionary, std::string name, FilterKind key, FilterKind value);

}  // namespace egtb::query::detail
