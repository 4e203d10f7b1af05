// Filters that read the game a position belongs to, as CQL 6.2 defines them: its place in the tree
// of positions (initial, terminal, ply, movenumber, mainline, variation, depth, positionid, parent,
// child, position N, currentposition, initialposition), the moves played (move, move previous) and
// the game's result and number, and try (a position reached by one White try).
//
// The tree is pgn::Game's (pgn/game.hpp): node 0 the start, the first child of a node the move
// played, the others variations. Example, "1. e4 (1. d4 d5) e5 *" (nodes 0 start, 1 e4, 2 d4, 3 d5,
// 4 e5):
//   node  ply  movenumber  mainline  depth  terminal  positionid
//   0     0    1           yes       0      no        0
//   1     1    1           yes       0      no        1
//   2     1    1           no        1      no        3     (positionid counts in preorder:
//   3     2    2           no        1      yes       4      0 1 4 2 3 -> ids 0 1 3 4 2)
//   4     2    2           yes       0      yes       2
// movenumber counts from 1 at the start whatever the FEN's move counter, as CQL's does
// (QPos::getMoveNumber): the number of the move to be played from the position. A position with
// no game (a table entry, a FEN, a position imagined by move legal) is a game of one position:
// initial, terminal, mainline, ply 0, movenumber 1, depth 0, no parent, no child, no move played.
#include <algorithm>
#include <cctype>

#include "query/filter.hpp"

namespace egtb::query::detail {

pgn::NodeId next_sibling(const Context& ctx, pgn::NodeId child) {
  return ctx.variations ? ctx.game->node(child).next_sibling : pgn::NoNode;
}

std::optional<Square> capture_square(const Position& before, Move m) {
  if (m.is_null()) return std::nullopt;
  if (m.kind() == MoveKind::EnPassant) return make_square(file_of(m.to()), rank_of(m.from()));
  if (m.kind() != MoveKind::Castling && before.piece_on(m.to()) != Piece::None) return m.to();
  return std::nullopt;
}

namespace {

using pgn::NodeId;
using pgn::NoNode;

NodeId parent_of(const Context& ctx) {
  if (!ctx.game || ctx.node == pgn::Game::Root) return NoNode;
  return ctx.game->node(ctx.node).parent;
}

// The position after `n` in the preorder of the subtree from `start` (of the mainline from it,
// without variations), or NoNode at its end.
NodeId next_in_subtree(const Context& ctx, NodeId start, NodeId n) {
  const pgn::Game& game = *ctx.game;
  if (game.node(n).first_child != NoNode) return game.node(n).first_child;
  while (n != start && next_sibling(ctx, n) == NoNode) n = game.node(n).parent;
  return n == start ? NoNode : next_sibling(ctx, n);
}

// The number of variations entered on the way from the start: 0 on the mainline, 1 in a
// variation of it, 2 in a variation of that variation ... (QPos::getDepth).
int64_t variation_depth(const pgn::Game& game, NodeId node) {
  int64_t depth = 0;
  for (NodeId n = node; n != pgn::Game::Root; n = game.node(n).parent)
    if (game.node(game.node(n).parent).first_child != n) ++depth;
  return depth;
}

// CQL's virtualmainline: the way from the start holds no null move and no White move that is an
// alternative (a variation of White's), Black's alternatives counting as the main line. Example:
// in "1. e4 (1. d4) e5 (1... c5) 2. Nf3" the positions after 1... c5 are on it, those after 1. d4
// not. Off a game (a position alone) it holds.
bool virtual_mainline(const Context& ctx) {
  if (!ctx.game) return true;
  for (NodeId n = ctx.node; n != pgn::Game::Root; n = ctx.game->node(n).parent) {
    const NodeId parent = ctx.game->node(n).parent;
    if (ctx.game->node(n).move.is_null()) return false;
    if (ctx.game->node(parent).first_child != n && ctx.game->position(parent).side_to_move() == Color::White)
      return false;
  }
  return true;
}

// The number of the move to be played from the position, counting from 1 at the start.
int64_t move_number(const Context& ctx, int64_t ply) {
  const Color start = ctx.game ? ctx.game->start().side_to_move() : ctx.pos->side_to_move();
  return (ply + (start == Color::Black ? 1 : 0)) / 2 + 1;
}

class GameWord final : public Filter {
public:
  explicit GameWord(Keyword k) : Filter(keyword_info(k).kind), word_(k) {}

  bool matches(Context& ctx) const override {
    switch (word_) {
      case Keyword::Parent:
      case Keyword::CurrentPosition:
      case Keyword::CurPos:
      case Keyword::InitialPosition: return position(ctx) != NoNode;
      case Keyword::Initial: return !ctx.game || ctx.node == pgn::Game::Root;
      case Keyword::Terminal: return !ctx.game || ctx.game->node(ctx.node).first_child == NoNode;
      case Keyword::MainLine: return !ctx.game || ctx.game->is_mainline(ctx.node);
      case Keyword::Variation: return ctx.game && !ctx.game->is_mainline(ctx.node);
      case Keyword::VirtualMainLine: return virtual_mainline(ctx);
      case Keyword::Try: return ctx.game && tries(ctx) == 1;
      default: break;
    }
    int64_t n = 0;
    return number(ctx, n);
  }

  bool number(Context& ctx, int64_t& out) const override {
    const int64_t ply = ctx.game ? ctx.game->ply(ctx.node) : 0;
    switch (word_) {
      case Keyword::Ply: out = ply; return true;
      case Keyword::MoveNumber: out = move_number(ctx, ply); return true;
      case Keyword::PositionId: out = ctx.game ? ctx.game_order().ids[ctx.node] : 0; return true;
      case Keyword::GameNumber:
        out = ctx.game ? static_cast<int64_t>(ctx.game->number) : 0;
        return ctx.game != nullptr;
      case Keyword::LastGameNumber:
        out = static_cast<int64_t>(ctx.last_game_number);
        return ctx.game && ctx.last_game_number > 0;
      case Keyword::Depth: return depth(ctx, out);
      default: return false;
    }
  }

  NodeId position(Context& ctx) const override {
    switch (word_) {
      case Keyword::Parent: return parent_of(ctx);
      case Keyword::CurrentPosition:
      case Keyword::CurPos: return ctx.game ? ctx.node : NoNode;
      case Keyword::InitialPosition: return ctx.game ? pgn::Game::Root : NoNode;
      default: return NoNode;
    }
  }

private:
  Keyword word_;

  // try is CQL's "notransform 1 == find <-- quiet all {btm secondary}": the positions from this
  // one back to the start that Black is to move in, reached by a move that is not the first of
  // its parent (a White move of a variation). Without variations there are none.
  static int tries(const Context& ctx) {
    int count = 0;
    if (!ctx.variations) return count;
    const pgn::Game& game = *ctx.game;
    for (NodeId n = ctx.node; n != pgn::Game::Root; n = game.node(n).parent)
      if (game.node(game.node(n).parent).first_child != n && game.position(n).side_to_move() == Color::Black)
        ++count;
    return count;
  }

  // depth is the table word where tables are attached (the depth of the position's value under
  // the table's rules, keywords.cpp), and CQL's variation depth elsewhere.
  static bool depth(Context& ctx, int64_t& out) {
    if (!ctx.tables) {
      out = ctx.game ? variation_depth(*ctx.game, ctx.node) : 0;
      return true;
    }
    const std::optional<int64_t> v = ctx.tables->term(ScoreTerm::rule_depth(), *ctx.pos);
    if (v) out = *v;
    return v.has_value();
  }
};

// child: the first child (the move played); child(n): the n-th, from 0 (CQL's child 0 is the
// mainline continuation).
class Child final : public Filter {
public:
  explicit Child(FilterPtr index) : Filter(FilterKind::Position), index_(std::move(index)) {}

  NodeId position(Context& ctx) const override {
    if (!ctx.game) return NoNode;
    int64_t wanted = 0;
    if (index_ && !index_->number(ctx, wanted)) return NoNode;
    NodeId c = ctx.game->node(ctx.node).first_child;
    for (int64_t i = 0; c != NoNode && i < wanted; ++i) c = next_sibling(ctx, c);
    return wanted < 0 ? NoNode : c;
  }

private:
  FilterPtr index_;
};

// position N: the position whose positionid is N.
class PositionAt final : public Filter {
public:
  explicit PositionAt(FilterPtr id) : Filter(FilterKind::Position), id_(std::move(id)) {}

  NodeId position(Context& ctx) const override {
    int64_t id = 0;
    if (!ctx.game || !id_->number(ctx, id) || id < 0 || id >= static_cast<int64_t>(ctx.game->size()))
      return NoNode;
    const NodeId n = ctx.game_order().nodes[static_cast<size_t>(id)];
    return ctx.variations || ctx.game->is_mainline(n) ? n : NoNode;
  }

private:
  FilterPtr id_;
};

// find: the positions from the current one on, in preorder (CQL's order of positions), or back to
// the start; each visit counts as a loop step, so a find at every position of a long game stays
// within MaxLoopSteps per position.
class Find final : public Filter {
public:
  Find(const FindSpec& spec, FilterPtr body, SourceRange range)
      : Filter(spec.count ? FilterKind::Numeric : FilterKind::Position),
        spec_(spec),
        body_(std::move(body)),
        range_(range) {}

  bool matches(Context& ctx) const override {
    int64_t n = 0;
    return spec_.count ? number(ctx, n) : first(ctx).has_value();
  }

  // The position found; none without a game (a lone position is no node to go to).
  NodeId position(Context& ctx) const override {
    const std::optional<NodeId> n = first(ctx);
    return n && ctx.game ? *n : NoNode;
  }

  bool number(Context& ctx, int64_t& out) const override {
    int64_t count = 0;
    visit(ctx, [&](NodeId) {
      ++count;
      return true;
    });
    out = count;
    return spec_.low <= count && count <= spec_.high;
  }

private:
  FindSpec spec_;
  FilterPtr body_;
  SourceRange range_;

  std::optional<NodeId> first(Context& ctx) const {
    std::optional<NodeId> found;
    visit(ctx, [&](NodeId n) {
      found = n;
      return false;
    });
    return found;
  }

  // Calls found(n) at each position where the body matches, while it returns true.
  template <typename Found>
  void visit(Context& ctx, const Found& found) const {
    const NodeId start = ctx.node;
    const pgn::Game* game = ctx.game;
    for (NodeId n = start; n != NoNode;) {
      ctx.step(range_);
      bool matched = false;
      if (game) {
        const PositionScope scope(ctx, n);
        matched = body_->matches(ctx);
      } else {
        matched = body_->matches(ctx);
      }
      if (matched && !found(n)) return;
      if (!game) return;
      n = spec_.backward ? (n == pgn::Game::Root ? NoNode : game->node(n).parent)
                         : next_in_subtree(ctx, start, n);
    }
  }
};

// p : f, f evaluated at the position p names; its value is f's.
class WithPosition final : public Filter {
public:
  WithPosition(FilterPtr position, FilterPtr body)
      : Filter(body->kind()), position_(std::move(position)), body_(std::move(body)) {}

  bool matches(Context& ctx) const override {
    const NodeId n = position_->position(ctx);
    if (n == NoNode) return false;
    const PositionScope scope(ctx, n);
    return body_->matches(ctx);
  }
  Bitboard squares(Context& ctx) const override {
    const NodeId n = position_->position(ctx);
    if (n == NoNode) return 0;
    const PositionScope scope(ctx, n);
    return body_->squares(ctx);
  }
  bool number(Context& ctx, int64_t& out) const override {
    const NodeId n = position_->position(ctx);
    if (n == NoNode) return false;
    const PositionScope scope(ctx, n);
    return body_->number(ctx, out);
  }
  bool text(Context& ctx, std::string& out) const override {
    const NodeId n = position_->position(ctx);
    if (n == NoNode) return false;
    const PositionScope scope(ctx, n);
    return body_->text(ctx, out);
  }
  NodeId position(Context& ctx) const override {
    const NodeId n = position_->position(ctx);
    if (n == NoNode) return NoNode;
    const PositionScope scope(ctx, n);
    return body_->position(ctx);
  }

private:
  FilterPtr position_;
  FilterPtr body_;
};

class Result final : public Filter {
public:
  explicit Result(std::string result) : Filter(FilterKind::Logical), result_(std::move(result)) {}
  bool matches(Context& ctx) const override { return ctx.game && ctx.game->result == result_; }

private:
  std::string result_;
};

// move [previous] ...: the moves played from the position, each a child node, or the one that led
// to it; the sets are evaluated at the position the moves are played from (MoveBase::setMasks).
// from and to: the square the move that led to the position went from (to), none at the start. A
// null move goes from the mover's king's square to itself; a castling moves two men: its squares
// are the king's and the rook's, those of the men whose move fits the sets of the dash whose
// target it is (Context::dash_masks), as CQL's QMove::smartFrom and smartTo.
class MoveSquare final : public Filter {
public:
  explicit MoveSquare(bool from) : Filter(FilterKind::Set), from_(from) {}

  Bitboard squares(Context& ctx) const override {
    const NodeId parent = parent_of(ctx);
    if (parent == NoNode) return 0;
    const Position& before = ctx.game->position(parent);
    const Move m = ctx.game->node(ctx.node).move;
    if (m.is_null()) return before.pieces(before.side_to_move(), PieceType::King);
    if (m.kind() != MoveKind::Castling) return square_bb(from_ ? m.from() : m.to());
    const Context::DashMasks& masks = ctx.dash_masks;
    Bitboard out = 0;
    for (const auto& [f, t] : {std::pair{m.from(), m.to()}, castling_rook(m)})
      if ((masks.from & square_bb(f)) && (masks.to & square_bb(t))) out |= square_bb(from_ ? f : t);
    return out;
  }

private:
  bool from_;
};

class PlayedMove final : public Filter {
public:
  PlayedMove(const PlayedMoveSpec& spec, FilterPtr from, FilterPtr to, FilterPtr capture, FilterPtr comment,
             FilterPtr en_passant_square)
      : Filter(spec.value == MoveRole::Body ? FilterKind::Logical : FilterKind::Set),
        spec_(spec),
        from_(std::move(from)),
        to_(std::move(to)),
        capture_(std::move(capture)),
        comment_(std::move(comment)),
        en_passant_square_(std::move(en_passant_square)) {}

  bool matches(Context& ctx) const override { return squares(ctx) != 0; }

  Bitboard squares(Context& ctx) const override {
    if (!ctx.game) return 0;
    if (spec_.previous) {
      const NodeId parent = parent_of(ctx);
      if (parent == NoNode) return 0;
      const NodeId child = ctx.node;
      const PositionScope scope(ctx, parent);
      return matching(ctx, child, child == ctx.game->node(parent).first_child);
    }
    // In a line's constituent, only the move the line goes on with (Context::line_move).
    const bool one = spec_.follows_line && ctx.line_move != NoNode;
    Bitboard out = 0;
    bool primary = true;
    for (NodeId c = ctx.game->node(ctx.node).first_child; c != NoNode; c = next_sibling(ctx, c)) {
      if (!one || c == ctx.line_move) out |= matching(ctx, c, primary);
      primary = false;
    }
    return out;
  }

private:
  PlayedMoveSpec spec_;
  FilterPtr from_;
  FilterPtr to_;
  FilterPtr capture_;
  FilterPtr comment_;
  FilterPtr en_passant_square_;

  // The value square of the move to `child` from the current position when it fits the spec
  // (as one bit), or 0; a value-less (logical) move filter answers with every square.
  Bitboard matching(Context& ctx, NodeId child, bool primary) const {
    const Position& before = *ctx.pos;
    const Move m = ctx.game->node(child).move;
    if ((spec_.primary && !primary) || (spec_.secondary && primary)) return 0;
    if (spec_.null && !m.is_null()) return 0;
    if (!spec_.kind.admits(m)) return 0;
    // A null move goes from the mover's king's square to itself (CQL's QMove).
    const Bitboard king = before.pieces(before.side_to_move(), PieceType::King);
    if (m.is_null() && !king) return 0;
    const Square from = m.is_null() ? lsb(king) : m.from();
    const Square to = m.is_null() ? lsb(king) : m.to();
    if (from_ && !(from_->squares(ctx) & square_bb(from))) return 0;
    if (to_ && !(to_->squares(ctx) & square_bb(to))) return 0;
    // The man promoted to matches by its type, whatever the colour written (CQL's match_piecetype:
    // "move promote R" finds Black's ...e1=R too).
    const auto promoted = [&](Color c) { return 1u << to_index(make_piece(c, m.promotion())); };
    if (spec_.promote && !(m.kind() == MoveKind::Promotion &&
                           (spec_.promote & (promoted(Color::White) | promoted(Color::Black)))))
      return 0;
    const std::optional<Square> taken = capture_square(before, m);
    if (capture_ && !(taken && (capture_->squares(ctx) & square_bb(*taken)))) return 0;
    if (en_passant_square_ &&
        !(m.kind() == MoveKind::EnPassant && taken && (en_passant_square_->squares(ctx) & square_bb(*taken))))
      return 0;
    if (comment_) {
      const PositionScope scope(ctx, child);
      comment_->matches(ctx);
    }
    switch (spec_.value) {
      case MoveRole::From: return square_bb(from);
      case MoveRole::To: return square_bb(to);
      case MoveRole::Capture: return square_bb(*taken);
      default: return ~Bitboard{0};
    }
  }
};

}  // namespace

const Context::GameOrder& Context::game_order() {
  if (order.game != game || order.number != game->number || order.size != game->size()) {
    order.game = game;
    order.number = game->number;
    order.size = game->size();
    order.nodes = game->preorder();
    order.ids.assign(game->size(), 0);
    for (size_t i = 0; i < order.nodes.size(); ++i) order.ids[order.nodes[i]] = static_cast<uint32_t>(i);
    // A subtree is a run of the preorder: it ends just before the next sibling's, or where its
    // parent's ends when it is the last child (the parent comes first in the preorder).
    order.last.assign(game->size(), 0);
    for (size_t i = 0; i < order.nodes.size(); ++i) {
      const pgn::NodeId n = order.nodes[i];
      const pgn::Node& here = game->node(n);
      order.last[n] = here.next_sibling != pgn::NoNode ? order.ids[here.next_sibling] - 1
                      : here.parent != pgn::NoNode     ? order.last[here.parent]
                                                       : static_cast<uint32_t>(order.nodes.size() - 1);
    }
  }
  return order;
}

FilterPtr make_game_word(Keyword keyword) { return std::make_unique<GameWord>(keyword); }
FilterPtr make_move_square(bool from) { return std::make_unique<MoveSquare>(from); }
FilterPtr make_child(FilterPtr index) { return std::make_unique<Child>(std::move(index)); }
FilterPtr make_position_at(FilterPtr id) { return std::make_unique<PositionAt>(std::move(id)); }
FilterPtr make_find(const FindSpec& spec, FilterPtr body, SourceRange range) {
  return std::make_unique<Find>(spec, std::move(body), range);
}
FilterPtr make_with_position(FilterPtr position, FilterPtr body) {
  return std::make_unique<WithPosition>(std::move(position), std::move(body));
}
FilterPtr make_result(std::string result) { return std::make_unique<Result>(std::move(result)); }
FilterPtr make_played_move(const PlayedMoveSpec& spec, FilterPtr from, FilterPtr to, FilterPtr capture,
                           FilterPtr comment, FilterPtr en_passant_square) {
  return std::make_unique<PlayedMove>(spec, std::move(from), std::move(to), std::move(capture),
                                      std::move(comment), std::move(en_passant_square));
}

}  // namespace egtb::query::detail
