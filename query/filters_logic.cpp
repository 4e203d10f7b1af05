// Logical, numeric, variable and loop filters.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "egtb/core/fen.hpp"
#include "query/eval.hpp"
#include "query/filter.hpp"

namespace egtb::query::detail {

namespace {

class Constant final : public Filter {
public:
  explicit Constant(bool value) : Filter(FilterKind::Logical), value_(value) {}
  bool matches(Context&) const override { return value_; }

private:
  bool value_;
};

class Sequence final : public Filter {
public:
  explicit Sequence(Filters parts) : Filter(parts.back()->kind()), parts_(std::move(parts)) {}
  bool matches(Context& ctx) const override {
    for (const FilterPtr& f : parts_)
      if (!f->matches(ctx)) return false;
    return true;
  }
  Bitboard squares(Context& ctx) const override {
    for (size_t i = 0; i + 1 < parts_.size(); ++i)
      if (!parts_[i]->matches(ctx)) return 0;
    return parts_.back()->squares(ctx);
  }
  bool number(Context& ctx, int64_t& out) const override {
    for (size_t i = 0; i + 1 < parts_.size(); ++i)
      if (!parts_[i]->matches(ctx)) return false;
    return parts_.back()->number(ctx, out);
  }
  bool text(Context& ctx, std::string& out) const override {
    for (size_t i = 0; i + 1 < parts_.size(); ++i)
      if (!parts_[i]->matches(ctx)) return false;
    return parts_.back()->text(ctx, out);
  }

private:
  Filters parts_;
};

class Not final : public Filter {
public:
  explicit Not(FilterPtr f) : Filter(FilterKind::Logical), f_(std::move(f)) {}
  bool matches(Context& ctx) const override { return !f_->matches(ctx); }

private:
  FilterPtr f_;
};

// a and b and ...: each matches; a or b or ...: one matches. Tried in order, as far as needed.
class AndOr final : public Filter {
public:
  AndOr(Filters parts, bool is_and) : Filter(FilterKind::Logical), parts_(std::move(parts)), and_(is_and) {}
  bool matches(Context& ctx) const override {
    for (const FilterPtr& f : parts_)
      if (f->matches(ctx) != and_) return !and_;
    return and_;
  }

private:
  Filters parts_;
  bool and_;
};

// if T A [else B]: without else, a failing test matches (CQL).
class If final : public Filter {
public:
  If(FilterPtr test, FilterPtr then, FilterPtr otherwise, FilterKind kind)
      : Filter(kind), test_(std::move(test)), then_(std::move(then)), else_(std::move(otherwise)) {}
  bool matches(Context& ctx) const override {
    if (test_->matches(ctx)) return then_->matches(ctx);
    return else_ ? else_->matches(ctx) : true;
  }
  Bitboard squares(Context& ctx) const override {
    return test_->matches(ctx) ? then_->squares(ctx) : else_->squares(ctx);
  }
  bool number(Context& ctx, int64_t& out) const override {
    return test_->matches(ctx) ? then_->number(ctx, out) : else_->number(ctx, out);
  }
  bool text(Context& ctx, std::string& out) const override {
    return test_->matches(ctx) ? then_->text(ctx, out) : else_->text(ctx, out);
  }

private:
  FilterPtr test_, then_, else_;
};

// loop f (CQL): "x = 1 loop {x < 5 x += 1}" leaves x at 5 and matches.
class Repeat final : public Filter {
public:
  Repeat(FilterPtr body, SourceRange range)
      : Filter(FilterKind::Logical), body_(std::move(body)), range_(range) {}
  bool matches(Context& ctx) const override {
    bool matched = false;
    while (true) {
      ctx.step(range_);
      if (!body_->matches(ctx)) return matched;
      matched = true;
    }
  }

private:
  FilterPtr body_;
  SourceRange range_;
};

// while (t) f (CQL): "x = 1 while (x < 5) x += 1" leaves x at 5; it always matches.
class While final : public Filter {
public:
  While(FilterPtr test, FilterPtr body, SourceRange range)
      : Filter(FilterKind::Logical), test_(std::move(test)), body_(std::move(body)), range_(range) {}
  bool matches(Context& ctx) const override {
    while (true) {
      ctx.step(range_);
      if (!test_->matches(ctx)) return true;
      body_->matches(ctx);
    }
  }

private:
  FilterPtr test_, body_;
  SourceRange range_;
};

class Number final : public Filter {
public:
  explicit Number(int64_t v) : Filter(FilterKind::Numeric), v_(v) {}
  bool number(Context&, int64_t& out) const override {
    out = v_;
    return true;
  }

private:
  int64_t v_;
};

// Arithmetic on 64-bit numbers is exact or has no value: an operation whose result does not fit
// (INT64_MAX + 1, INT64_MIN / -1, -INT64_MIN) or is undefined (a division or remainder by zero)
// gives no number, so the arithmetic filter fails like a numeric filter without a value, and so
// does every filter built on it. CQL's documents say nothing of overflow; this is our rule.
// A remainder by -1 is 0, INT64_MIN % -1 included.
std::optional<int64_t> exact(ArithOp op, int64_t x, int64_t y) {
  int64_t out = 0;
  switch (op) {
    case ArithOp::Add:
      if (__builtin_add_overflow(x, y, &out)) return std::nullopt;
      return out;
    case ArithOp::Subtract:
      if (__builtin_sub_overflow(x, y, &out)) return std::nullopt;
      return out;
    case ArithOp::Multiply:
      if (__builtin_mul_overflow(x, y, &out)) return std::nullopt;
      return out;
    case ArithOp::Divide:
      if (y == 0 || (x == std::numeric_limits<int64_t>::min() && y == -1)) return std::nullopt;
      return x / y;
    case ArithOp::Modulo:
      if (y == 0) return std::nullopt;
      return y == -1 ? 0 : x % y;
  }
  return std::nullopt;
}

class Arith final : public Filter {
public:
  Arith(ArithOp op, FilterPtr a, FilterPtr b)
      : Filter(FilterKind::Numeric), op_(op), a_(std::move(a)), b_(std::move(b)) {}
  bool number(Context& ctx, int64_t& out) const override {
    int64_t x = 0, y = 0;
    if (!a_->number(ctx, x) || !b_->number(ctx, y)) return false;
    const std::optional<int64_t> result = exact(op_, x, y);
    if (!result) return false;
    out = *result;
    return true;
  }

private:
  ArithOp op_;
  FilterPtr a_, b_;
};

// sqrt x: none for a negative x; the root in double precision, truncated, as CQL's SqrtNode.
class Sqrt final : public Filter {
public:
  explicit Sqrt(FilterPtr f) : Filter(FilterKind::Numeric), f_(std::move(f)) {}
  bool number(Context& ctx, int64_t& out) const override {
    int64_t x = 0;
    if (!f_->number(ctx, x) || x < 0) return false;
    out = static_cast<int64_t>(std::sqrt(static_cast<double>(x)));
    return true;
  }

private:
  FilterPtr f_;
};

// - x and abs x; both have no value for INT64_MIN, whose negation does not fit.
class Unary final : public Filter {
public:
  Unary(FilterPtr f, bool abs) : Filter(FilterKind::Numeric), f_(std::move(f)), abs_(abs) {}
  bool number(Context& ctx, int64_t& out) const override {
    if (!f_->number(ctx, out)) return false;
    if (abs_ && out >= 0) return true;
    const std::optional<int64_t> negated = exact(ArithOp::Subtract, 0, out);
    if (!negated) return false;
    out = *negated;
    return true;
  }

private:
  FilterPtr f_;
  bool abs_;
};

class Extremum final : public Filter {
public:
  Extremum(bool max, Filters args) : Filter(FilterKind::Numeric), max_(max), args_(std::move(args)) {}
  bool number(Context& ctx, int64_t& out) const override {
    bool any = false;
    for (const FilterPtr& f : args_) {
      int64_t v = 0;
      if (!f->number(ctx, v)) continue;
      out = !any ? v : (max_ ? std::max(out, v) : std::min(out, v));
      any = true;
    }
    return any;
  }

private:
  bool max_;
  Filters args_;
};

// A comparison's value is its left operand, so that 1 < x < 5 reads as 1 < {x < 5}.
class NumberCompare final : public Filter {
public:
  NumberCompare(CompareOp op, FilterPtr a, FilterPtr b)
      : Filter(FilterKind::Numeric), op_(op), a_(std::move(a)), b_(std::move(b)) {}
  bool number(Context& ctx, int64_t& out) const override {
    int64_t y = 0;
    if (!number_of(*a_, ctx, out) || !number_of(*b_, ctx, y)) return false;
    return holds(op_, out, y);
  }

private:
  CompareOp op_;
  FilterPtr a_, b_;
};

class Count final : public Filter {
public:
  explicit Count(FilterPtr set) : Filter(FilterKind::Numeric), set_(std::move(set)) {}
  bool number(Context& ctx, int64_t& out) const override {
    out = popcount(set_->squares(ctx));
    return true;
  }

private:
  FilterPtr set_;
};

class Variable final : public Filter {
public:
  Variable(int slot, FilterKind kind) : Filter(kind), slot_(static_cast<size_t>(slot)) {}
  Bitboard squares(Context& ctx) const override { return ctx.slots[slot_].squares; }
  bool number(Context& ctx, int64_t& out) const override {
    const Slot& s = ctx.slots[slot_];
    out = s.number;
    return s.bound;
  }
  bool text(Context& ctx, std::string& out) const override {
    const Slot& s = ctx.slots[slot_];
    out = s.text;
    return s.bound;
  }
  // A position variable holds its node in `number`, meaningful in the current game only.
  pgn::NodeId position(Context& ctx) const override {
    const Slot& s = ctx.slots[slot_];
    return s.bound && ctx.game ? static_cast<pgn::NodeId>(s.number) : pgn::NoNode;
  }

private:
  size_t slot_;
};

// x = value. A set assignment always matches (an empty set is a value); a numeric or string one
// matches when the value is defined, and leaves the variable as it was otherwise.
class Assign final : public Filter {
public:
  Assign(int slot, FilterPtr value)
      : Filter(value->kind()), slot_(static_cast<size_t>(slot)), value_(std::move(value)) {}
  bool matches(Context& ctx) const override {
    int64_t n = 0;
    std::string s;
    if (kind() == FilterKind::Set) {
      squares(ctx);
      return true;
    }
    if (kind() == FilterKind::Position) return position(ctx) != pgn::NoNode;
    return kind() == FilterKind::String ? text(ctx, s) : number(ctx, n);
  }
  // As CQL's position assignment: fails, and leaves the variable as it was, without a position.
  pgn::NodeId position(Context& ctx) const override {
    const pgn::NodeId n = value_->position(ctx);
    if (n == pgn::NoNode) return n;
    Slot& s = ctx.slots[slot_];
    s.bound = true;
    s.number = n;
    return n;
  }
  Bitboard squares(Context& ctx) const override {
    const Bitboard b = value_->squares(ctx);
    Slot& s = ctx.slots[slot_];
    s.bound = true;
    s.squares = b;
    return b;
  }
  // As CQL's AssignNumericNode and AssignStringNode.
  bool number(Context& ctx, int64_t& out) const override {
    if (!value_->number(ctx, out)) return false;
    Slot& s = ctx.slots[slot_];
    s.bound = true;
    s.number = out;
    return true;
  }
  bool text(Context& ctx, std::string& out) const override {
    if (!value_->text(ctx, out)) return false;
    Slot& s = ctx.slots[slot_];
    s.bound = true;
    s.text = out;
    return true;
  }

private:
  size_t slot_;
  FilterPtr value_;
};

// square [all] x in S body, and piece [all] x in S body (the occupied squares of S only).
class Loop final : public Filter {
public:
  Loop(int slot, FilterPtr set, FilterPtr body, bool all, bool pieces, SourceRange range)
      : Filter(all ? FilterKind::Logical : FilterKind::Set),
        slot_(static_cast<size_t>(slot)),
        set_(std::move(set)),
        body_(std::move(body)),
        pieces_(pieces),
        range_(range) {}
  bool matches(Context& ctx) const override {
    if (kind() == FilterKind::Set) return squares(ctx) != 0;
    const ScopedSlot unbinding(ctx, slot_);
    Bitboard each = domain(ctx);
    while (each) {
      ctx.step(range_);
      bind(ctx, pop_lsb(each));
      if (!body_->matches(ctx)) return false;
    }
    return true;
  }
  Bitboard squares(Context& ctx) const override {
    const ScopedSlot unbinding(ctx, slot_);
    Bitboard found = 0;
    Bitboard each = domain(ctx);
    while (each) {
      ctx.step(range_);
      const Square s = pop_lsb(each);
      bind(ctx, s);
      if (body_->matches(ctx)) found |= square_bb(s);
    }
    return found;
  }

private:
  size_t slot_;
  FilterPtr set_, body_;
  bool pieces_;
  SourceRange range_;

  Bitboard domain(Context& ctx) const {
    const Bitboard s = set_->squares(ctx);
    return pieces_ ? s & ctx.pos->pieces() : s;
  }

  // The variable holds the square, or the number of the man on it (and the square, where a piece
  // variable looks for him first), for one run of the body.
  void bind(Context& ctx, Square s) const {
    Slot& slot = ctx.slots[slot_];
    slot.squares = square_bb(s);
    slot.bound = true;
    if (!pieces_) return;
    slot.number = ctx.piece_id(s);
    slot.visit = ctx.visit;
  }
};

// isbound x, isunbound x, unbind x (CQL's IsBoundNode, its negation, UnbindNode): unbind always
// matches and leaves x as a variable never assigned.
class BindingTest final : public Filter {
public:
  BindingTest(Keyword word, int slot) : Filter(FilterKind::Logical), word_(word), slot_(slot) {}
  bool matches(Context& ctx) const override {
    if (word_ == Keyword::Unbind) {
      ctx.slots[static_cast<size_t>(slot_)].unbind();
      return true;
    }
    const bool bound = slot_ >= 0 && ctx.slots[static_cast<size_t>(slot_)].bound;
    return bound == (word_ == Keyword::IsBound);
  }

private:
  Keyword word_;
  int slot_;
};

// assert f: CQL stops its run where f does not match ("assert filter ... failed at gamenumber N
// and positionid: P"); so does egtb, with the assert's place in the query.
class Assert final : public Filter {
public:
  Assert(FilterPtr f, SourceRange range) : Filter(FilterKind::Logical), f_(std::move(f)), range_(range) {}
  bool matches(Context& ctx) const override {
    if (f_->matches(ctx)) return true;
    std::string where = "at " + to_fen(*ctx.pos);
    if (ctx.game)
      where = "in game " + std::to_string(ctx.game->number) + " at positionid " +
              std::to_string(ctx.game_order().ids[ctx.node]) + " (" + to_fen(*ctx.pos) + ")";
    throw RunError({range_, "assert failed " + where});
  }

private:
  FilterPtr f_;
  SourceRange range_;
};

class Sort final : public Filter {
public:
  Sort(FilterPtr body, size_t key) : Filter(FilterKind::Numeric), body_(std::move(body)), key_(key) {}
  bool number(Context& ctx, int64_t& out) const override {
    if (!number_of(*body_, ctx, out)) return false;
    ctx.sort_values.push_back({key_, out});
    return true;
  }

private:
  FilterPtr body_;
  size_t key_;
};

// message / comment: the text is built only when the filter runs.
class Message final : public Filter {
public:
  Message(std::string prefix, Filters args, std::vector<std::string> literals)
      : Filter(FilterKind::Logical),
        prefix_(std::move(prefix)),
        args_(std::move(args)),
        literals_(std::move(literals)) {}
  bool matches(Context& ctx) const override {
    std::string text = prefix_;
    for (size_t i = 0; i < args_.size(); ++i) text += args_[i] ? text_of(*args_[i], ctx) : literals_[i];
    ctx.notes.push_back(std::move(text));
    return true;
  }

private:
  std::string prefix_;
  Filters args_;
  std::vector<std::string> literals_;
};

// The transforms of one filter: matches when one does; a set is the union of the matching
// variants' sets, a number the first matching variant's, a count the number that match.
class Variants final : public Filter {
public:
  Variants(Filters variants, FilterKind kind, bool count)
      : Filter(count ? FilterKind::Numeric : kind), variants_(std::move(variants)), count_(count) {}
  bool matches(Context& ctx) const override {
    if (count_) return true;
    for (const FilterPtr& f : variants_)
      if (f->matches(ctx)) return true;
    return false;
  }
  Bitboard squares(Context& ctx) const override {
    Bitboard all = 0;
    for (const FilterPtr& f : variants_) all |= f->squares(ctx);
    return all;
  }
  bool number(Context& ctx, int64_t& out) const override {
    if (count_) {
      out = 0;
      for (const FilterPtr& f : variants_) out += f->matches(ctx) ? 1 : 0;
      return true;
    }
    for (const FilterPtr& f : variants_)
      if (f->number(ctx, out)) return true;
    return false;
  }

private:
  Filters variants_;
  bool count_;
};

}  // namespace

FilterPtr make_true(bool value) { return std::make_unique<Constant>(value); }
FilterPtr make_sequence(Filters parts) { return std::make_unique<Sequence>(std::move(parts)); }
FilterPtr make_not(FilterPtr f) { return std::make_unique<Not>(std::move(f)); }
FilterPtr make_and(Filters parts) { return std::make_unique<AndOr>(std::move(parts), true); }
FilterPtr make_or(Filters parts) { return std::make_unique<AndOr>(std::move(parts), false); }
FilterPtr make_repeat(FilterPtr body, SourceRange range) {
  return std::make_unique<Repeat>(std::move(body), range);
}

FilterPtr make_while(FilterPtr test, FilterPtr body, SourceRange range) {
  return std::make_unique<While>(std::move(test), std::move(body), range);
}

FilterPtr make_if(FilterPtr test, FilterPtr then, FilterPtr otherwise, FilterKind kind) {
  return std::make_unique<If>(std::move(test), std::move(then), std::move(otherwise), kind);
}
FilterPtr make_number(int64_t value) { return std::make_unique<Number>(value); }
FilterPtr make_arith(ArithOp op, FilterPtr a, FilterPtr b) {
  return std::make_unique<Arith>(op, std::move(a), std::move(b));
}
FilterPtr make_negate(FilterPtr f) { return std::make_unique<Unary>(std::move(f), false); }
FilterPtr make_abs(FilterPtr f) { return std::make_unique<Unary>(std::move(f), true); }
FilterPtr make_sqrt(FilterPtr f) { return std::make_unique<Sqrt>(std::move(f)); }
FilterPtr make_binding(Keyword word, int slot) { return std::make_unique<BindingTest>(word, slot); }
FilterPtr make_assert(FilterPtr f, SourceRange range) {
  return std::make_unique<Assert>(std::move(f), range);
}
FilterPtr make_extremum(bool max, Filters args) { return std::make_unique<Extremum>(max, std::move(args)); }
FilterPtr make_compare(CompareOp op, FilterPtr a, FilterPtr b) {
  return std::make_unique<NumberCompare>(op, std::move(a), std::move(b));
}
FilterPtr make_count(FilterPtr set) { return std::make_unique<Count>(std::move(set)); }
FilterPtr make_variable(int slot, FilterKind kind) { return std::make_unique<Variable>(slot, kind); }
FilterPtr make_assign(int slot, FilterPtr value) { return std::make_unique<Assign>(slot, std::move(value)); }
FilterPtr make_loop(int slot, FilterPtr set, FilterPtr body, bool all, bool pieces, SourceRange range) {
  return std::make_unique<Loop>(slot, std::move(set), std::move(body), all, pieces, range);
}
FilterPtr make_sort(FilterPtr body, size_t key) { return std::make_unique<Sort>(std::move(body), key); }
FilterPtr make_message(std::string prefix, Filters args, std::vector<std::string> literals) {
  return std::make_unique<Message>(std::move(prefix), std::move(args), std::move(literals));
}
FilterPtr make_variants(Filters variants, FilterKind kind, bool count) {
  return std::make_unique<Variants>(std::move(variants), kind, count);
}

}  // namespace egtb::query::detail
