// CQL's piece identity (piece_ids.hpp): piece variables, piece assignment and pieceid.
#include "query/filter.hpp"

namespace egtb::query::detail {

std::optional<Square> Context::piece_square(int64_t id) {
  if (id < 0 || id >= 64) return std::nullopt;
  if (!game) return start_piece_square(*pos, static_cast<int>(id));
  return square_of(game_piece_ids.of(*game).by_node[node], static_cast<int>(id));
}

namespace {

// A piece variable holds its man's number in its slot's `number` (bound once it holds one), and in
// `squares` the square he stood on then: read at the same position, or at one where he has not
// moved, he is found there at once.
class PieceVariable final : public Filter {
public:
  explicit PieceVariable(int slot) : Filter(FilterKind::Set), slot_(static_cast<size_t>(slot)) {}
  Bitboard squares(Context& ctx) const override {
    const Slot& s = ctx.slots[slot_];
    if (!s.bound) return 0;
    if (s.visit == ctx.visit || (s.squares && ctx.piece_id(lsb(s.squares)) == s.number)) return s.squares;
    const std::optional<Square> at = ctx.piece_square(s.number);
    return at ? square_bb(*at) : 0;
  }

private:
  size_t slot_;
};

// The square of `set` when it is one square with a man on it.
std::optional<Square> man_on(const Filter& set, Context& ctx) {
  const Bitboard b = set.squares(ctx);
  if (popcount(b) != 1 || !(b & ctx.pos->pieces())) return std::nullopt;
  return lsb(b);
}

class PieceAssign final : public Filter {
public:
  PieceAssign(int slot, FilterPtr set)
      : Filter(FilterKind::Logical), slot_(static_cast<size_t>(slot)), set_(std::move(set)) {}
  bool matches(Context& ctx) const override {
    const std::optional<Square> at = man_on(*set_, ctx);
    if (!at) return false;
    Slot& s = ctx.slots[slot_];
    s.number = ctx.piece_id(*at);
    s.squares = square_bb(*at);
    s.bound = true;
    s.visit = ctx.visit;
    return true;
  }

private:
  size_t slot_;
  FilterPtr set_;
};

// pieceid of a piece variable (its man's number, captured or not, once bound) or of a set.
class PieceId final : public Filter {
public:
  PieceId(int slot, FilterPtr set) : Filter(FilterKind::Numeric), slot_(slot), set_(std::move(set)) {}
  bool number(Context& ctx, int64_t& out) const override {
    if (!set_) {
      const Slot& s = ctx.slots[static_cast<size_t>(slot_)];
      out = s.number;
      return s.bound;
    }
    const std::optional<Square> at = man_on(*set_, ctx);
    out = at ? ctx.piece_id(*at) : 0;
    return at.has_value();
  }

private:
  int slot_;
  FilterPtr set_;
};

}  // namespace

FilterPtr make_piece_variable(int slot) { return std::make_unique<PieceVariable>(slot); }
FilterPtr make_piece_assign(int slot, FilterPtr set) {
  return std::make_unique<PieceAssign>(slot, std::move(set));
}
FilterPtr make_piece_id(int slot, FilterPtr set) { return std::make_unique<PieceId>(slot, std::move(set)); }

}  // namespace egtb::query::detail
