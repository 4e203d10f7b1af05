// Strings and the game's data, as CQL 6.2 defines them: string literals, comparison (by bytes),
// '+' (joining), "a" in s (s holds a), # (length), s[i] and s[a:b] (negative indexes count from
// the end), indexof(a s), s ~~ "re" (std::regex's ECMAScript grammar, as CQL's; the match, with its groups
// for \N), lowercase, uppercase, int, str; the tags (player white, player black, player, event, site, date,
// eco, tag "X"), elo, year and the comment after the move (originalcomment).
//
// A position without a game (a table entry, a FEN) has no tags: those filters have no value there.
// Example over a game with [White "A. Troitzky"]: player white ~~ "Tr(o+)" has the value "Tro"
// (the first match), and \1 is then "o".
#include <algorithm>
#include <charconv>
#include <regex>

#include "query/eval.hpp"
#include "query/filter.hpp"
#include "query/hhdb.hpp"
#include "query/print.hpp"

namespace egtb::query::detail {

namespace {

class Literal final : public Filter {
public:
  explicit Literal(std::string text) : Filter(FilterKind::String), text_(std::move(text)) {}
  bool text(Context&, std::string& out) const override {
    out = text_;
    return true;
  }

private:
  std::string text_;
};

// str(a b ...): the texts of the arguments joined, as message writes them.
class Str final : public Filter {
public:
  Str(Filters args, std::vector<std::string> literals)
      : Filter(FilterKind::String), args_(std::move(args)), literals_(std::move(literals)) {}
  bool text(Context& ctx, std::string& out) const override {
    out.clear();
    for (size_t i = 0; i < args_.size(); ++i) out += args_[i] ? text_of(*args_[i], ctx) : literals_[i];
    return true;
  }

private:
  Filters args_;
  std::vector<std::string> literals_;
};

class StringCompare final : public Filter {
public:
  StringCompare(CompareOp op, FilterPtr a, FilterPtr b)
      : Filter(FilterKind::String), op_(op), a_(std::move(a)), b_(std::move(b)) {}
  bool text(Context& ctx, std::string& out) const override {
    std::string other;
    if (!a_->text(ctx, out) || !b_->text(ctx, other)) return false;
    const int order = out.compare(other);
    return holds(op_, order, 0);
  }

private:
  CompareOp op_;
  FilterPtr a_, b_;
};

class Concatenation final : public Filter {
public:
  Concatenation(FilterPtr a, FilterPtr b) : Filter(FilterKind::String), a_(std::move(a)), b_(std::move(b)) {}
  bool text(Context& ctx, std::string& out) const override {
    std::string tail;
    if (!a_->text(ctx, out) || !b_->text(ctx, tail)) return false;
    out += tail;
    return true;
  }

private:
  FilterPtr a_, b_;
};

// "a" in s (Logical) and indexof(a s) (Numeric: where a begins in s).
class StringIn final : public Filter {
public:
  StringIn(FilterPtr part, FilterPtr whole, FilterKind kind)
      : Filter(kind), part_(std::move(part)), whole_(std::move(whole)) {}
  bool matches(Context& ctx) const override {
    int64_t at = 0;
    return number(ctx, at);
  }
  bool number(Context& ctx, int64_t& out) const override {
    std::string part, whole;
    if (!part_->text(ctx, part) || !whole_->text(ctx, whole)) return false;
    const size_t at = whole.find(part);
    out = static_cast<int64_t>(at);
    return at != std::string::npos;
  }

private:
  FilterPtr part_, whole_;
};

class Length final : public Filter {
public:
  explicit Length(FilterPtr s) : Filter(FilterKind::Numeric), s_(std::move(s)) {}
  bool number(Context& ctx, int64_t& out) const override {
    std::string s;
    if (!s_->text(ctx, s)) return false;
    out = static_cast<int64_t>(s.size());
    return true;
  }

private:
  FilterPtr s_;
};

// std::regex recurses once per character or so: a text longer than MaxMatchedText fails the
// query (RunError) rather than the stack (40,000 characters overflowed 8 MB with ".*z").
constexpr size_t MaxMatchedText = 4096;

void check_matched_size(const std::string& s, const SourceRange& range) {
  if (s.size() > MaxMatchedText)
    throw RunError({range, "'~~' on a text of " + std::to_string(s.size()) + " bytes (at most " +
                               std::to_string(MaxMatchedText) + ")"});
}

// The first match of the pattern in the string; its groups go to ctx.groups, which a failed
// match clears (CQL's RegexHistory).
class Match final : public Filter {
public:
  Match(FilterPtr s, std::regex pattern, SourceRange range)
      : Filter(FilterKind::String), s_(std::move(s)), re_(std::move(pattern)), range_(range) {}
  bool text(Context& ctx, std::string& out) const override {
    std::string s;
    if (!s_->text(ctx, s)) return false;
    check_matched_size(s, range_);
    std::smatch m;
    ctx.groups.clear();
    if (!std::regex_search(s, m, re_)) return false;
    for (const auto& g : m)
      ctx.groups.push_back(g.matched ? std::optional<std::string>(g.str()) : std::nullopt);
    out = m.str(0);
    return true;
  }

private:
  FilterPtr s_;
  std::regex re_;
  SourceRange range_;
};

// while (s ~~ re) f (CQL's StringIteratorNode): f once for each match of re in s, left to right,
// with \0, \1 ... that match's groups; it matches unless s has no value. Over "RBNQ" with "."
// the body runs four times, \0 "R", then "B", "N" and "Q".
class MatchLoop final : public Filter {
public:
  MatchLoop(FilterPtr s, std::regex pattern, FilterPtr body, SourceRange range)
      : Filter(FilterKind::Logical),
        s_(std::move(s)),
        re_(std::move(pattern)),
        body_(std::move(body)),
        range_(range) {}
  bool matches(Context& ctx) const override {
    std::string s;
    if (!s_->text(ctx, s)) return false;
    check_matched_size(s, range_);
    ctx.groups.clear();
    for (auto it = std::sregex_iterator(s.begin(), s.end(), re_); it != std::sregex_iterator(); ++it) {
      ctx.step(range_);
      ctx.groups.clear();
      for (const auto& g : *it)
        ctx.groups.push_back(g.matched ? std::optional<std::string>(g.str()) : std::nullopt);
      body_->matches(ctx);
    }
    return true;
  }

private:
  FilterPtr s_;
  std::regex re_;
  FilterPtr body_;
  SourceRange range_;
};

class Group final : public Filter {
public:
  explicit Group(int64_t group) : Filter(FilterKind::String), group_(static_cast<size_t>(group)) {}
  bool text(Context& ctx, std::string& out) const override {
    if (group_ >= ctx.groups.size() || !ctx.groups[group_]) return false;
    out = *ctx.groups[group_];
    return true;
  }

private:
  size_t group_;
};

// s[i]: the character at i (none out of the string); s[a:b]: the characters from a to b, both
// clamped to the string (CQL's BracketRange).
class Substring final : public Filter {
public:
  Substring(FilterPtr s, FilterPtr start, FilterPtr stop, bool range)
      : Filter(FilterKind::String),
        s_(std::move(s)),
        start_(std::move(start)),
        stop_(std::move(stop)),
        range_(range) {}
  bool text(Context& ctx, std::string& out) const override {
    std::string s;
    int64_t a = 0;
    if (!s_->text(ctx, s) || !start_->number(ctx, a)) return false;
    const auto length = static_cast<int64_t>(s.size());
    if (a < 0) a += length;
    if (!range_) {
      if (a < 0 || a >= length) return false;
      out = s.substr(static_cast<size_t>(a), 1);
      return true;
    }
    int64_t b = length;
    if (stop_ && !stop_->number(ctx, b)) return false;
    if (b < 0) b += length;
    a = std::clamp<int64_t>(a, 0, length);
    b = std::clamp<int64_t>(b, a, length);
    out = s.substr(static_cast<size_t>(a), static_cast<size_t>(b - a));
    return true;
  }

private:
  FilterPtr s_, start_, stop_;
  bool range_;
};

// lowercase and uppercase (ASCII letters), int (a whole string of digits, signed, as an int).
class Convert final : public Filter {
public:
  Convert(Keyword keyword, FilterPtr s)
      : Filter(keyword == Keyword::Int ? FilterKind::Numeric : FilterKind::String),
        keyword_(keyword),
        s_(std::move(s)) {}
  bool text(Context& ctx, std::string& out) const override {
    if (!s_->text(ctx, out)) return false;
    const bool lower = keyword_ == Keyword::LowerCase;
    for (char& c : out)
      if ((lower && c >= 'A' && c <= 'Z') || (!lower && c >= 'a' && c <= 'z'))
        c = static_cast<char>(c ^ 0x20);
    return true;
  }
  bool number(Context& ctx, int64_t& out) const override {
    std::string s;
    if (!s_->text(ctx, s)) return false;
    const char* first = s.data() + (s.starts_with('+') ? 1 : 0);
    const char* last = s.data() + s.size();
    int32_t value = 0;
    const auto [end, error] = std::from_chars(first, last, value);
    if (first == last || error != std::errc() || end != last) return false;
    out = value;
    return true;
  }

private:
  Keyword keyword_;
  FilterPtr s_;
};

// The value of a tag, none when the game lacks it or it is empty.
std::optional<std::string> tag_value(const Context& ctx, std::string_view name) {
  if (!ctx.game) return std::nullopt;
  const std::optional<std::string_view> v = ctx.game->tag(name);
  if (!v || v->empty()) return std::nullopt;
  return std::string(*v);
}

// A tag; "" reads both players, White's and Black's joined by a backslash and an n (CQL's player is
// 'player white + "\n" + player black', and CQL's strings keep their backslashes).
class Tag final : public Filter {
public:
  explicit Tag(std::string name) : Filter(FilterKind::String), name_(std::move(name)) {}
  bool text(Context& ctx, std::string& out) const override {
    if (!name_.empty()) return assign(tag_value(ctx, name_), out);
    const std::optional<std::string> white = tag_value(ctx, "White");
    const std::optional<std::string> black = tag_value(ctx, "Black");
    return white && black && assign(*white + "\\n" + *black, out);
  }

private:
  std::string name_;

  static bool assign(const std::optional<std::string>& v, std::string& out) {
    if (v) out = *v;
    return v.has_value();
  }
};

// The leading number of a tag when it lies within [low, high] ("1913.??.??" is 1913).
std::optional<int64_t> tag_number(const Context& ctx, std::string_view name, int64_t low, int64_t high) {
  const std::optional<std::string> v = tag_value(ctx, name);
  if (!v) return std::nullopt;
  int64_t n = 0;
  const auto [end, error] = std::from_chars(v->data(), v->data() + v->size(), n);
  if (error != std::errc() || end == v->data() || n < low || n > high) return std::nullopt;
  return n;
}

// elo white, elo black: WhiteElo, BlackElo (1 to 100,000); elo: the higher of those given.
class Elo final : public Filter {
public:
  explicit Elo(std::string side) : Filter(FilterKind::Numeric), side_(std::move(side)) {}
  bool number(Context& ctx, int64_t& out) const override {
    std::optional<int64_t> best;
    for (const char* side : {"White", "Black"}) {
      if (!side_.empty() && side_ != side) continue;
      const std::optional<int64_t> elo = tag_number(ctx, std::string(side) + "Elo", 1, 100'000);
      if (elo && (!best || *elo > *best)) best = elo;
    }
    if (best) out = *best;
    return best.has_value();
  }

private:
  std::string side_;
};

// year (of the Date tag, 1 to 10,000) and originalcomment (the comments after the move that led
// to the position, joined by a blank; at the start, those before the first move).
class GameData final : public Filter {
public:
  explicit GameData(Keyword keyword) : Filter(keyword_info(keyword).kind) {}
  bool number(Context& ctx, int64_t& out) const override {
    const std::optional<int64_t> year = tag_number(ctx, "Date", 1, 10'000);
    if (year) out = *year;
    return year.has_value();
  }
  bool text(Context& ctx, std::string& out) const override {
    if (!ctx.game) return false;
    out.clear();
    for (const std::string& c : ctx.game->node(ctx.node).comments) out += (out.empty() ? "" : " ") + c;
    return !out.empty();
  }
};

class Nag final : public Filter {
public:
  explicit Nag(uint8_t nag) : Filter(FilterKind::Logical), nag_(nag) {}
  bool matches(Context& ctx) const override {
    if (!ctx.game) return false;
    const std::vector<uint8_t>& nags = ctx.game->node(ctx.node).nags;
    return std::find(nags.begin(), nags.end(), nag_) != nags.end();
  }

private:
  uint8_t nag_;
};

class RemoveComment final : public Filter {
public:
  RemoveComment() : Filter(FilterKind::Logical) {}
  bool matches(Context& ctx) const override {
    if (ctx.game) ctx.edits.removed_comments.push_back(ctx.node);
    return true;
  }
};

class SetTag final : public Filter {
public:
  SetTag(std::string name, FilterPtr value)
      : Filter(FilterKind::Logical), name_(std::move(name)), value_(std::move(value)) {}
  bool matches(Context& ctx) const override {
    std::string value;
    if (!value_->text(ctx, value)) return false;
    if (ctx.game) ctx.edits.tags.emplace_back(name_, std::move(value));
    return true;
  }

private:
  std::string name_;
  FilterPtr value_;
};

class HhdbAward final : public Filter {
public:
  HhdbAward(std::string type, bool special, bool max)
      : Filter(FilterKind::Numeric), type_(std::move(type)), special_(special), max_(max) {}
  bool matches(Context& ctx) const override { return award(ctx).has_value(); }
  bool number(Context& ctx, int64_t& out) const override {
    const std::optional<int> rank = award(ctx);
    if (!rank || *rank == 0) return false;
    out = *rank;
    return true;
  }

private:
  std::string type_;
  bool special_;
  bool max_;

  std::optional<int> award(const Context& ctx) const {
    if (!ctx.game) return std::nullopt;
    return hhdb_award(ctx.game->tag("Event").value_or(""), type_, special_, max_);
  }
};

}  // namespace

std::string text_of(const Filter& f, Context& ctx) {
  int64_t n = 0;
  std::string s;
  switch (f.kind()) {
    case FilterKind::Set: return designator_text(AnyMen, f.squares(ctx));
    case FilterKind::Numeric: return f.number(ctx, n) ? std::to_string(n) : "<none>";
    case FilterKind::String: return f.text(ctx, s) ? s : "<none>";
    default: return f.matches(ctx) ? "<true>" : "<false>";
  }
}

FilterPtr make_string(std::string text) { return std::make_unique<Literal>(std::move(text)); }
FilterPtr make_str(Filters args, std::vector<std::string> literals) {
  return std::make_unique<Str>(std::move(args), std::move(literals));
}
FilterPtr make_string_compare(CompareOp op, FilterPtr a, FilterPtr b) {
  return std::make_unique<StringCompare>(op, std::move(a), std::move(b));
}
FilterPtr make_concatenation(FilterPtr a, FilterPtr b) {
  return std::make_unique<Concatenation>(std::move(a), std::move(b));
}
FilterPtr make_string_in(FilterPtr part, FilterPtr whole) {
  return std::make_unique<StringIn>(std::move(part), std::move(whole), FilterKind::Logical);
}
FilterPtr make_index_of(FilterPtr part, FilterPtr whole) {
  return std::make_unique<StringIn>(std::move(part), std::move(whole), FilterKind::Numeric);
}
FilterPtr make_length(FilterPtr s) { return std::make_unique<Length>(std::move(s)); }
FilterPtr make_string_match(FilterPtr s, const std::string& pattern, SourceRange range, std::string& error) {
  try {
    return std::make_unique<Match>(std::move(s), std::regex(pattern), range);
  } catch (const std::regex_error& e) {
    error = e.what();
    return nullptr;
  }
}
FilterPtr make_match_loop(FilterPtr s, const std::string& pattern, FilterPtr body, SourceRange range,
                          std::string& error) {
  try {
    return std::make_unique<MatchLoop>(std::move(s), std::regex(pattern), std::move(body), range);
  } catch (const std::regex_error& e) {
    error = e.what();
    return nullptr;
  }
}
FilterPtr make_group(int64_t group) { return std::make_unique<Group>(group); }
FilterPtr make_substring(FilterPtr s, FilterPtr start, FilterPtr stop, bool range) {
  return std::make_unique<Substring>(std::move(s), std::move(start), std::move(stop), range);
}
FilterPtr make_convert(Keyword keyword, FilterPtr s) {
  return std::make_unique<Convert>(keyword, std::move(s));
}
FilterPtr make_tag(std::string name) { return std::make_unique<Tag>(std::move(name)); }
FilterPtr make_elo(std::string side) { return std::make_unique<Elo>(std::move(side)); }
FilterPtr make_nag(uint8_t nag) { return std::make_unique<Nag>(nag); }
FilterPtr make_remove_comment() { return std::make_unique<RemoveComment>(); }
FilterPtr make_set_tag(std::string name, FilterPtr value) {
  return std::make_unique<SetTag>(std::move(name), std::move(value));
}
FilterPtr make_hhdb_award(std::string type, bool special, bool max) {
  return std::make_unique<HhdbAward>(std::move(type), special, max);
}
FilterPtr make_game_data(Keyword keyword) { return std::make_unique<GameData>(keyword); }

}  // namespace egtb::query::detail
