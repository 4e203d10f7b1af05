// CQL's piece identity (piece_ids.hpp): piece variables, piece assignment and pieceid.
#include "query/filter.hpp"

namespace egtb::query::detail {

int8_t Context::piece_id(Square s) {
  if (!game) return start_piece_id(*pos, s);
  return game_piece_ids.of(*game).by_node[node][static_cast<size_t>(to_index(s))];
}

std::optional<Square> Context::piece_square(int64_t id) {
  if (id < 0 || id >= 64) return std::nullopt;
  if (!game) return start_piece_square(*pos, static_cast<int>(id));
  return square_of(game_piece_ids.of(*game).by_node[node], static_cast<int>(id));
}

namespace {

// A piece variable holds its man's number in its slot's `number` (bound once it holds one).
class PieceVariable final : public Filter {
public:
  explicit PieceVariable(int slot) : Filter(FilterKind::Set), slot_(static_cast<size_t>(slot)) {}
  Bitboard squares(Context& ctx) const override {
    const Slot& s = ctx.slots[slot_];
    if (!s.bound) return 0;
    const std::optional<Square> at = ctx.piece_square(s.number);
    return at ? square_bb(*at) : 0;
  }

private:
  size_t slot_;
};

// The man on the one square of `set`, if there is one.
std::optional<int8_t> man_on(const Filter& set, Context& ctx) {
  const Bitboard b = set.squares(ctx);
  if (popcount(b) != 1) return std::nullopt;
  const int8_t id = ctx.piece_id(lsb(b));
  if (id == NoPieceId) return std::nullopt;
  return id;
}

class PieceAssign final : public Filter {
public:
  PieceAssign(int slot, FilterPtr set)
      : Filter(FilterKind::Logical), slot_(static_cast<size_t>(slot)), set_(std::move(set)) {}
  bool matches(Context& ctx) const override {
    const std::optional<int8_t> id = man_on(*set_, ctx);
    if (!id) return false;
    Slot& s = ctx.slots[slot_];
    s.number = *id;
    s.bound = true;
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
    const std::optional<int8_t> id = man_on(*set_, ctx);
    out = id.value_or(0);
    return id.has_value();
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
