// Square-set filters: piece designators, set algebra, attacks, rays, pins, between, power.
#include <array>
#include <cctype>
#include <cstdlib>

#include "query/chess_sets.hpp"
#include "query/filter.hpp"

namespace egtb::query::detail {

namespace {

constexpr Bitboard DarkSquares = 0xAA55AA55AA55AA55ULL;

class Designator final : public Filter {
public:
  Designator(PieceMask pieces, Bitboard squares)
      : Filter(FilterKind::Set), squares_(squares), any_(pieces == AnyMen) {
    empty_ = (pieces & EmptyBit) != 0;
    for (Color c : {Color::White, Color::Black})
      for (int t = to_index(PieceType::Pawn); t <= to_index(PieceType::King); ++t) {
        const PieceType pt = static_cast<PieceType>(t);
        if (pieces & (1u << to_index(make_piece(c, pt)))) men_[count_++] = {c, pt};
      }
  }
  Bitboard squares(Context& ctx) const override {
    if (any_) return squares_;
    const Position& pos = *ctx.pos;
    Bitboard b = empty_ ? ~pos.pieces() : 0;
    for (size_t i = 0; i < count_; ++i) b |= pos.pieces(men_[i].first, men_[i].second);
    return b & squares_;
  }

private:
  Bitboard squares_;
  bool any_;
  bool empty_ = false;
  std::array<std::pair<Color, PieceType>, 12> men_{};
  size_t count_ = 0;
};

// A | B | ... (union) and A & B & ... (intersection, which stops at the first empty result).
class SetChain final : public Filter {
public:
  SetChain(Filters sets, bool intersection)
      : Filter(FilterKind::Set), sets_(std::move(sets)), intersection_(intersection) {}
  Bitboard squares(Context& ctx) const override {
    Bitboard b = sets_.front()->squares(ctx);
    for (size_t i = 1; i < sets_.size(); ++i) {
      if (!intersection_) {
        b |= sets_[i]->squares(ctx);
      } else {
        if (!b) return 0;
        b &= sets_[i]->squares(ctx);
      }
    }
    return b;
  }

private:
  Filters sets_;
  bool intersection_;
};

class Complement final : public Filter {
public:
  explicit Complement(FilterPtr a) : Filter(FilterKind::Set), a_(std::move(a)) {}
  Bitboard squares(Context& ctx) const override { return ~a_->squares(ctx); }

private:
  FilterPtr a_;
};

// a in b (subset; the empty set is in every set), a == b, a != b.
class SetRelation final : public Filter {
public:
  SetRelation(FilterPtr a, FilterPtr b, int relation)
      : Filter(FilterKind::Logical), a_(std::move(a)), b_(std::move(b)), relation_(relation) {}
  bool matches(Context& ctx) const override {
    const Bitboard x = a_->squares(ctx);
    const Bitboard y = b_->squares(ctx);
    switch (relation_) {
      case 0: return (x & ~y) == 0;
      case 1: return x == y;
      default: return x != y;
    }
  }

private:
  FilterPtr a_, b_;
  int relation_;
};

// from -> to (value: the attackers in from) and to <- from (value: the attacked squares of to).
class Attack final : public Filter {
public:
  Attack(FilterPtr from, FilterPtr to, bool value_is_from)
      : Filter(FilterKind::Set), from_(std::move(from)), to_(std::move(to)), value_is_from_(value_is_from) {}
  Bitboard squares(Context& ctx) const override {
    const Bitboard from = from_->squares(ctx);
    if (!from) return 0;
    const Bitboard to = to_->squares(ctx);
    return value_is_from_ ? attackers_in(*ctx.pos, from, to) : attacked_in(*ctx.pos, to, from);
  }

private:
  FilterPtr from_, to_;
  bool value_is_from_;
};

class Rays final : public Filter {
public:
  Rays(Filters sets, DirectionSet directions, bool attack, bool value_is_first)
      : Filter(FilterKind::Set),
        sets_(std::move(sets)),
        directions_(directions),
        attack_(attack),
        first_(value_is_first) {}
  Bitboard squares(Context& ctx) const override {
    std::array<Bitboard, 16> masks{};
    const size_t n = std::min(sets_.size(), masks.size());
    for (size_t i = 0; i < n; ++i) masks[i] = sets_[i]->squares(ctx);
    const RayMatch m = match_rays(*ctx.pos, std::span<const Bitboard>(masks.data(), n), directions_, attack_);
    return first_ ? m.first : m.last;
  }

private:
  Filters sets_;
  DirectionSet directions_;
  bool attack_;
  bool first_;
};

class Pin final : public Filter {
public:
  Pin(FilterPtr from, FilterPtr through, FilterPtr to, PinRole role)
      : Filter(FilterKind::Set),
        from_(std::move(from)),
        through_(std::move(through)),
        to_(std::move(to)),
        role_(role) {}
  Bitboard squares(Context& ctx) const override {
    const Position& pos = *ctx.pos;
    const Bitboard from = from_ ? from_->squares(ctx) : ~Bitboard{0};
    const Bitboard through = through_ ? through_->squares(ctx) : ~Bitboard{0};
    const Bitboard to = to_ ? to_->squares(ctx) : pos.pieces(PieceType::King);
    return pin_squares(pos, from, through, to, role_);
  }

private:
  FilterPtr from_, through_, to_;
  PinRole role_;
};

// between (a b), distance (a b), power a, light a, dark a.
class SetFunction final : public Filter {
public:
  enum class Op : uint8_t { Between, Distance, Power, Light, Dark };
  SetFunction(Op op, FilterPtr a, FilterPtr b)
      : Filter(op == Op::Distance || op == Op::Power ? FilterKind::Numeric : FilterKind::Set),
        op_(op),
        a_(std::move(a)),
        b_(std::move(b)) {}
  Bitboard squares(Context& ctx) const override {
    const Bitboard x = a_->squares(ctx);
    switch (op_) {
      case Op::Between: return between_sets(x, b_->squares(ctx));
      case Op::Light: return x & ~DarkSquares;
      default: return x & DarkSquares;
    }
  }
  bool number(Context& ctx, int64_t& out) const override {
    const Bitboard x = a_->squares(ctx);
    if (op_ == Op::Power) {
      out = power(*ctx.pos, x);
      return true;
    }
    const Bitboard y = b_->squares(ctx);
    if (popcount(x) != 1 || popcount(y) != 1) return false;
    out = square_distance(lsb(x), lsb(y));
    return true;
  }

private:
  Op op_;
  FilterPtr a_, b_;

  static int64_t power(const Position& pos, Bitboard b) {
    static constexpr std::array<int, PieceTypeCount> Values = {0, 1, 3, 3, 5, 9, 0};
    int64_t sum = 0;
    b &= pos.pieces();
    while (b) sum += Values[static_cast<size_t>(to_index(type_of(pos.piece_on(pop_lsb(b)))))];
    return sum;
  }
};

// rank s, file s (from 1), colortype s (1 pawn, 2 knight, 3 bishop, 4 rook, 5 queen, 6 king,
// negative for Black, 0 empty), type s (colortype's absolute value), piecename s ("K", "p", "_" for an
// empty square) and typename s (the same in capitals), as CQL's SquareCoordinateNode,
// ColorTypeNode, PieceNameNode and TypeNameNode; none unless s is one square.
class SquareFact final : public Filter {
public:
  SquareFact(Keyword k, FilterPtr square)
      : Filter(keyword_info(k).kind), word_(k), square_(std::move(square)) {}
  bool number(Context& ctx, int64_t& out) const override {
    const std::optional<Square> s = one(ctx);
    if (!s) return false;
    switch (word_) {
      case Keyword::Rank: out = rank_of(*s) + 1; return true;
      case Keyword::File: out = file_of(*s) + 1; return true;
      default: break;
    }
    const Piece p = ctx.pos->piece_on(*s);
    out = p == Piece::None ? 0 : to_index(type_of(p)) * (color_of(p) == Color::White ? 1 : -1);
    if (word_ == Keyword::Type) out = std::abs(out);
    return true;
  }
  bool text(Context& ctx, std::string& out) const override {
    const std::optional<Square> s = one(ctx);
    if (!s) return false;
    const Piece p = ctx.pos->piece_on(*s);
    char c = p == Piece::None ? '_' : piece_char(p);
    if (word_ == Keyword::TypeName) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    out = std::string(1, c);
    return true;
  }

private:
  Keyword word_;
  FilterPtr square_;

  std::optional<Square> one(Context& ctx) const {
    const Bitboard b = square_->squares(ctx);
    if (popcount(b) != 1) return std::nullopt;
    return lsb(b);
  }
};

// makesquare (file rank), from 1 (no square outside 1..8), or makesquare name ("e4"; no square for
// another text), as CQL's MakeSquareNode.
class SquareOf final : public Filter {
public:
  explicit SquareOf(Filters args) : Filter(FilterKind::Set), args_(std::move(args)) {}
  Bitboard squares(Context& ctx) const override {
    if (args_.size() == 1) return named(ctx);
    int64_t file = 0;
    int64_t rank = 0;
    if (!args_[0]->number(ctx, file) || !args_[1]->number(ctx, rank)) return 0;
    if (file < 1 || file > 8 || rank < 1 || rank > 8) return 0;
    return square_bb(make_square(static_cast<int>(file - 1), static_cast<int>(rank - 1)));
  }

private:
  Filters args_;

  Bitboard named(Context& ctx) const {
    std::string name;
    if (!args_[0]->text(ctx, name)) return 0;
    const std::optional<Square> s = parse_square(name);
    return s ? square_bb(*s) : 0;
  }
};

// A direction word as a filter (CQL's VectorNode): every square `low` to `high` steps from one of
// `from` in one of the directions, with no regard to the men between; the neighbourhood of each
// square is computed once.
Bitboard neighbourhood(Square s, DirectionSet directions, int64_t low, int64_t high) {
  Bitboard out = 0;
  for (size_t d = 0; d < DirectionSteps.size(); ++d) {
    if (!(directions & (1u << d))) continue;
    for (int64_t i = low; i <= high; ++i) {
      const int64_t file = file_of(s) + i * DirectionSteps[d][0];
      const int64_t rank = rank_of(s) + i * DirectionSteps[d][1];
      if (file >= 0 && file < 8 && rank >= 0 && rank < 8)
        out |= square_bb(make_square(static_cast<int>(file), static_cast<int>(rank)));
    }
  }
  return out;
}

class Vector final : public Filter {
public:
  Vector(DirectionSet directions, int64_t low, int64_t high, FilterPtr from)
      : Filter(FilterKind::Set), from_(std::move(from)) {
    for (int s = 0; s < 64; ++s)
      near_[static_cast<size_t>(s)] = neighbourhood(square_at(s), directions, low, high);
  }
  Bitboard squares(Context& ctx) const override {
    Bitboard out = 0;
    for (Bitboard b = from_->squares(ctx); b;) out |= near_[static_cast<size_t>(to_index(pop_lsb(b)))];
    return out;
  }

private:
  FilterPtr from_;
  std::array<Bitboard, 64> near_{};
};

class CountedVector final : public Filter {
public:
  CountedVector(DirectionSet directions, FilterPtr low, FilterPtr high, FilterPtr from)
      : Filter(FilterKind::Set),
        directions_(directions),
        low_(std::move(low)),
        high_(std::move(high)),
        from_(std::move(from)) {}
  Bitboard squares(Context& ctx) const override {
    int64_t low = 0;
    int64_t high = 0;
    if (!low_->number(ctx, low) || !high_->number(ctx, high) || low < -7 || high > 7 || low > high) return 0;
    Bitboard out = 0;
    for (Bitboard b = from_->squares(ctx); b;) out |= neighbourhood(pop_lsb(b), directions_, low, high);
    return out;
  }

private:
  DirectionSet directions_;
  FilterPtr low_;
  FilterPtr high_;
  FilterPtr from_;
};

// The pawns of both sides that are passed (no enemy pawn ahead on their file or the next ones),
// doubled (another pawn of theirs on their file), connected (one of theirs on a next file) or
// isolated (not connected), as CQL 6.2 defines the four words (node-parse.cpp), whatever the
// transform around them.
class Pawns final : public Filter {
public:
  explicit Pawns(Keyword k) : Filter(FilterKind::Set), word_(k) {}
  Bitboard squares(Context& ctx) const override {
    return of(*ctx.pos, Color::White) | of(*ctx.pos, Color::Black);
  }

private:
  Keyword word_;

  [[nodiscard]] Bitboard of(const Position& pos, Color side) const {
    const Bitboard own = pos.pieces(side, PieceType::Pawn);
    const Bitboard enemy = pos.pieces(~side, PieceType::Pawn);
    Bitboard out = 0;
    for (Bitboard b = own; b;) {
      const Square s = pop_lsb(b);
      if (has(s, side, own, enemy)) out |= square_bb(s);
    }
    return out;
  }

  [[nodiscard]] bool has(Square s, Color side, Bitboard own, Bitboard enemy) const {
    const int file = file_of(s);
    const Bitboard next = (file > 0 ? file_bb(file - 1) : 0) | (file < 7 ? file_bb(file + 1) : 0);
    switch (word_) {
      case Keyword::DoubledPawns: return (own & file_bb(file) & ~square_bb(s)) != 0;
      case Keyword::ConnectedPawns: return (own & next) != 0;
      case Keyword::IsolatedPawns: return (own & next) == 0;
      default: return (enemy & (next | file_bb(file)) & ahead(s, side)) == 0;
    }
  }

  // The ranks ahead of a pawn of `side` on s.
  static Bitboard ahead(Square s, Color side) {
    Bitboard out = 0;
    for (int r = 0; r < 8; ++r)
      if (side == Color::White ? r > rank_of(s) : r < rank_of(s)) out |= rank_bb(r);
    return out;
  }
};

}  // namespace

FilterPtr make_designator(PieceMask pieces, Bitboard squares) {
  return std::make_unique<Designator>(pieces, squares);
}
FilterPtr make_union(Filters sets) { return std::make_unique<SetChain>(std::move(sets), false); }
FilterPtr make_intersection(Filters sets) { return std::make_unique<SetChain>(std::move(sets), true); }
FilterPtr make_complement(FilterPtr a) { return std::make_unique<Complement>(std::move(a)); }
FilterPtr make_subset(FilterPtr a, FilterPtr b) {
  return std::make_unique<SetRelation>(std::move(a), std::move(b), 0);
}
FilterPtr make_set_equality(FilterPtr a, FilterPtr b, bool equal) {
  return std::make_unique<SetRelation>(std::move(a), std::move(b), equal ? 1 : 2);
}
FilterPtr make_attacks(FilterPtr from, FilterPtr to, bool value_is_from) {
  return std::make_unique<Attack>(std::move(from), std::move(to), value_is_from);
}
FilterPtr make_rays(Filters sets, uint8_t directions, bool attack, bool value_is_first) {
  return std::make_unique<Rays>(std::move(sets), directions, attack, value_is_first);
}
FilterPtr make_pin(FilterPtr from, FilterPtr through, FilterPtr to, PinRole role) {
  return std::make_unique<Pin>(std::move(from), std::move(through), std::move(to), role);
}
FilterPtr make_between(FilterPtr a, FilterPtr b) {
  return std::make_unique<SetFunction>(SetFunction::Op::Between, std::move(a), std::move(b));
}
FilterPtr make_power(FilterPtr a) {
  return std::make_unique<SetFunction>(SetFunction::Op::Power, std::move(a), nullptr);
}
FilterPtr make_distance(FilterPtr a, FilterPtr b) {
  return std::make_unique<SetFunction>(SetFunction::Op::Distance, std::move(a), std::move(b));
}
FilterPtr make_square_fact(Keyword keyword, FilterPtr square) {
  return std::make_unique<SquareFact>(keyword, std::move(square));
}
FilterPtr make_square_of(Filters args) { return std::make_unique<SquareOf>(std::move(args)); }
FilterPtr make_pawns(Keyword keyword) { return std::make_unique<Pawns>(keyword); }
FilterPtr make_vector(DirectionSet directions, int64_t low, int64_t high, FilterPtr from) {
  return std::make_unique<Vector>(directions, low, high, std::move(from));
}
FilterPtr make_counted_vector(DirectionSet directions, FilterPtr low, FilterPtr high, FilterPtr from) {
  return std::make_unique<CountedVector>(directions, std::move(low), std::move(high), std::move(from));
}
FilterPtr make_square_color(FilterPtr a, bool light) {
  return std::make_unique<SetFunction>(light ? SetFunction::Op::Light : SetFunction::Op::Dark, std::move(a),
                                       nullptr);
}

}  // namespace egtb::query::detail
