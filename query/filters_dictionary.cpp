// CQL's dictionaries: D[k], D[k] = v, unbind D, unbind D[k], #D (Context::dictionaries).
#include "query/filter.hpp"

#include <string>

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

// A key or value as CQL prints it, its type first: <NumValue>5, <string>a, <SquareMask>e5, a set of
// several squares or none listed a1 first within brackets (<SquareMask>[a1,b2], <SquareMask>[]).
// A position prints as <QPos*> and its node in the game (CQL prints the address of its object).
std::string datum_text(const Datum& d, FilterKind kind) {
  switch (kind) {
    case FilterKind::Numeric: return "<NumValue>" + std::to_string(d.number);
    case FilterKind::String: return "<string>" + d.text;
    case FilterKind::Position: return "<QPos*>" + std::to_string(d.number);
    case FilterKind::Set: {
      std::string list;
      for (Bitboard b = d.squares; b; b &= b - 1) {
        if (!list.empty()) list += ',';
        list += square_name(lsb(b));
      }
      return "<SquareMask>" + (popcount(d.squares) == 1 ? list : "[" + list + "]");
    }
    case FilterKind::Logical: break;
  }
  return {};
}

// A dictionary as message(D) and comment(D) print it, CQL's format: a header line, then one line per
// entry in key order. Example: D["b"] = 3 D["a"] = 5 prints
// "Dictionary D with 2 entries: \n<string>a: <NumValue>5\n<string>b: <NumValue>3\n".
class DictionaryText final : public Filter {
public:
  DictionaryText(int dictionary, std::string name, FilterKind key, FilterKind value)
      : Filter(FilterKind::String),
        dictionary_(static_cast<size_t>(dictionary)),
        name_(std::move(name)),
        key_(key),
        value_(value) {}
  bool text(Context& ctx, std::string& out) const override {
    const Dictionary& d = ctx.dictionaries[dictionary_];
    out = "Dictionary " + name_ + " with " + std::to_string(d.size()) + " entries: \n";
    for (const auto& [key, value] : d) out += datum_text(key, key_) + ": " + datum_text(value, value_) + "\n";
    return true;
  }

private:
  size_t dictionary_;
  std::string name_;
  FilterKind key_;
  FilterKind value_;
};

// x ∊ D body. The keys are copied first, since the body may change D. As in CQL, x must be unbound
// when the loop starts, and is unbound when it ends. Example: D[3] = 1 D[1] = 2 then k ∊ D runs
// the body with k = 1, then k = 3.
class DictionaryLoop final : public Filter {
public:
  DictionaryLoop(int slot, int dictionary, FilterPtr body, SourceRange range)
      : Filter(FilterKind::Logical),
        slot_(static_cast<size_t>(slot)),
        dictionary_(static_cast<size_t>(dictionary)),
        body_(std::move(body)),
        range_(range) {}
  bool matches(Context& ctx) const override {
    if (ctx.slots[slot_].bound)
      throw RunError({range_, "the variable of a loop over a dictionary's keys is bound already"});
    std::vector<Datum> keys;
    for (const auto& entry : ctx.dictionaries[dictionary_]) keys.push_back(entry.first);
    const ScopedSlot unbinding(ctx, slot_);
    for (Datum& key : keys) {
      ctx.step(range_);
      unbinding->squares = key.squares;
      unbinding->number = key.number;
      unbinding->text = std::move(key.text);
      unbinding->bound = true;
      body_->matches(ctx);
    }
    return true;
  }

private:
  size_t slot_;
  size_t dictionary_;
  FilterPtr body_;
  SourceRange range_;
};

}  // namespace

FilterPtr make_dictionary_loop(int slot, int dictionary, FilterPtr body, SourceRange range) {
  return std::make_unique<DictionaryLoop>(slot, dictionary, std::move(body), range);
}
FilterPtr make_dictionary_text(int dictionary, std::string name, FilterKind key, FilterKind value) {
  return std::make_unique<DictionaryText>(dictionary, std::move(name), key, value);
}
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
