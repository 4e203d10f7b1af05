// CQL's dictionaries: D[k], D[k] = v, unbind D, unbind D[k], #D (Context::dictionaries).
#include "query/filter.hpp"

namespace egtb::query::detail {

namespace {

// The value of a key or value filter as a Datum (filter.hpp), when it has one. A set always has one
// (the empty set too), as CQL's assignment of a set.
bool datum(const Filter& f, Context& ctx, Datum& out) {
  switch (f.kind()) {
    case FilterKind::Set: out.squares = f.squares(ctx); return true;
    case FilterKind::Numeric: return f.number(ctx, out.number);
    case FilterKind::String: return f.text(ctx, out.text);
    case FilterKind::Position: {
      const pgn::NodeId node = f.position(ctx);
      out.number = node;
      return node != pgn::NoNode;
    }
    case FilterKind::Logical: break;
  }
  return false;
}

class DictionaryEntry final : public Filter {
public:
  DictionaryEntry(int dictionary, FilterPtr key, FilterKind kind)
      : Filter(kind), dictionary_(static_cast<size_t>(dictionary)), key_(std::move(key)) {}
  bool matches(Context& ctx) const override { return entry(ctx) != nullptr; }
  Bitboard squares(Context& ctx) const override {
    const Datum* v = entry(ctx);
    return v ? v->squares : 0;
  }
  bool number(Context& ctx, int64_t& out) const override {
    const Datum* v = entry(ctx);
    out = v ? v->number : 0;
    return v != nullptr;
  }
  bool text(Context& ctx, std::string& out) const override {
    const Datum* v = entry(ctx);
    if (v) out = v->text;
    return v != nullptr;
  }
  pgn::NodeId position(Context& ctx) const override {
    const Datum* v = entry(ctx);
    return v && ctx.game ? static_cast<pgn::NodeId>(v->number) : pgn::NoNode;
  }

private:
  size_t dictionary_;
  FilterPtr key_;

  // The value at the key, or null when the key has no value or D no entry there.
  [[nodiscard]] const Datum* entry(Context& ctx) const {
    Datum key;
    if (!datum(*key_, ctx, key)) return nullptr;
    const Dictionary& d = ctx.dictionaries[dictionary_];
    const auto e = d.find(key);
    return e == d.end() ? nullptr : &e->second;
  }
};

class DictionaryAssign final : public Filter {
public:
  DictionaryAssign(int dictionary, FilterPtr key, FilterPtr value)
      : Filter(FilterKind::Logical),
        dictionary_(static_cast<size_t>(dictionary)),
        key_(std::move(key)),
        value_(std::move(value)) {}
  bool matches(Context& ctx) const override {
    Datum key;
    Datum value;
    if (!datum(*key_, ctx, key) || !datum(*value_, ctx, value)) return false;
    ctx.dictionaries[dictionary_][std::move(key)] = std::move(value);
    return true;
  }

private:
  size_t dictionary_;
  FilterPtr key_;
  FilterPtr value_;
};

class DictionaryUnbind final : public Filter {
public:
  DictionaryUnbind(int dictionary, FilterPtr key)
      : Filter(FilterKind::Logical), dictionary_(static_cast<size_t>(dictionary)), key_(std::move(key)) {}
  bool matches(Context& ctx) const override {
    Dictionary& d = ctx.dictionaries[dictionary_];
    if (!key_) {
      d.clear();
      return true;
    }
    Datum key;
    if (!datum(*key_, ctx, key)) return false;
    d.erase(key);
    return true;
  }

private:
  size_t dictionary_;
  FilterPtr key_;
};

class DictionaryCount final : public Filter {
public:
  explicit DictionaryCount(int dictionary)
      : Filter(FilterKind::Numeric), dictionary_(static_cast<size_t>(dictionary)) {}
  bool number(Context& ctx, int64_t& out) const override {
    out = static_cast<int64_t>(ctx.dictionaries[dictionary_].size());
    return true;
  }

private:
  size_t dictionary_;
};

}  // namespace

FilterPtr make_dictionary_entry(int dictionary, FilterPtr key, FilterKind kind) {
  return std::make_unique<DictionaryEntry>(dictionary, std::move(key), kind);
}
FilterPtr make_dictionary_assign(int dictionary, FilterPtr key, FilterPtr value) {
  return std::make_unique<DictionaryAssign>(dictionary, std::move(key), std::move(value));
}
FilterPtr make_dictionary_unbind(int dictionary, FilterPtr key) {
  return std::make_unique<DictionaryUnbind>(dictionary, std::move(key));
}
FilterPtr make_dictionary_count(int dictionary) { return std::make_unique<DictionaryCount>(dictionary); }

}  // namespace egtb::query::detail
