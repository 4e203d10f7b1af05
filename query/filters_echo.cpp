// Positions as values, as CQL 6.2 has them: position variables (bound by echo, or x = a position
// filter), echo, the comparisons of two positions, p & q, lca, distance and consecutivemoves.
//
// A position is a node of the current game (pgn::NodeId); a filter with no position to give
// answers NoNode and does not match. Positions compare by their positionid (the preorder of the
// game's tree, filters_game.cpp); p [<] q holds when p is a proper ancestor of q, that is when q's
// positionid lies after p's and within p's subtree. Example, "1. e4 (1. d4 d5) e5 *" (positionids
// 0 start, 1 e4, 2 e5, 3 d4, 4 d5): lca(e5 d5) is the start, distance(e5 d5) is 2 + 2 = 4, and
// start [<] d5, e4 [<] e5 but not e4 [<] d5.
#include <algorithm>
#include <optional>
#include <utility>

#include "query/filter.hpp"

namespace egtb::query::detail {

namespace {

using pgn::NodeId;
using pgn::NoNode;

NodeId lca_of(const pgn::Game& game, NodeId a, NodeId b) {
  while (a != b) {
    if (game.ply(a) >= game.ply(b))
      a = game.node(a).parent;
    else
      b = game.node(b).parent;
  }
  return a;
}

// A filter of two positions: the nodes its two operands name.
class OfTwoPositions : public Filter {
public:
  OfTwoPositions(FilterKind kind, FilterPtr p, FilterPtr q)
      : Filter(kind), p_(std::move(p)), q_(std::move(q)) {}

protected:
  // The positions the two operands name, in a game; nothing when either names none.
  std::optional<std::pair<NodeId, NodeId>> positions(Context& ctx) const {
    if (!ctx.game) return std::nullopt;
    const NodeId a = p_->position(ctx);
    const NodeId b = q_->position(ctx);
    if (a == NoNode || b == NoNode) return std::nullopt;
    return std::pair{a, b};
  }

private:
  FilterPtr p_;
  FilterPtr q_;
};

class SameSquares final : public OfTwoPositions {
public:
  SameSquares(FilterPtr p, FilterPtr q) : OfTwoPositions(FilterKind::Set, std::move(p), std::move(q)) {}
  Bitboard squares(Context& ctx) const override {
    const auto ab = positions(ctx);
    if (!ab) return 0;
    const auto [a, b] = *ab;
    const Position& x = ctx.game->position(a);
    const Position& y = ctx.game->position(b);
    Bitboard same = 0;
    for (int s = 0; s < 64; ++s)
      if (x.piece_on(Square(s)) == y.piece_on(Square(s))) same |= square_bb(Square(s));
    return same;
  }
};

class PositionDistance final : public OfTwoPositions {
public:
  PositionDistance(FilterPtr p, FilterPtr q)
      : OfTwoPositions(FilterKind::Numeric, std::move(p), std::move(q)) {}

  bool number(Context& ctx, int64_t& out) const override {
    const auto ab = positions(ctx);
    if (!ab) return false;
    const auto [a, b] = *ab;
    const pgn::Game& game = *ctx.game;
    const int up = game.ply(lca_of(game, a, b));
    out = (game.ply(a) - up) + (game.ply(b) - up);
    return true;
  }
};

class Lca final : public OfTwoPositions {
public:
  Lca(FilterPtr p, FilterPtr q) : OfTwoPositions(FilterKind::Position, std::move(p), std::move(q)) {}
  NodeId position(Context& ctx) const override {
    const auto ab = positions(ctx);
    return ab ? lca_of(*ctx.game, ab->first, ab->second) : NoNode;
  }
};

class PositionCompare final : public OfTwoPositions {
public:
  PositionCompare(CompareOp op, FilterPtr p, FilterPtr q)
      : OfTwoPositions(FilterKind::Position, std::move(p), std::move(q)), op_(op) {}

  NodeId position(Context& ctx) const override {
    const auto ab = positions(ctx);
    if (!ab) return NoNode;
    const auto [a, b] = *ab;
    const Context::GameOrder& order = ctx.game_order();
    const int64_t x = order.ids[a];
    const int64_t y = order.ids[b];
    const auto within = [&](int64_t id, NodeId root) { return id <= order.last[root]; };
    bool holds = false;
    switch (op_) {
      case CompareOp::Precedes: holds = x < y && within(y, a); break;
      case CompareOp::PrecedesEq: holds = x <= y && within(y, a); break;
      // CQL 6.2's [>=] is its [>] (RelationalNode::compare): p a proper descendant of q.
      case CompareOp::Succeeds:
      case CompareOp::SucceedsEq: holds = x > y && within(x, b); break;
      default: holds = query::holds(op_, x, y); break;
    }
    return holds ? a : NoNode;
  }

private:
  CompareOp op_;
};

// Binds an echo variable to a position (its node).
void bind(const ScopedSlot& slot, NodeId n) {
  slot->bound = true;
  slot->number = n;
}

class Echo final : public Filter {
public:
  Echo(int source, int target, bool all, FilterPtr body, SourceRange range)
      : Filter(body->kind() == FilterKind::Numeric ? FilterKind::Numeric : FilterKind::Logical),
        source_(static_cast<size_t>(source)),
        target_(static_cast<size_t>(target)),
        all_(all),
        body_(std::move(body)),
        range_(range) {}

  bool matches(Context& ctx) const override {
    int64_t best = 0;
    return run(ctx, best);
  }
  bool number(Context& ctx, int64_t& out) const override { return run(ctx, out); }

private:
  size_t source_;
  size_t target_;
  bool all_;
  FilterPtr body_;
  SourceRange range_;

  // Whether the body matches at one target at least; `best` the greatest value of a numeric body.
  bool run(Context& ctx, int64_t& best) const {
    if (!ctx.game) return false;
    const NodeId here = ctx.node;
    const ScopedSlot source(ctx, source_);
    const ScopedSlot target(ctx, target_);
    bind(source, here);
    bool found = false;
    const bool numeric = kind() == FilterKind::Numeric;
    for (const NodeId n : ctx.game_order().nodes) {
      if ((n == here && !all_) || !(ctx.variations || ctx.game->is_mainline(n))) continue;
      ctx.step(range_);
      bind(target, n);
      const PositionScope scope(ctx, n);
      int64_t value = 0;
      if (numeric ? !body_->number(ctx, value) : !body_->matches(ctx)) continue;
      best = found ? std::max(best, value) : value;
      found = true;
    }
    return found;
  }
};

// The moves of the way from `from` down to its descendant `to`, each as CQL numbers a move to
// compare them (its squares and the man that moves: ConsecutiveMovesNode::qmove_to_int).
std::vector<int64_t> moves_between(const pgn::Game& game, NodeId from, NodeId to) {
  std::vector<int64_t> out;
  for (NodeId n = to; n != from; n = game.node(n).parent) {
    const Position& before = game.position(game.node(n).parent);
    const Move m = game.node(n).move;
    const Square king = lsb(before.pieces(before.side_to_move(), PieceType::King));
    const Square f = m.is_null() ? king : m.from();
    const Square t = m.is_null() ? king : m.to();
    out.push_back((static_cast<int64_t>(to_index(t)) * 100 + to_index(f)) * 100 +
                  to_index(before.piece_on(f)));
  }
  std::reverse(out.begin(), out.end());
  return out;
}

// The length of the longest run common to a and b.
size_t longest_common_run(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  size_t best = 0;
  std::vector<size_t> previous(b.size() + 1, 0);
  std::vector<size_t> current(b.size() + 1, 0);
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      current[j] = a[i - 1] == b[j - 1] ? previous[j - 1] + 1 : 0;
      best = std::max(best, current[j]);
    }
    std::swap(previous, current);
  }
  return best;
}

class ConsecutiveMoves final : public Filter {
public:
  ConsecutiveMoves(int source, int target, int64_t low, int64_t high)
      : Filter(FilterKind::Numeric),
        source_(static_cast<size_t>(source)),
        target_(static_cast<size_t>(target)),
        low_(low),
        high_(high) {}

  // None when one position is the other's ancestor (or itself), when no move is common, and when
  // the length is out of the range.
  bool number(Context& ctx, int64_t& out) const override {
    const Slot& s = ctx.slots[source_];
    const Slot& t = ctx.slots[target_];
    if (!ctx.game || !s.bound || !t.bound) return false;
    const pgn::Game& game = *ctx.game;
    const auto a = static_cast<NodeId>(s.number);
    const auto b = static_cast<NodeId>(t.number);
    const NodeId top = lca_of(game, a, b);
    if (top == a || top == b) return false;
    const auto length =
        static_cast<int64_t>(longest_common_run(moves_between(game, top, a), moves_between(game, top, b)));
    out = length;
    return length > 0 && low_ <= length && length <= high_;
  }

private:
  size_t source_;
  size_t target_;
  int64_t low_;
  int64_t high_;
};

}  // namespace

FilterPtr make_same_squares(FilterPtr p, FilterPtr q) {
  return std::make_unique<SameSquares>(std::move(p), std::move(q));
}
FilterPtr make_position_distance(FilterPtr p, FilterPtr q) {
  return std::make_unique<PositionDistance>(std::move(p), std::move(q));
}
FilterPtr make_lca(FilterPtr p, FilterPtr q) { return std::make_unique<Lca>(std::move(p), std::move(q)); }
FilterPtr make_position_compare(CompareOp op, FilterPtr p, FilterPtr q) {
  return std::make_unique<PositionCompare>(op, std::move(p), std::move(q));
}
FilterPtr make_echo(int source, int target, bool all, FilterPtr body, SourceRange range) {
  return std::make_unique<Echo>(source, target, all, std::move(body), range);
}
FilterPtr make_consecutive_moves(int source, int target, int64_t low, int64_t high) {
  return std::make_unique<ConsecutiveMoves>(source, target, low, high);
}

}  // namespace egtb::query::detail
