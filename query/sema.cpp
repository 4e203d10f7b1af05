#include "query/sema.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace egtb::query {

namespace {

struct SemaFailure {
  QueryError error;
};

std::string after(const Node& n) { return "after " + quoted(keyword_of(n)); }
std::string inside(const Node& n) { return "in " + quoted(keyword_of(n)); }

class Sema {
public:
  SemaInfo run(Node& root) {
    for (NodePtr& c : root.children) check(c);
    // isbound names a variable wherever it is assigned, before it or after, as in CQL.
    for (Node* n : bound_tests_) {
      const auto v = variables_.find(n->name);
      n->slot = v == variables_.end() ? -1 : v->second;
    }
    root.filter = root.children.empty() ? FilterKind::Logical : root.children.back()->filter;
    return info_;
  }

private:
  SemaInfo info_;
  std::vector<std::pair<SourceRange, size_t>> sort_places_;  // each sort's place and key
  int unlabelled_sorts_ = 0;
  std::map<std::string, int, std::less<>> variables_;
  std::map<std::string, int, std::less<>> dictionaries_;  // name -> index in info_.dictionaries
  std::map<std::string, const Node*, std::less<>> functions_;
  std::vector<std::map<std::string, const Node*, std::less<>>> frames_;  // parameter -> argument
  std::set<std::string, std::less<>> expanding_;
  int expansions_ = 0;
  size_t expanded_nodes_ = 0;  // copied into the tree by expansions
  int depth_ = 0;              // of the node being checked, expansions included
  // How many filters read at another position of the game (path and line constituents, the body of find,
  // what follows ':', a dash's targets) enclose the node being checked.
  int elsewhere_ = 0;
  // elsewhere_ at the constituents of the innermost line being checked (-1: none, or inside a
  // move filter): a move filter at that level follows the line's next move (FlagLineMove).
  int line_level_ = -1;
  const Node* outer_call_ = nullptr;  // the outermost call being expanded
  std::vector<Node*> bound_tests_;    // isbound and isunbound, resolved once every name is known

  [[noreturn]] static void fail(const SourceRange& r, std::string message) {
    throw SemaFailure{{r, std::move(message)}};
  }

  static void require(const Node& n, FilterKind kind, const std::string& what) {
    if (n.filter != kind) fail(n.range, "expected " + what);
  }
  void require_sets(const Node& n, const std::string& where) {
    for (const NodePtr& c : n.children) require(*c, FilterKind::Set, "square set " + where);
  }

  // Counts the depth of the node being checked while it is.
  class Level {
  public:
    Level(Sema& s, const Node& n) : s_(s) {
      if (++s_.depth_ > MaxTreeDepth) s_.too_deep(n);
    }
    ~Level() { --s_.depth_; }
    Level(const Level&) = delete;
    Level& operator=(const Level&) = delete;

  private:
    Sema& s_;
  };

  // Function calls are the only way past the parser's bounds, so the error names the call.
  [[noreturn]] void too_deep(const Node& n) const {
    fail(outer_call_ ? outer_call_->range : n.range,
         "query nested too deeply after expanding its function calls (more than " +
             std::to_string(MaxTreeDepth) + " levels)");
  }

  // A copy of `tree` to put into the query at the depth being checked, within the bounds.
  NodePtr copy_in(const Node& tree, const Node& call) {
    const TreeSize size = tree_size(tree);
    expanded_nodes_ += size.nodes;
    if (expanded_nodes_ > MaxExpandedNodes)
      fail((outer_call_ ? *outer_call_ : call).range,
           "function calls expand this query to more than " + std::to_string(MaxExpandedNodes) + " nodes");
    if (depth_ + size.height > MaxTreeDepth) too_deep(call);
    return clone(tree);
  }

  // Whether child i of n is read at another position than n.
  static bool elsewhere(const Node& n, size_t i) {
    switch (n.kind) {
      case NodeKind::Path: return n.child(i).kind != NodeKind::PathParam;
      case NodeKind::Line: return true;
      case NodeKind::Find: return i == 0;
      case NodeKind::WithPosition: return i == 1;
      case NodeKind::Echo: return i == 2;
      case NodeKind::Dash:
      case NodeKind::PlayedMove: return n.move_roles[i] == MoveRole::Body;
      default: return false;
    }
  }

  FilterKind check(NodePtr& slot) {
    const Level level(*this, *slot);
    Node& n = *slot;
    if (n.kind == NodeKind::Variable) return variable(slot);
    if (n.kind == NodeKind::Function) return define(n);
    if (n.kind == NodeKind::Call) return call(n);
    if (n.kind == NodeKind::SquareLoop || n.kind == NodeKind::PieceLoop) return loop(n);
    if (n.kind == NodeKind::DictLoop) return dictionary_loop(n);
    if (n.kind == NodeKind::Assign && n.has(FlagPersistent)) return persistent_assign(n);
    if (n.kind == NodeKind::Echo || n.kind == NodeKind::ConsecutiveMoves) bind_positions(n);
    const int outer_line = line_level_;
    if (n.kind == NodeKind::Line) line_level_ = elsewhere_ + 1;
    if (n.kind == NodeKind::PlayedMove) {
      if (elsewhere_ == line_level_ && !n.has(FlagPrevious)) n.flags |= FlagLineMove;
      line_level_ = -1;
    }
    for (size_t i = 0; i < n.children.size(); ++i) {
      const int inside = elsewhere(n, i) ? 1 : 0;
      elsewhere_ += inside;
      check(n.children[i]);
      elsewhere_ -= inside;
    }
    line_level_ = outer_line;
    if (keyword_info(keyword_of(n)).tables) use_tables(n);
    n.filter = kind_of(n);
    return n.filter;
  }

  FilterKind variable(NodePtr& slot) {
    const std::string& name = slot->name;
    if (!frames_.empty()) {
      const auto p = frames_.back().find(name);
      if (p != frames_.back().end()) {
        const SourceRange use = slot->range;
        slot = copy_in(*p->second, *slot);
        slot->range = use;
        return slot->filter;
      }
    }
    const auto v = variables_.find(name);
    if (v == variables_.end()) {
      if (functions_.count(name))
        fail(slot->range, "function '" + quote_source(name) + "' needs '(' and its arguments");
      fail(slot->range, "unknown variable '" + quote_source(name) + "'");
    }
    slot->slot = v->second;
    const VariableInfo& info = info_.variables[static_cast<size_t>(v->second)];
    slot->filter = info.kind;
    if (info.piece) slot->flags |= FlagPiece;
    return slot->filter;
  }

  // The slot of the variable `n` names, a piece variable (one that holds a man) or not.
  int bind(const Node& n, FilterKind kind, bool piece = false) {
    const auto v = variables_.find(n.name);
    if (v != variables_.end()) {
      const VariableInfo& old = info_.variables[static_cast<size_t>(v->second)];
      if (old.kind != kind)
        fail(n.range, "variable '" + quote_source(n.name) + "' holds a " +
                          std::string(filter_kind_name(old.kind)) + " value; cannot give it a " +
                          std::string(filter_kind_name(kind)) + " value");
      if (old.piece != piece)
        fail(n.range, "variable '" + quote_source(n.name) + "' " +
                          (old.piece ? "is a piece variable (it holds a man); cannot give it squares"
                                     : "holds squares; cannot make it a piece variable"));
      return v->second;
    }
    if (dictionaries_.count(n.name))
      fail(n.range, "'" + quote_source(n.name) + "' is a dictionary; use " + quote_source(n.name) + "[key]");
    const int slot = static_cast<int>(info_.variables.size());
    info_.variables.push_back({n.name, kind, piece});
    variables_.emplace(n.name, slot);
    return slot;
  }

  // The two position variables of echo and consecutivemoves (children 0 and 1).
  void bind_positions(Node& n) {
    for (size_t i = 0; i < 2; ++i) {
      Node& v = *n.children[i];
      v.slot = bind(v, FilterKind::Position);
      v.filter = FilterKind::Position;
    }
  }

  FilterKind define(Node& n) {
    if (functions_.count(n.name) || variables_.count(n.name))
      fail(n.range, "'" + quote_source(n.name) + "' is already defined");
    functions_.emplace(n.name, &n);
    n.filter = FilterKind::Logical;
    return n.filter;
  }

  FilterKind call(Node& n) {
    const auto f = functions_.find(n.name);
    if (f == functions_.end()) fail(n.range, "unknown function '" + quote_source(n.name) + "'");
    const Node& def = *f->second;
    if (def.params.size() != n.children.size())
      fail(n.range, "function '" + quote_source(n.name) + "' takes " + std::to_string(def.params.size()) +
                        " argument(s), " + std::to_string(n.children.size()) + " given");
    if (expanding_.count(n.name)) fail(n.range, "recursive call of function '" + quote_source(n.name) + "'");
    if (++expansions_ > MaxExpansions)
      fail(n.range, "too many function expansions (more than " + std::to_string(MaxExpansions) + ")");
    std::map<std::string, const Node*, std::less<>> frame;
    for (size_t i = 0; i < n.children.size(); ++i) {
      check(n.children[i]);
      frame.emplace(def.params[i], n.children[i].get());
    }
    const Node* outer = outer_call_;
    if (!outer_call_) outer_call_ = &n;
    n.expansion = copy_in(def.child(0), n);
    frames_.push_back(std::move(frame));
    expanding_.insert(n.name);
    check(n.expansion);
    expanding_.erase(n.name);
    frames_.pop_back();
    outer_call_ = outer;
    n.filter = n.expansion->filter;
    return n.filter;
  }

  FilterKind loop(Node& n) {
    check(n.children[0]);
    require(n.child(0), FilterKind::Set, "square set after " + quoted(Keyword::In));
    n.slot = bind(n, FilterKind::Set, n.kind == NodeKind::PieceLoop);
    check(n.children[1]);
    n.filter = n.has(FlagAll) ? FilterKind::Logical : FilterKind::Set;
    return n.filter;
  }

  // x ∊ D body: x takes the kind of D's keys, which an earlier D[k] must have fixed (CQL decides it
  // at parse time too); string x in D needs string keys.
  FilterKind dictionary_loop(Node& n) {
    check(n.children[0]);
    const DictionaryInfo& d = info_.dictionaries[static_cast<size_t>(n.child(0).slot)];
    const std::string name = quote_source(d.name);
    if (!d.key)
      fail(n.child(0).range, "dictionary '" + name + "' has no key yet: assign " + name +
                                 "[key] = value before looping over its keys");
    if (n.keyword == Keyword::In && *d.key != FilterKind::String)
      fail(n.child(0).range, "'string " + quote_source(n.name) + " in " + name +
                                 "' needs a dictionary of string keys; " + name + "'s keys are " +
                                 std::string(filter_kind_name(*d.key)) + " values");
    n.slot = bind(n, *d.key);
    check(n.children[1]);
    n.filter = FilterKind::Logical;
    return n.filter;
  }

  FilterKind kind_of(Node& n) {
    switch (n.kind) {
      case NodeKind::Query:
      case NodeKind::Block: return n.children.back()->filter;
      case NodeKind::Designator: return FilterKind::Set;
      case NodeKind::Number: return FilterKind::Numeric;
      case NodeKind::String: return FilterKind::String;
      case NodeKind::Keyword: return keyword(n);
      case NodeKind::Assign: return assign(n);
      case NodeKind::PieceAssign:
        require(n.child(0), FilterKind::Set, "square set after '" + quote_source(n.name) + " ='");
        n.slot = bind(n, FilterKind::Set, true);
        return FilterKind::Logical;
      case NodeKind::PieceId: return sets(n, after(n), FilterKind::Numeric);
      case NodeKind::Not:
      case NodeKind::And:
      case NodeKind::Or: return FilterKind::Logical;
      case NodeKind::In:  // "abc" in s: whether s holds the text
        return strings(n) ? FilterKind::Logical : set_operator(n, quoted(Keyword::In));
      case NodeKind::Compare:  // strings compare by their bytes; the value is the left one
        return strings(n) ? FilterKind::String : compare(n);
      case NodeKind::Arith: return strings(n) ? concatenation(n) : arithmetic(n);
      case NodeKind::Negate: return numeric_args(n, "after '-'");
      case NodeKind::Abs: return numeric_args(n, after(n));
      case NodeKind::Max:
      case NodeKind::Min: return numeric_args(n, inside(n));
      case NodeKind::Union: return set_operator(n, "'|'");
      case NodeKind::Intersect: return positions(n) ? FilterKind::Set : set_operator(n, "'&'");
      case NodeKind::Attacks:
      case NodeKind::AttackedBy: return set_operator(n, quoted(keyword_of(n)));
      case NodeKind::Complement: return sets(n, "after '~'", FilterKind::Set);
      case NodeKind::Count:  // #D: the number of entries of a dictionary
        if (n.child(0).kind == NodeKind::Dictionary) return FilterKind::Numeric;
        return n.child(0).filter == FilterKind::String ? FilterKind::Numeric
                                                       : sets(n, "after '#'", FilterKind::Numeric);
      case NodeKind::AttackChain: return chain(n);
      case NodeKind::If: return if_kind(n);
      case NodeKind::Repeat:
      case NodeKind::While: return FilterKind::Logical;
      case NodeKind::Sort: add_sort_key(n); return sort(n);
      case NodeKind::Pin: return pin(n);
      case NodeKind::Ray:
      case NodeKind::XRay: check_ray_length(n); return sets(n, inside(n), FilterKind::Set);
      case NodeKind::Between: return sets(n, inside(n), FilterKind::Set);
      case NodeKind::Power: return sets(n, after(n), FilterKind::Numeric);
      case NodeKind::Distance:
        return positions(n) ? FilterKind::Numeric : sets(n, inside(n), FilterKind::Numeric);
      case NodeKind::Lca:
        for (const NodePtr& c : n.children) require(*c, FilterKind::Position, "position " + inside(n));
        return FilterKind::Position;
      case NodeKind::Echo:
        return n.child(2).filter == FilterKind::Numeric ? FilterKind::Numeric : FilterKind::Logical;
      case NodeKind::ConsecutiveMoves: return FilterKind::Numeric;
      case NodeKind::Light:
      case NodeKind::Dark: return sets(n, after(n), FilterKind::Set);
      case NodeKind::SquareFact: return sets(n, after(n), keyword_info(n.keyword).kind);
      case NodeKind::MakeSquare: return make_square(n);
      case NodeKind::Sqrt: return numeric_args(n, after(n));
      case NodeKind::Binding: return binding(n);
      case NodeKind::Assert: return FilterKind::Logical;
      case NodeKind::Dictionary: dictionary(n); return FilterKind::Logical;
      case NodeKind::DictEntry: return dictionary_entry(n);
      case NodeKind::DictAssign: dictionary_assign(n); return FilterKind::Logical;
      case NodeKind::DictUnbind: dictionary_unbind(n); return FilterKind::Logical;
      case NodeKind::Vector:
        require(n.child(0), FilterKind::Set, "square set " + after(n));
        for (size_t i = 1; i < n.children.size(); ++i)
          require(n.child(i), FilterKind::Numeric, "number of steps " + after(n));
        return FilterKind::Set;
      case NodeKind::Transform: return n.has(FlagCount) ? FilterKind::Numeric : n.child(0).filter;
      case NodeKind::NoTransform: return n.child(0).filter;
      case NodeKind::Fen: return n.name.empty() ? FilterKind::String : FilterKind::Logical;
      case NodeKind::Message: return n.keyword == Keyword::Str ? FilterKind::String : FilterKind::Logical;
      case NodeKind::Move: return move(n);
      case NodeKind::PlayedMove: return played_move(n);
      case NodeKind::Child:
        if (!n.children.empty()) require(n.child(0), FilterKind::Numeric, "number after 'child('");
        return FilterKind::Position;
      case NodeKind::Find: return n.has(FlagCount) ? FilterKind::Numeric : FilterKind::Position;
      case NodeKind::PositionAt:
        require(n.child(0), FilterKind::Numeric, "number after 'position'");
        return FilterKind::Position;
      case NodeKind::WithPosition:
        require(n.child(0), FilterKind::Position, "position filter (parent, child, find ...) before ':'");
        return n.child(1).filter;
      case NodeKind::Header: return header(n);
      case NodeKind::HhdbAward: return FilterKind::Numeric;
      case NodeKind::SetTag:
        require(n.child(0), FilterKind::String,
                "a string, the tag's value, after 'settag(\"" + n.name + "\"'");
        return FilterKind::Logical;
      case NodeKind::GameText:
      case NodeKind::GroupRef: return FilterKind::String;
      case NodeKind::Elo: return FilterKind::Numeric;
      case NodeKind::StringMatch:
        require(n.child(0), FilterKind::String, "string before '~~'");
        return FilterKind::String;
      case NodeKind::Substring: return substring(n);
      case NodeKind::IndexOf:
        require(n.child(0), FilterKind::String, "string " + inside(n));
        require(n.child(1), FilterKind::String, "string " + inside(n));
        return FilterKind::Numeric;
      case NodeKind::Convert:
        require(n.child(0), FilterKind::String, "string " + after(n));
        return n.keyword == Keyword::Int ? FilterKind::Numeric : FilterKind::String;
      case NodeKind::Path:
      case NodeKind::Line: return n.has(FlagLastPosition) ? FilterKind::Position : FilterKind::Numeric;
      case NodeKind::PathParam:
        require(n.child(0), n.keyword == Keyword::Focus ? FilterKind::Set : FilterKind::Numeric,
                n.keyword == Keyword::Focus ? "square set after 'focus'" : "numeric filter after 'max'");
        return FilterKind::Logical;
      case NodeKind::PathDash:
      case NodeKind::Dash: return dash(n);
      case NodeKind::Imagine: return imagine(n);
      case NodeKind::ImagineSpec: return imagine_spec(n);
      default: return FilterKind::Logical;
    }
  }

  // A filter named by a keyword: its kind comes from the keyword table.
  FilterKind keyword(const Node& n) {
    const KeywordInfo& k = keyword_info(n.keyword);
    if (k.use != KeywordUse::Filter) fail(n.range, "expected a filter, found " + quoted(n.keyword));
    if (n.keyword == Keyword::LastGameNumber) info_.games.last_game_number = true;
    return k.kind;
  }

  void use_tables(const Node& n) {
    if (!info_.uses_tables) info_.table_use = n.range;
    info_.uses_tables = true;
  }

  // A dictionary's declaration (keyword Local or FlagPersistent: the parser checked that every
  // declaration of a name agrees) or use; its index in n.slot.
  DictionaryInfo& dictionary(Node& n) {
    const auto known = dictionaries_.find(n.name);
    if (known != dictionaries_.end()) {
      n.slot = known->second;
      return info_.dictionaries[static_cast<size_t>(n.slot)];
    }
    if (variables_.count(n.name))
      fail(n.range, "'" + quote_source(n.name) + "' is a variable; it cannot be declared a dictionary");
    n.slot = static_cast<int>(info_.dictionaries.size());
    dictionaries_.emplace(n.name, n.slot);
    info_.dictionaries.push_back({n.name, n.has(FlagPersistent), {}, {}});
    return info_.dictionaries.back();
  }

  // What a dictionary holds, checked at its first key and value and kept: a square set, a number, a
  // string, or (local dictionaries only, as in CQL) a position. `role` is "key" or "value".
  void dictionary_kind(const Node& n, DictionaryInfo& d, std::optional<FilterKind>& kind, const Node& e,
                       std::string_view role) const {
    const std::string what = std::string(role) + " of dictionary '" + quote_source(n.name) + "'";
    if (e.filter == FilterKind::Logical)
      fail(e.range, "expected a square set, a number, a string or a position as the " + what);
    if (e.filter == FilterKind::Position && d.persistent)
      fail(e.range,
           "a position cannot be a " + what + ", which is persistent (declare it 'local dictionary')");
    if (!kind) kind = e.filter;
    if (*kind != e.filter)
      fail(e.range, "the " + what + " is a " + std::string(filter_kind_name(e.filter)) + " value; its " +
                        std::string(role) + "s are " + std::string(filter_kind_name(*kind)) + " values");
  }

  // D[k]: whether D has the key k, and its value there (Logical until a value is assigned before).
  FilterKind dictionary_entry(Node& n) {
    DictionaryInfo& d = dictionary(n);
    dictionary_kind(n, d, d.key, n.child(0), "key");
    return d.value.value_or(FilterKind::Logical);
  }

  void dictionary_assign(Node& n) {
    DictionaryInfo& d = dictionary(n);
    dictionary_kind(n, d, d.key, n.child(0), "key");
    dictionary_kind(n, d, d.value, n.child(1), "value");
  }

  // unbind D, unbind D[k]: as CQL, k only once the dictionary's keys have a kind.
  void dictionary_unbind(Node& n) {
    DictionaryInfo& d = dictionary(n);
    if (n.children.empty()) return;
    if (!d.key)
      fail(n.child(0).range, "dictionary '" + quote_source(n.name) + "' has no key before this 'unbind'");
    dictionary_kind(n, d, d.key, n.child(0), "key");
  }

  // persistent x = e, persistent x += e: the first declares x with e's kind (x += e reads x, so x
  // exists before e is added to it, at 0, "" or no square, as in CQL).
  FilterKind persistent_assign(Node& n) {
    const auto known = variables_.find(n.name);
    const bool declared = known != variables_.end();
    if (declared && !info_.variables[static_cast<size_t>(known->second)].persistent)
      fail(n.range, "variable '" + quote_source(n.name) + "' was first assigned without 'persistent'");
    Node& value = *n.children[0];
    const bool op_assign = (value.kind == NodeKind::Arith || value.kind == NodeKind::Union ||
                            value.kind == NodeKind::Intersect) &&
                           value.child(0).kind == NodeKind::Variable && value.child(0).name == n.name;
    if (op_assign && !declared) {
      check(value.children[1]);
      const FilterKind kind = value.kind == NodeKind::Arith ? value.child(1).filter : FilterKind::Set;
      if (kind == FilterKind::Logical || kind == FilterKind::Position)
        fail(value.child(1).range,
             "expected a square set, a number or a string to add to '" + quote_source(n.name) + "'");
      info_.variables[static_cast<size_t>(bind(n, kind))].persistent = true;
      check(value.children[0]);
      value.filter = kind_of(value);
    } else {
      check(n.children[0]);
    }
    n.filter = assign(n);
    VariableInfo& v = info_.variables[static_cast<size_t>(n.slot)];
    if (v.kind == FilterKind::Position)
      fail(n.range, "a position cannot be kept in a persistent variable ('" + quote_source(n.name) + "')");
    v.persistent = true;
    v.quiet = v.quiet || n.has(FlagQuiet);
    return n.filter;
  }

  FilterKind assign(Node& n) {
    const FilterKind k = n.child(0).filter;
    if (k == FilterKind::Logical)
      fail(n.child(0).range, "expected a square set, a number, a string or a position to assign to '" +
                                 quote_source(n.name) + "'");
    n.slot = bind(n, k);
    if (n.has(FlagAtomic)) info_.variables[static_cast<size_t>(n.slot)].atomic = true;
    return k;
  }

  // The operands of an operator on sets (in, |, &, attacks, ->): "square set before 'op'" for
  // the first, "after" for the others.
  static FilterKind set_operator(const Node& n, const std::string& op) {
    for (size_t i = 0; i < n.children.size(); ++i)
      require(n.child(i), FilterKind::Set, "square set " + std::string(i == 0 ? "before " : "after ") + op);
    return n.kind == NodeKind::In ? FilterKind::Logical : FilterKind::Set;
  }

  FilterKind sets(const Node& n, const std::string& where, FilterKind result) {
    require_sets(n, where);
    return result;
  }

  // makesquare (file rank) or makesquare name.
  FilterKind make_square(const Node& n) {
    if (n.children.size() == 2) {
      numeric_args(n, inside(n));
      return FilterKind::Set;
    }
    require(n.child(0), FilterKind::String,
            "a square's name (a string) or '(' and a file and a rank " + after(n));
    return FilterKind::Set;
  }

  FilterKind numeric_args(const Node& n, const std::string& where) {
    for (const NodePtr& c : n.children) require(*c, FilterKind::Numeric, "numeric filter " + where);
    return FilterKind::Numeric;
  }

  static FilterKind chain(const Node& n) {
    check_ray_length(n);
    return set_operator(n, "'" + std::string(operator_text(n.arrow)) + "'");
  }

  static void check_ray_length(const Node& n) {
    if (n.children.size() > MaxRaySets)
      fail(n.range, "at most " + std::to_string(MaxRaySets) + " square sets in a ray");
  }

  // Whether an operator's operands are strings: when one is, both must be.
  static bool strings(const Node& n) {
    const bool left = n.child(0).filter == FilterKind::String;
    const bool right = n.child(1).filter == FilterKind::String;
    if (left == right) return left;
    const Node& other = left ? n.child(1) : n.child(0);
    fail(other.range, std::string("expected a string ") + (left ? "after " : "before ") + operator_of(n));
  }

  static std::string operator_of(const Node& n) {
    switch (n.kind) {
      case NodeKind::Compare: return "'" + std::string(operator_text(n.compare)) + "'";
      case NodeKind::Arith: return "'" + std::string(operator_text(n.arith)) + "'";
      default: return quoted(keyword_of(n));
    }
  }

  static FilterKind concatenation(const Node& n) {
    if (n.arith != ArithOp::Add)
      fail(n.range, operator_of(n) + " takes numbers; strings are joined with '+'");
    return FilterKind::String;
  }

  FilterKind substring(const Node& n) {
    require(n.child(0), FilterKind::String, "string before '['");
    for (size_t i = 1; i < n.children.size(); ++i)
      require(n.child(i), FilterKind::Numeric, "number in '[...]'");
    return FilterKind::String;
  }

  static bool countable(FilterKind k) { return k == FilterKind::Set || k == FilterKind::Numeric; }

  // Whether the operands of n are two positions (p & q, distance(p q), p < q): when one is, both
  // must be.
  static bool positions(const Node& n) {
    const auto is_position = [](const NodePtr& c) { return c->filter == FilterKind::Position; };
    const auto count = std::count_if(n.children.begin(), n.children.end(), is_position);
    if (count == 0) return false;
    const std::string op = n.kind == NodeKind::Intersect ? "'&'" : operator_of(n);
    if (count == 2 && n.children.size() == 2) return true;
    for (const NodePtr& c : n.children)
      if (!is_position(c)) fail(c->range, "expected a position with " + op + ", as the other operand");
    fail(n.range, op + " takes two positions");
  }

  static FilterKind compare(const Node& n) {
    const FilterKind l = n.child(0).filter;
    const FilterKind r = n.child(1).filter;
    const std::string op = "'" + std::string(operator_text(n.compare)) + "'";
    if (positions(n)) return FilterKind::Position;
    if (n.compare >= CompareOp::Precedes) fail(n.range, op + " compares positions");
    if (!countable(l)) fail(n.child(0).range, "expected a number or square set before " + op);
    if (!countable(r)) fail(n.child(1).range, "expected a number or square set after " + op);
    if (l == FilterKind::Set && r == FilterKind::Set) {
      if (n.compare != CompareOp::Eq && n.compare != CompareOp::Ne)
        fail(n.range, op + " compares numbers, not square sets (count them with '#')");
      return FilterKind::Logical;
    }
    return FilterKind::Numeric;
  }

  static FilterKind arithmetic(const Node& n) {
    const std::string op = "'" + std::string(operator_text(n.arith)) + "'";
    require(n.child(0), FilterKind::Numeric, "numeric filter before " + op);
    require(n.child(1), FilterKind::Numeric, "numeric filter after " + op);
    return FilterKind::Numeric;
  }

  static FilterKind if_kind(const Node& n) {
    if (n.children.size() < 3) return FilterKind::Logical;
    const FilterKind a = n.child(1).filter;
    return a == n.child(2).filter && (countable(a) || a == FilterKind::String) ? a : FilterKind::Logical;
  }

  // Gives a sort filter its key (one per place in the source, however often a function call
  // copies it); CQL numbers those without a label <sort-id-1>, <sort-id-2>, ...
  void add_sort_key(Node& n) {
    const auto same = [&](const std::pair<SourceRange, size_t>& s) {
      return s.first.line == n.range.line && s.first.column == n.range.column;
    };
    const auto known = std::find_if(sort_places_.begin(), sort_places_.end(), same);
    if (known != sort_places_.end()) {
      n.slot = static_cast<int>(known->second);
      return;
    }
    std::vector<SortKey>& keys = info_.games.sorts;
    std::string label = n.name;
    if (label.empty()) label = "<sort-id-" + std::to_string(++unlabelled_sorts_) + ">";
    n.slot = static_cast<int>(keys.size());
    sort_places_.emplace_back(n.range, keys.size());
    keys.push_back({std::move(label), n.has(FlagMin)});
  }

  // sort of a number, or of a set (its number of squares, as CQL counts a set).
  static FilterKind sort(const Node& n) {
    if (n.child(0).filter != FilterKind::Set)
      require(n.child(0), FilterKind::Numeric, "numeric filter " + after(n));
    return FilterKind::Numeric;
  }

  static FilterKind pin(const Node& n) {
    for (size_t i = 0; i < n.children.size(); ++i)
      require(n.child(i), FilterKind::Set,
              "square set after " + quoted(spelling(PinRoleWords, n.pin_roles[i])));
    return FilterKind::Set;
  }

  static FilterKind move(const Node& n) {
    for (size_t i = 0; i < n.children.size(); ++i) {
      const MoveRole role = n.move_roles[i];
      if (role == MoveRole::Body) continue;
      const std::string word = quoted(spelling(MoveRoleWords, role));
      require(n.child(i), FilterKind::Set, "square set after " + word);
      if (role == MoveRole::Promote && n.child(i).kind != NodeKind::Designator)
        fail(n.child(i).range, "expected a piece designator after " + word);
    }
    if (n.has(FlagCount)) return FilterKind::Numeric;
    return n.has(FlagAll) ? FilterKind::Logical : FilterKind::Set;
  }

  // A dash: its sets; outside path, the value of its last target (none without one).
  static FilterKind dash(const Node& n) {
    for (size_t i = 0; i < n.children.size(); ++i)
      if (n.move_roles[i] == MoveRole::Promote)
        require(n.child(i), FilterKind::String, "string of men's letters after '='");
      else if (n.move_roles[i] != MoveRole::Body)
        require(
            n.child(i), FilterKind::Set,
            "square set " + std::string(n.move_roles[i] == MoveRole::From ? "before" : "after") + " '--'");
    if (n.kind == NodeKind::PathDash || n.move_roles.empty() || n.move_roles.back() != MoveRole::Body)
      return FilterKind::Logical;
    return n.children.back()->filter;
  }

  static FilterKind played_move(const Node& n) {
    for (size_t i = 0; i < n.children.size(); ++i)
      if (n.move_roles[i] != MoveRole::Body)
        require(n.child(i), FilterKind::Set,
                "square set after " + quoted(spelling(MoveRoleWords, n.move_roles[i])));
    // The squares of the first parameter when it is from, to or capture (CQL's isfrom, isto,
    // iscapture); else whether a move fits.
    const bool squares = !n.move_roles.empty() &&
                         (n.move_roles.front() == MoveRole::From || n.move_roles.front() == MoveRole::To ||
                          n.move_roles.front() == MoveRole::Capture);
    return squares ? FilterKind::Set : FilterKind::Logical;
  }

  FilterKind header(const Node& n) {
    GameSelection& g = info_.games;
    g.header = true;
    for (const NodePtr& f : n.children) {
      const auto range = [&] {
        GameSelection::Range r{f->child(0).number, f->child(0).number};
        if (f->children.size() > 1) r.high = f->child(1).number;
        return r;
      };
      switch (f->keyword) {
        case Keyword::Input: g.input = f->name; break;
        case Keyword::Output: g.output = f->name; break;
        case Keyword::Result: g.result = f->name; break;
        case Keyword::GameNumber: g.gamenumber = range(); break;
        case Keyword::MatchCount:
          g.matchcount = range();
          g.sort_matchcount = f->has(FlagMin);
          break;
        case Keyword::Variations: g.variations = true; break;
        case Keyword::Quiet: g.quiet = true; break;
        case Keyword::Silent: g.silent = true; break;
        default: break;  // matchstring
      }
    }
    return FilterKind::Logical;
  }

  // unbind names a variable assigned before it (CQL's order); isbound any name (run()).
  FilterKind binding(Node& n) {
    if (n.keyword != Keyword::Unbind) {
      bound_tests_.push_back(&n);
      return FilterKind::Logical;
    }
    const auto v = variables_.find(n.name);
    if (v == variables_.end())
      fail(n.range, "unknown variable '" + quote_source(n.name) + "' after 'unbind'");
    n.slot = v->second;
    return FilterKind::Logical;
  }

  static FilterKind imagine(const Node& n) { return n.children.back()->filter; }

  static FilterKind imagine_spec(const Node& n) {
    switch (n.imagine_step) {
      case ImagineStep::Piece:
        if (n.child(0).squares != ~Bitboard{0} || popcount(n.child(0).pieces) != 1)
          fail(n.child(0).range, "expected one kind of man (like Q, n or _) without squares " + after(n));
        require(n.child(1), FilterKind::Set, "square set after '-->'");
        break;
      case ImagineStep::Swap:
        require(n.child(0), FilterKind::Set, "square set " + after(n));
        require(n.child(1), FilterKind::Set, "square set " + after(n));
        break;
      case ImagineStep::SideToMove: break;
    }
    return FilterKind::Logical;
  }
};

}  // namespace

Expected<SemaInfo, QueryError> analyze(Node& root) {
  try {
    return Sema().run(root);
  } catch (SemaFailure& f) {
    return unexpected(std::move(f.error));
  }
}

}  // namespace egtb::query
