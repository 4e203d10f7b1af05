// CQL 6.2's path (⊢): a search, from the current position, for the longest sequence of moves of the
// game that its constituents match in order, as CQL's PathNode computes it (path-compute*.cpp).
//
// A filter constituent matches at the position the path has come to; a dash plays one move of the
// game (a child of that position) and its targets match at the position after it; a chain is its
// constituents in order; a repetition matches its constituent from `low` to `high` times. The
// search tries every way (depth first, the fewer repetitions first) and keeps the path with the
// most moves (with max, the greatest value of max at its end; the first found among equals). Its
// value is that number of moves; a path of no move does not match. Example, over
// "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#": "path -- check" from the position before 4. Qxf7# is 1,
// "path (-- not check)* -- mate" from the start is 7.
//
// With focus, a dash plays the next move (in every line) of one of the men the focus set holds
// where the path starts, followed through their moves; the first dash a move from the start
// itself. With nestban, no path starts inside one found before in the game (CQL's nestIds).
// Every move tried is a loop step (Context::step): a path that explodes over a long game stops at
// MaxLoopSteps with an error rather than running for hours.
#include <algorithm>
#include <cctype>

#include "query/constituents.hpp"
#include "query/eval.hpp"
#include "query/filter.hpp"

namespace egtb::query::detail {

namespace {

using pgn::NodeId;
using pgn::NoNode;

// Whether the move from `before` goes from a square of `from` to one of `to` (a capture: takes on
// one of `to`), as CQL's QMove::validMove: a null move goes from the king's square to itself, a
// castling moves the king or the rook.
bool fits(const Position& before, Move m, Bitboard from, Bitboard to, bool capture) {
  if (capture) {
    const std::optional<Square> taken = capture_square(before, m);
    return taken && (from & square_bb(m.from())) && (to & square_bb(*taken));
  }
  if (m.is_null()) return (from & to & before.pieces(before.side_to_move(), PieceType::King)) != 0;
  if (m.kind() == MoveKind::Castling) {
    const auto [rook_from, rook_to] = castling_rook(m);
    return ((from & square_bb(m.from())) && (to & square_bb(m.to()))) ||
           ((from & square_bb(rook_from)) && (to & square_bb(rook_to)));
  }
  return (from & square_bb(m.from())) && (to & square_bb(m.to()));
}

// The focused men after the move from `before` (their squares: a man moved keeps its focus, a
// man taken loses it).
Bitboard follow(Bitboard men, const Position& before, Move m) {
  if (m.is_null()) return men;
  if (const std::optional<Square> taken = capture_square(before, m)) men &= ~square_bb(*taken);
  auto move_man = [&men](Square from, Square to) {
    if (men & square_bb(from)) men = (men & ~square_bb(from)) | square_bb(to);
  };
  if (m.kind() == MoveKind::Castling) {
    const auto [rook_from, rook_to] = castling_rook(m);
    move_man(rook_from, rook_to);
  }
  move_man(m.from(), m.to());
  return men;
}

// The position after a dash's move, where its target runs: from and to there see the dash's sets.
class TargetScope {
public:
  TargetScope(Context& ctx, NodeId node, Bitboard from, Bitboard to) : scope_(ctx, node) {
    ctx.dash_masks = {from, to};
  }

private:
  PositionScope scope_;
};

class PathFilter final : public Filter {
public:
  PathFilter(PathSpec spec, std::vector<PathStep> steps)
      : Filter(spec.last_position ? FilterKind::Position : FilterKind::Numeric),
        spec_(std::move(spec)),
        steps_(std::move(steps)) {}

  bool matches(Context& ctx) const override { return search(ctx).best != NoNode; }
  bool number(Context& ctx, int64_t& out) const override {
    const PathStatus f = search(ctx);
    out = spec_.max ? f.max : f.count;
    return f.best != NoNode;
  }
  NodeId position(Context& ctx) const override { return search(ctx).best; }

private:
  PathSpec spec_;
  std::vector<PathStep> steps_;

  // Points ctx.searching at a search while it runs (pathcount and pathstart read it).
  class Searching {
  public:
    Searching(Context& ctx, const Context::PathSearch& search) : ctx_(ctx), outer_(ctx.searching) {
      ctx.searching = &search;
    }
    ~Searching() { ctx_.searching = outer_; }
    Searching(const Searching&) = delete;
    Searching& operator=(const Searching&) = delete;

  private:
    Context& ctx_;
    const Context::PathSearch* outer_;
  };

  // One search from the current position.
  class Search : Constituents<Search> {
  public:
    Search(const PathFilter& path, Context& ctx)
        : Constituents(path.steps_), path_(path), ctx_(ctx), game_(*ctx.game), start_(ctx.node) {}

    PathStatus run() {
      if (path_.spec_.focus) men_ = path_.spec_.focus->squares(ctx_) & ctx_.pos->pieces();
      state_.found.start = start_;
      notes_ = low_notes_ = ctx_.notes.size();
      const std::vector<Slot> before = atomic_values();
      {
        const Searching searching(ctx_, state_);
        compute(start_);
      }
      set_atomic_values(state_.found.best != NoNode ? best_atomics_ : before);
      ctx_.notes.resize(notes_);
      if (state_.found.best != NoNode)
        ctx_.notes.insert(ctx_.notes.end(), best_notes_.begin(), best_notes_.end());
      return state_.found;
    }

  private:
    friend Constituents;
    const PathFilter& path_;
    Context& ctx_;
    const pgn::Game& game_;
    NodeId start_;
    Context::PathSearch state_;  // the best path so far and the moves (focused moves) so far
    Bitboard men_ = 0;           // the focused men, where they stand
    // The notes (message, comment) of the constituents: those of the path found (with keepallbest,
    // of every best path, each note once) are kept, the others dropped, as CQL keeps its comments.
    // Context::notes is a stack that the search pushes and pops; low_notes_ is its least size since
    // the last path kept, below which it holds notes best_notes_ already has. Example: with
    // keepallbest, paths "A B" and "A C" of one length (A, B, C the notes on their ways) keep A, B, C.
    size_t notes_ = 0;  // Context::notes at the start
    size_t low_notes_ = 0;
    std::vector<std::string> best_notes_;
    // The atomic variables as the best path so far had them at its end (CQL's atomic x = e: each
    // move tried restores them after it, and the path found leaves them as it had them; over
    // "1. e4 e5 2. Qh5 (2. d4)", "atomic X = 0 {path -- {X = X + 1} +}" leaves X 3, not 4).
    std::vector<Slot> best_atomics_;

    [[nodiscard]] std::vector<Slot> atomic_values() const {
      std::vector<Slot> values;
      for (const size_t slot : path_.spec_.atomics) values.push_back(ctx_.slots[slot]);
      return values;
    }
    void set_atomic_values(const std::vector<Slot>& values) {
      for (size_t i = 0; i < values.size(); ++i) ctx_.slots[path_.spec_.atomics[i]] = values[i];
    }

    // Drops the notes pushed since the stack held `size`.
    void pop_notes(size_t size) {
      ctx_.notes.resize(size);
      low_notes_ = std::min(low_notes_, size);
    }

    void compute(NodeId at) {
      if (stack_.empty()) {
        if (at != start_) keep(at);
        return;
      }
      const Level level = deeper(path_.spec_.range, "path");
      if (path_.spec_.first_match && state_.found.best != NoNode) return;
      match_top(at);
    }

    // A filter matches where the path has come to.
    void filter(const PathStep& step, NodeId at) {
      ctx_.step(path_.spec_.range);
      const size_t notes = ctx_.notes.size();
      bool matched = false;
      {
        const PositionScope scope(ctx_, at);
        matched = step.filter->matches(ctx_);
      }
      if (matched) compute(at);
      pop_notes(notes);
    }

    void dash(const PathStep& step, NodeId at) {
      if (!path_.spec_.focus) {
        for (NodeId c = game_.node(at).first_child; c != NoNode; c = next_sibling(ctx_, c)) {
          play(step, c, ~Bitboard{0}, men_);
          if (path_.spec_.primary) break;
        }
        return;
      }
      focused(step, at, men_, at == start_);
    }

    // The focused moves from `at` on: its own moves only from the start, else the first focused
    // move of every line from it.
    void focused(const PathStep& step, NodeId at, Bitboard men, bool own_moves_only) {
      const Position& before = game_.position(at);
      for (NodeId c = game_.node(at).first_child; c != NoNode; c = next_sibling(ctx_, c)) {
        const Move m = game_.node(c).move;
        const Bitboard after = follow(men, before, m);
        if (in_focus(men, before, m)) {
          play(step, c, men, after);
        } else if (!own_moves_only) {
          ctx_.step(path_.spec_.range);
          focused(step, c, after, false);
        }
      }
    }

    [[nodiscard]] bool in_focus(Bitboard men, const Position& before, Move m) const {
      if (m.is_null()) return (men & before.pieces(before.side_to_move(), PieceType::King)) != 0;
      if (m.kind() == MoveKind::Castling && (men & square_bb(castling_rook(m).first))) return true;
      if (men & square_bb(m.from())) return true;
      const std::optional<Square> taken = capture_square(before, m);
      return path_.spec_.focus_capture && taken && (men & square_bb(*taken));
    }

    // The move to `child` from its parent (the focused men before it and after it), when it fits
    // the dash: then the rest of the path from the position after it.
    void play(const PathStep& step, NodeId child, Bitboard focused_men, Bitboard men_after) {
      ctx_.step(path_.spec_.range);
      const NodeId head = game_.node(child).parent;
      const Move m = game_.node(child).move;
      Bitboard from = ~Bitboard{0};
      Bitboard to = ~Bitboard{0};
      if (step.from || step.to) {
        const PositionScope scope(ctx_, head);
        if (step.from) from = step.from->squares(ctx_);
        if (step.to) to = step.to->squares(ctx_);
      }
      if (!fits(game_.position(head), m, from, to, step.capture)) return;
      if (m.kind() == MoveKind::Castling &&
          !castle_fits_focus(game_.position(head), m, focused_men, from, to))
        return;
      const size_t notes = ctx_.notes.size();
      const std::vector<Slot> atomics = atomic_values();
      // The move counts already in its target, as in CQL: pathcount there is 1 after the first move.
      ++state_.moves;
      bool fits_target = true;
      if (step.filter) {
        const TargetScope scope(ctx_, child, from, to);
        fits_target = step.filter->matches(ctx_);
      }
      if (fits_target) {
        const Bitboard men = men_;
        men_ = men_after;
        compute(child);
        men_ = men;
      }
      --state_.moves;
      set_atomic_values(atomics);
      pop_notes(notes);
    }

    // A castling fits a focused dash by its focused men alone: the squares of the king or the
    // rook unfocused leave the dash's sets (which from and to in its target see), as in CQL's
    // computeDashConFocused. Whether it still fits.
    static bool castle_fits_focus(const Position& before, Move m, Bitboard men, Bitboard& from,
                                  Bitboard& to) {
      for (const auto& [f, t] : {std::pair{m.from(), m.to()}, castling_rook(m)})
        if (!(men & square_bb(f))) {
          from &= ~square_bb(f);
          to &= ~square_bb(t);
        }
      return fits(before, m, from, to, false);
    }

    // A path found, ending at `end`: kept when it beats the best so far (its notes too; with
    // keepallbest, the notes of one as good are added).
    void keep(NodeId end) {
      int64_t value = 0;
      if (path_.spec_.max) {
        const PositionScope scope(ctx_, end);
        if (!path_.spec_.max->number(ctx_, value)) return;
      }
      const bool first = state_.found.best == NoNode;
      const int64_t best = path_.spec_.max ? state_.found.max : state_.found.count;
      const int64_t score = path_.spec_.max ? value : state_.moves;
      const auto live = ctx_.notes.begin() + static_cast<std::ptrdiff_t>(notes_);
      if (first || score > best) {
        state_.found = {start_, end, state_.moves, value};
        best_notes_.assign(live, ctx_.notes.end());
        best_atomics_ = atomic_values();
      } else if (score == best && path_.spec_.keep_all_best) {
        best_notes_.insert(best_notes_.end(), live + static_cast<std::ptrdiff_t>(low_notes_ - notes_),
                           ctx_.notes.end());
      } else {
        return;
      }
      low_notes_ = ctx_.notes.size();
    }
  };

  // piecepath: the way of each focused man of the start (a1 first, ..., h8 last) to the path's end,
  // as CQL's PiecePathNode writes it: "Focus path: Qh8-g8-g7 Rb1-b8(xb8)", a man's letter and
  // square, then each square he moves to, "(xS)" where he is taken on S; one who never moves is
  // left out, but (as in CQL) not the blank before his place.
  void note_piece_paths(Context& ctx, NodeId end) const {
    const pgn::Game& game = *ctx.game;
    std::vector<NodeId> way;
    for (NodeId n = end; n != ctx.node; n = game.node(n).parent) way.push_back(n);
    std::reverse(way.begin(), way.end());
    const Bitboard men = spec_.focus->squares(ctx) & ctx.pos->pieces();
    const GamePieceIds& ids = ctx.game_piece_ids.of(game);
    std::string text;
    bool seen = false;
    for (Bitboard b = men; b; b &= b - 1) {
      const Square s = lsb(b);
      if (seen) text += ' ';
      const std::string man = piece_way(ids, ctx, s, way);
      if (man.empty()) continue;
      text += man;
      seen = true;
    }
    if (seen) ctx.notes.push_back("Focus path: " + text);
  }

  // The way of the man on `s` at `start` along `way` ("Qh8-g8-g7", "Rb1-b8(xb8)"), or "" if he
  // never moves.
  static std::string piece_way(const GamePieceIds& ids, const Context& ctx, Square s,
                               const std::vector<NodeId>& way) {
    const int id = ids.by_node[ctx.node][static_cast<size_t>(to_index(s))];
    const std::string first = std::string(1, piece_char(ctx.pos->piece_on(s))) + square_name(s);
    std::string text = first;
    Square last = s;
    for (const NodeId n : way) {
      const std::optional<Square> now = square_of(ids.by_node[n], id);
      if (!now) {
        text += "(x" + square_name(last) + ")";
        break;
      }
      if (*now != last) text += "-" + square_name(*now);
      last = *now;
    }
    return text == first ? "" : text;
  }

  PathStatus search(Context& ctx) const {
    if (!ctx.game) return {};
    std::vector<bool>* banned = spec_.nest_ban ? &ctx.banned_starts(this) : nullptr;
    if (banned && (*banned)[ctx.node]) return {};
    const PathStatus f = Search(*this, ctx).run();
    if (f.best == NoNode) return f;
    if (!spec_.title.empty()) ctx.notes.push_back(spec_.title);
    if (spec_.piece_path) note_piece_paths(ctx, f.best);
    ctx.last_path = {ctx.game, ctx.game->number, f};
    if (banned)
      for (NodeId n = ctx.game->node(f.best).parent; n != NoNode; n = ctx.game->node(n).parent) {
        (*banned)[n] = true;
        if (n == ctx.node) break;
      }
    return f;
  }
};

// -- outside path: the first move played from the position that fits the dash and after which its
// target matches (CQL's DashNode); the value is the target's there. previous -- (currentmove --):
// the move that led to the position, its sets read before it (CQL's PreviousDashNode).
class DashFilter final : public Filter {
public:
  DashFilter(PathStep dash, FilterKind kind, bool previous)
      : Filter(kind), dash_(std::move(dash)), previous_(previous) {}

  bool matches(Context& ctx) const override { return first(ctx).node != NoNode; }
  Bitboard squares(Context& ctx) const override {
    const Found f = first(ctx);
    if (f.node == NoNode) return 0;
    const TargetScope scope(ctx, f.node, f.from, f.to);
    return dash_.filter->squares(ctx);
  }
  bool number(Context& ctx, int64_t& out) const override {
    const Found f = first(ctx);
    if (f.node == NoNode) return false;
    const TargetScope scope(ctx, f.node, f.from, f.to);
    return dash_.filter->number(ctx, out);
  }
  bool text(Context& ctx, std::string& out) const override {
    const Found f = first(ctx);
    if (f.node == NoNode) return false;
    const TargetScope scope(ctx, f.node, f.from, f.to);
    return dash_.filter->text(ctx, out);
  }
  NodeId position(Context& ctx) const override {
    const Found f = first(ctx);
    if (f.node == NoNode) return NoNode;
    const TargetScope scope(ctx, f.node, f.from, f.to);
    return dash_.filter->position(ctx);
  }

private:
  PathStep dash_;
  bool previous_;

  // The position after the first move that fits (NoNode if none) and the dash's sets.
  struct Found {
    NodeId node = NoNode;
    Bitboard from = 0;
    Bitboard to = 0;
  };
  Found first(Context& ctx) const {
    if (!ctx.game) return {};
    if (previous_) return led_here(ctx);
    Found f{NoNode, dash_.from ? dash_.from->squares(ctx) : ~Bitboard{0},
            dash_.to ? dash_.to->squares(ctx) : ~Bitboard{0}};
    const pgn::Game& game = *ctx.game;
    for (NodeId c = game.node(ctx.node).first_child; c != NoNode; c = next_sibling(ctx, c)) {
      if (!fits(*ctx.pos, game.node(c).move, f.from, f.to, dash_.capture)) continue;
      if (dash_.filter) {
        const TargetScope scope(ctx, c, f.from, f.to);
        if (!dash_.filter->matches(ctx)) continue;
      }
      f.node = c;
      return f;
    }
    return {};
  }

  // The position itself when the move that led to it fits, its target matching here.
  Found led_here(Context& ctx) const {
    const pgn::Game& game = *ctx.game;
    const NodeId head = game.node(ctx.node).parent;
    if (head == NoNode) return {};
    Found f{ctx.node, ~Bitboard{0}, ~Bitboard{0}};
    if (dash_.from || dash_.to) {
      const PositionScope scope(ctx, head);
      if (dash_.from) f.from = dash_.from->squares(ctx);
      if (dash_.to) f.to = dash_.to->squares(ctx);
    }
    if (!fits(game.position(head), game.node(ctx.node).move, f.from, f.to, dash_.capture)) return {};
    if (dash_.filter) {
      const TargetScope scope(ctx, ctx.node, f.from, f.to);
      if (!dash_.filter->matches(ctx)) return {};
    }
    return f;
  }
};

// A dash's "=s" (s a string): the move that led to the position promoted to a man whose letter, in
// either case, is in s as it reads before the move; "" and "." admit any promotion. Example: with
// T = "q", "♙――=T" is a white pawn's promotion to a queen.
class PromotionNamed final : public Filter {
public:
  explicit PromotionNamed(FilterPtr letters) : Filter(FilterKind::Logical), letters_(std::move(letters)) {}

  bool matches(Context& ctx) const override {
    if (!ctx.game) return false;
    const pgn::Node& node = ctx.game->node(ctx.node);
    if (node.parent == NoNode || node.move.kind() != MoveKind::Promotion) return false;
    std::string letters;
    {
      const PositionScope scope(ctx, node.parent);
      if (!letters_->text(ctx, letters)) return false;
    }
    if (letters.empty() || letters == ".") return true;
    const char promoted = piece_char(make_piece(Color::White, node.move.promotion()));
    return std::any_of(letters.begin(), letters.end(), [promoted](char c) {
      return std::toupper(static_cast<unsigned char>(c)) == promoted;
    });
  }

private:
  FilterPtr letters_;
};

// pathcount, pathstart, pathlastposition: inside a path the search under way (its moves so far,
// its start, its best end so far), elsewhere the last path found in the game (its count only when
// positive, as CQL's PathStatus). pathcountunfocused is CQL's "ply - pathstart:ply - pathcount":
// the moves from the path's start to the current position that the focus skipped (in "path focus
// Q -- --" over "1. Qh5 e5 2. Qxe5", at the end 3 - 0 - 2 = 1), none where pathcount is none.
class PathWord final : public Filter {
public:
  explicit PathWord(Keyword k) : Filter(keyword_info(k).kind), word_(k) {}

  bool number(Context& ctx, int64_t& out) const override {
    const PathStatus* last = ctx.searching ? nullptr : last_path(ctx);
    const int64_t count = ctx.searching ? ctx.searching->moves : last ? last->count : 0;
    if (!ctx.searching && count <= 0) return false;
    if (word_ == Keyword::PathCount) {
      out = count;
      return true;
    }
    if (!ctx.game) return false;
    const NodeId start = ctx.searching ? ctx.searching->found.start : last->start;
    out = ctx.game->ply(ctx.node) - ctx.game->ply(start) - count;
    return true;
  }
  NodeId position(Context& ctx) const override {
    const PathStatus* f = ctx.searching ? &ctx.searching->found : last_path(ctx);
    if (!f) return NoNode;
    return word_ == Keyword::PathStart ? f->start : f->best;
  }

private:
  Keyword word_;

  static const PathStatus* last_path(const Context& ctx) {
    const bool this_game =
        ctx.game && ctx.last_path.game == ctx.game && ctx.last_path.number == ctx.game->number;
    return this_game ? &ctx.last_path.status : nullptr;
  }
};

}  // namespace

std::vector<bool>& Context::banned_starts(const void* path) {
  if (nest_bans.game != game || nest_bans.number != game->number) {
    nest_bans.game = game;
    nest_bans.number = game->number;
    nest_bans.banned.clear();
  }
  std::vector<bool>& banned = nest_bans.banned[path];
  banned.resize(game->size());
  return banned;
}

FilterPtr make_path(PathSpec spec, std::vector<PathStep> steps) {
  return std::make_unique<PathFilter>(std::move(spec), std::move(steps));
}

FilterPtr make_path_word(Keyword keyword) { return std::make_unique<PathWord>(keyword); }

FilterPtr make_promotion_named(FilterPtr letters) {
  return std::make_unique<PromotionNamed>(std::move(letters));
}

FilterPtr make_dash(PathStep dash, FilterKind kind, bool previous) {
  return std::make_unique<DashFilter>(std::move(dash), kind, previous);
}

}  // namespace egtb::query::detail
