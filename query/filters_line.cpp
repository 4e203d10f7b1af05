// CQL's line (the sequence filter older than path, still in CQL 6.2), as its SequenceBase,
// FutureNode and PastNode compute it (sequencebase.cpp, futurenode.cpp, pastnode.cpp).
//
// "line --> f --> g" matches where f matches at the current position and g at the next one (a
// child: the move played or, with variations, any move); "line <-- f <-- g" where g matches at the
// parent. Each filter constituent matches at one position, and the line moves one position on
// before the next one; "( ... )" groups constituents, and a constituent may be repeated (*, +, ?,
// {m,n}). A line ends at the position of its last constituent; its value is the number of its
// positions (with singlecolor, of those whose side to move is the current one's), or with
// lastposition that position. It leaves the current position as it is.
//
// The search backtracks: it tries every way the constituents can match (depth first: for a
// repetition the fewer matches first, for a move the game's order of moves) and keeps the line
// that ends deepest (<--: nearest the start; the first found among equals), or with firstmatch the
// first line found. Greedy matching would miss lines: over "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4.
// Qxf7#", "line --> not mate* --> check" from the start tries check after 0, 1, ... repetitions
// of `not mate`; after 7 (plies 0 to 6) check holds at ply 7, and the 8 repetitions a greedy
// reading would take leave nothing for check. Its value is 8 (positions 0 to 7).
//
// A filter constituent that holds move filters (move from K ...: not inside a filter read at
// another position) is matched once for each move the line may go on with, those move filters
// seeing only that move (CQL's linearize): "line --> move from K --> check" follows a king's move
// to a check, not any move after which the king could have moved.
//
// With singlecolor the positions of the other side to move match by themselves, and with nestban
// no line starts at a position inside one found before in the game (CQL's nestIds). Every filter
// matched counts against the loop bound (Context::step): backtracking over a repetition inside a
// repetition, "(check --> not check*)*", may try the 2^n ways to cut n positions, and stops at
// MaxLoopSteps with an error rather than running for hours.
#include <algorithm>
#include <optional>

#include "query/constituents.hpp"
#include "query/eval.hpp"
#include "query/filter.hpp"

namespace egtb::query::detail {

namespace {

using pgn::NodeId;
using pgn::NoNode;

// The line found from a position: its last position (the current one off a game) and length.
struct LineFound {
  bool found = false;
  NodeId end = NoNode;
  int64_t count = 0;
};

class LineFilter final : public Filter {
public:
  LineFilter(LineSpec spec, std::vector<PathStep> steps)
      : Filter(spec.last_position ? FilterKind::Position : FilterKind::Numeric),
        spec_(std::move(spec)),
        steps_(std::move(steps)) {}

  // With lastposition, a position filter: off a game there is no position to name.
  bool matches(Context& ctx) const override {
    const LineFound f = search(ctx);
    return f.found && (ctx.game || !spec_.last_position);
  }
  bool number(Context& ctx, int64_t& out) const override {
    const LineFound f = search(ctx);
    out = f.count;
    return f.found;
  }
  NodeId position(Context& ctx) const override {
    const LineFound f = search(ctx);
    return f.found && ctx.game ? f.end : NoNode;
  }

private:
  LineSpec spec_;
  std::vector<PathStep> steps_;

  // One search from the current position. Off a game the position is a line of one position.
  class Search : Constituents<Search> {
  public:
    Search(const LineFilter& line, Context& ctx)
        : Constituents(line.steps_), spec_(line.spec_), ctx_(ctx), game_(ctx.game), start_(ctx.node) {}

    LineFound run() {
      side_ = side_to_move(start_);
      notes_ = ctx_.notes.size();
      compute(start_);
      ctx_.notes.resize(notes_);
      if (!found_) return {};
      const int64_t plies = ply(end_) > ply(start_) ? ply(end_) - ply(start_) : ply(start_) - ply(end_);
      const int64_t count = spec_.single_color ? (plies + 2) / 2 : plies + 1;
      if (count < spec_.low || count > spec_.high) return {};
      ctx_.notes.insert(ctx_.notes.end(), best_notes_.begin(), best_notes_.end());
      return {true, end_, count};
    }

  private:
    friend Constituents;
    const LineSpec& spec_;
    Context& ctx_;
    const pgn::Game* game_;
    NodeId start_;
    Color side_ = Color::White;  // to move at the start
    bool found_ = false;
    NodeId end_ = NoNode;
    size_t notes_ = 0;                     // Context::notes at the start
    std::vector<std::string> best_notes_;  // the notes of the constituents of the line found

    [[nodiscard]] int64_t ply(NodeId n) const { return game_ ? game_->ply(n) : 0; }
    [[nodiscard]] Color side_to_move(NodeId n) const {
      return game_ ? game_->position(n).side_to_move() : ctx_.pos->side_to_move();
    }
    // With singlecolor, a position of the other side to move: it matches by itself.
    [[nodiscard]] bool skipped(NodeId n) const { return spec_.single_color && side_to_move(n) != side_; }

    // The positions the line may go on to from `n`: its parent, or the moves from it (those read,
    // primary: the first one, secondary: the others).
    template <class Visit>
    void next(NodeId n, const Visit& visit) {
      if (!game_) return;
      if (spec_.backward) {
        if (n != pgn::Game::Root) visit(game_->node(n).parent);
        return;
      }
      const NodeId first = game_->node(n).first_child;
      for (NodeId c = first; c != NoNode; c = next_sibling(ctx_, c))
        if (!(spec_.primary && c != first) && !(spec_.secondary && c == first)) visit(c);
    }
    [[nodiscard]] bool last(NodeId n) const {
      if (!game_) return true;
      return spec_.backward ? n == pgn::Game::Root : game_->node(n).first_child == NoNode;
    }

    void compute(NodeId at) {
      if (stack_.empty() || (spec_.first_match && found_)) return;
      const Level level = deeper(spec_.range, "line");
      if (!skipped(at)) {
        match_top(at);
        return;
      }
      ctx_.step(spec_.range);
      if (!last(at)) next(at, [this](NodeId n) { compute(n); });
    }

    // A filter constituent at `at`: where it matches, the line may end there (when what is left
    // may match no position) and goes on from there; with move filters that follow the line, once
    // for each move, on to the position after it.
    void filter(const PathStep& step, NodeId at) {
      const size_t notes = ctx_.notes.size();
      if (step.follows_line && !spec_.backward && !last(at)) {
        next(at, [&](NodeId move) {
          if (spec_.first_match && found_) return;
          if (holds(*step.filter, at, move)) matched(at, move);
          ctx_.notes.resize(notes);
        });
        return;
      }
      if (holds(*step.filter, at, NoNode)) matched(at, NoNode);
      ctx_.notes.resize(notes);
    }

    // A constituent matched at `at`: the line may end there, and goes on to the position after
    // `move`, or (NoNode) to every next position.
    void matched(NodeId at, NodeId move) {
      if (rest_matches_nothing()) keep(at);
      if (stack_.empty() || last(at)) return;
      if (move != NoNode) {
        compute(move);
        return;
      }
      next(at, [this](NodeId n) { compute(n); });
    }

    // Whether `f` matches at `at`, its move filters that follow the line seeing `move` alone.
    bool holds(const Filter& f, NodeId at, NodeId move) {
      ctx_.step(spec_.range);
      const NodeId outer = ctx_.line_move;
      ctx_.line_move = move;
      std::optional<PositionScope> scope;
      if (game_) scope.emplace(ctx_, at);
      const bool matched = f.matches(ctx_);
      scope.reset();
      ctx_.line_move = outer;
      return matched;
    }

    // Whether the constituents left may match no position (CQL's computeNull).
    [[nodiscard]] bool rest_matches_nothing() const {
      return std::all_of(stack_.begin(), stack_.end(), [](const Pending& p) {
        return p.seen >= 0 ? p.seen >= p.step->low : matches_nothing(*p.step);
      });
    }
    static bool matches_nothing(const PathStep& step) {
      switch (step.kind) {
        case PathStep::Kind::Chain: return std::all_of(step.steps.begin(), step.steps.end(), matches_nothing);
        case PathStep::Kind::Repeat: return step.low == 0 || matches_nothing(step.steps.front());
        default: return false;
      }
    }

    static void dash(const PathStep&, NodeId) {}  // a line has none

    // A line found, ending at `end`: kept when it goes further than the best so far.
    void keep(NodeId end) {
      const bool further = !found_ || (spec_.backward ? ply(end) < ply(end_) : ply(end) > ply(end_));
      if (!further) return;
      found_ = true;
      end_ = end;
      best_notes_.assign(ctx_.notes.begin() + static_cast<std::ptrdiff_t>(notes_), ctx_.notes.end());
    }
  };

  LineFound search(Context& ctx) const {
    std::vector<bool>* banned = spec_.nest_ban && ctx.game ? &ctx.banned_starts(this) : nullptr;
    if (banned && (*banned)[ctx.node]) return {};
    const LineFound f = Search(*this, ctx).run();
    if (f.found && banned) ban(ctx, f.end, *banned);
    return f;
  }

  // nestban: the positions from the current one to `end` (with singlecolor, those of the current
  // side to move) start no later line.
  void ban(const Context& ctx, NodeId end, std::vector<bool>& banned) const {
    const pgn::Game& game = *ctx.game;
    const Color side = ctx.pos->side_to_move();
    for (NodeId n = end;; n = game.node(n).parent) {
      if (!spec_.single_color || game.position(n).side_to_move() == side) banned[n] = true;
      if (n == ctx.node) break;
    }
  }
};

}  // namespace

FilterPtr make_line(LineSpec spec, std::vector<PathStep> steps) {
  return std::make_unique<LineFilter>(std::move(spec), std::move(steps));
}

}  // namespace egtb::query::detail
