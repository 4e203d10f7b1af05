#include "query/parser.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <set>

#include "pgn/game.hpp"
#include "query/cql_words.hpp"
#include "query/hhdb.hpp"

namespace egtb::query {

namespace {

// Thrown inside the parser only; parse() turns it into an error value.
struct ParseFailure {
  QueryError error;
};

// "'white', 'black' or 'reverse'": the spellings of keywords for error messages, `last` before the
// last one.
template <size_t N>
std::string one_of(const std::array<Keyword, N>& words, std::string_view last) {
  std::string out = quoted(words[0]);
  for (size_t i = 1; i < N; ++i) out += std::string(i + 1 < N ? ", " : last) + quoted(words[i]);
  return out;
}

class Parser {
public:
  explicit Parser(const Tokens& tokens) : tokens_(tokens) {}

  NodePtr query() {
    auto root = std::make_unique<Node>(NodeKind::Query, peek().range);
    if (at_keyword(Keyword::Cql)) root->children.push_back(header());
    while (!at(TokenKind::End)) root->children.push_back(filter());
    if (!root->children.empty()) root->range = root->children.front()->range.to(root->children.back()->range);
    return root;
  }

private:
  const Tokens& tokens_;
  size_t at_ = 0;
  int depth_ = 0;
  std::set<std::string, std::less<>> functions_;
  // The names bound to positions so far (echo's, and x = a position filter): only those take
  // ':' after them ("source:check"), as CQL reads a position variable.
  std::set<std::string, std::less<>> position_variables_;
  // The parameters of the function being read: any of them may stand for a position and take ':'
  // ("function S(Other) { from == Other:from }"); sema checks the argument of each call.
  std::set<std::string, std::less<>> parameters_;
  // The names given a number so far (x = 1, x = rank K - 1 ...): one may stand for a direction
  // word's count ("up DeltaRank K"), as CQL reads a range.
  std::set<std::string, std::less<>> numeric_variables_;
  // The dictionaries declared so far, and whether each is persistent: CQL reads a name as a
  // dictionary's from its declaration on ("dictionary D ... D[k] = v").
  std::map<std::string, bool, std::less<>> dictionaries_;
  // The sequence filter whose constituents the parser is reading at their top level (not inside
  // braces), where '+' and '*' may repeat a constituent rather than add or multiply: in a path
  // always, as CQL's lexer reads them there; in a line when what follows ends a constituent
  // (wildcard_at), as CQL's parser reads them.
  enum class Sequence : uint8_t { None, Path, Line };
  Sequence sequence_ = Sequence::None;

  class SequenceLevel {
  public:
    SequenceLevel(Parser& p, Sequence level) : p_(p), old_(p.sequence_) { p.sequence_ = level; }
    ~SequenceLevel() { p_.sequence_ = old_; }
    SequenceLevel(const SequenceLevel&) = delete;
    SequenceLevel& operator=(const SequenceLevel&) = delete;

  private:
    Parser& p_;
    Sequence old_;
  };

  // Counts nesting on entry to every recursive production, and each further operand of a chain
  // that nests its nodes ("1 + 2 + 3" is (+ (+ 1 2) 3)): every level of the tree is counted.
  class DepthGuard {
  public:
    explicit DepthGuard(Parser& p, int levels = 1) : p_(p) {
      for (int i = 0; i < levels; ++i) deeper();
    }
    ~DepthGuard() { p_.depth_ -= levels_; }
    DepthGuard(const DepthGuard&) = delete;
    DepthGuard& operator=(const DepthGuard&) = delete;

    // One level more, failing at the current token beyond MaxParseDepth.
    void deeper() {
      ++levels_;
      if (++p_.depth_ > MaxParseDepth)
        throw ParseFailure{{p_.peek().range, "query nested too deeply (more than " +
                                                 std::to_string(MaxParseDepth) + " levels)"}};
    }

  private:
    Parser& p_;
    int levels_ = 0;
  };

  // ---- token access

  [[nodiscard]] const Token& peek(size_t ahead = 0) const {
    return tokens_[std::min(at_ + ahead, tokens_.size() - 1)];
  }
  // At a token of kind k (and, for a keyword, the keyword `word`).
  [[nodiscard]] bool at(TokenKind k, Keyword word = Keyword::None) const {
    return peek().kind == k && (word == Keyword::None || peek().keyword == word);
  }
  [[nodiscard]] bool at_keyword(Keyword k) const { return at(TokenKind::Keyword, k); }
  const Token& take() {
    const Token& t = peek();
    if (at_ < tokens_.size() - 1) ++at_;
    return t;
  }
  bool accept(TokenKind k, Keyword word = Keyword::None) {
    if (!at(k, word)) return false;
    take();
    return true;
  }
  bool accept_keyword(Keyword k) { return accept(TokenKind::Keyword, k); }
  [[nodiscard]] const SourceRange& previous_range() const { return tokens_[at_ == 0 ? 0 : at_ - 1].range; }

  [[noreturn]] void fail(const SourceRange& r, std::string message) const {
    throw ParseFailure{{r, std::move(message)}};
  }
  [[noreturn]] void fail_expected(std::string_view what) const {
    const Token& t = peek();
    const std::string found = t.kind == TokenKind::End ? "end of query" : "'" + quote_source(t.text) + "'";
    fail(t.range, "expected " + std::string(what) + ", found " + found);
  }
  const Token& expect(TokenKind k, std::string_view what) {
    if (!at(k)) fail_expected(what);
    return take();
  }

  static NodePtr make(NodeKind kind, SourceRange r, std::string name = {}) {
    auto n = std::make_unique<Node>(kind, r);
    n->name = std::move(name);
    return n;
  }
  static NodePtr binary(NodeKind kind, NodePtr l, NodePtr r) {
    auto n = make(kind, l->range.to(r->range));
    n->children.push_back(std::move(l));
    n->children.push_back(std::move(r));
    return n;
  }
  // Ends a node's range at the last token consumed.
  NodePtr finish(NodePtr n) {
    n->range = n->range.to(previous_range());
    return n;
  }

  // ---- precedence levels, loosest first

  // Not a level of its own: every way back here passes through prefix(), which counts it.
  NodePtr filter() { return associative(NodeKind::Or, &Parser::and_level, TokenKind::Keyword, Keyword::Or); }

  // The right operand of an operator, with "expected a filter after 'op'" when missing; `op` is
  // the operator quoted.
  NodePtr operand(NodePtr (Parser::*level)(), std::string_view op) {
    if (!starts_filter()) fail_expected("a filter after " + std::string(op));
    return (this->*level)();
  }
  NodePtr operand_after(NodePtr (Parser::*level)(), std::string_view op) {
    return operand(level, "'" + std::string(op) + "'");
  }

  // "a op b op c" for an associative operator (or, and, |, &): one node of `kind` with every
  // operand as a child, so that a chain of any length is one level deep; the first operand
  // alone when there is no operator.
  NodePtr associative(NodeKind kind, NodePtr (Parser::*level)(), TokenKind token,
                      Keyword word = Keyword::None) {
    NodePtr first = (this->*level)();
    if (!accept(token, word)) return first;
    const std::string op =
        word == Keyword::None ? "'" + std::string(operator_spelling(token)) + "'" : quoted(word);
    auto n = make(kind, first->range);
    n->children.push_back(std::move(first));
    do n->children.push_back(operand(level, op));
    while (accept(token, word));
    n->range = n->range.to(n->children.back()->range);
    return n;
  }

  NodePtr and_level() {
    return associative(NodeKind::And, &Parser::in_level, TokenKind::Keyword, Keyword::And);
  }

  NodePtr in_level() {
    NodePtr left = relation_level();
    if (!accept_keyword(Keyword::In)) return left;
    return binary(NodeKind::In, std::move(left), operand(&Parser::set_level, quoted(Keyword::In)));
  }

  NodePtr relation_level() {
    NodePtr left = additive_level();
    const std::optional<CompareOp> op = spelled<CompareOp>(CompareTokens, peek().kind);
    if (!op) return left;
    take();
    const DepthGuard guard(*this);  // "a == b == c" nests: (== a (== b c))
    auto n = binary(NodeKind::Compare, std::move(left),
                    operand_after(&Parser::relation_level, operator_text(*op)));
    n->compare = *op;
    return n;
  }

  // s ~~ "pattern": s matched against a regular expression (a string literal, as in CQL).
  NodePtr string_match(NodePtr target) {
    take();
    const Token& pattern = expect(TokenKind::String, "a quoted regular expression after '~~'");
    auto n = make(NodeKind::StringMatch, target->range.to(pattern.range), pattern.value);
    n->children.push_back(std::move(target));
    return n;
  }

  // The arithmetic operator at the current token, if it is one of `ops`.
  [[nodiscard]] std::optional<ArithOp> at_arith(std::initializer_list<ArithOp> ops) const {
    const std::optional<ArithOp> op = spelled<ArithOp>(ArithTokens, peek().kind);
    if (!op || std::find(ops.begin(), ops.end(), *op) == ops.end()) return std::nullopt;
    return op;
  }

  NodePtr arithmetic(NodePtr left, ArithOp op, NodePtr (Parser::*level)()) {
    take();
    auto n = binary(NodeKind::Arith, std::move(left), operand_after(level, operator_text(op)));
    n->arith = op;
    return n;
  }

  NodePtr additive_level() {
    NodePtr left = multiplicative_level();
    DepthGuard chain(*this, 0);
    while (const std::optional<ArithOp> op = at_arith({ArithOp::Add, ArithOp::Subtract})) {
      if (*op == ArithOp::Add && repeats_here()) break;
      chain.deeper();
      left = arithmetic(std::move(left), *op, &Parser::multiplicative_level);
    }
    return left;
  }

  NodePtr multiplicative_level() {
    NodePtr left = left_tied_dash(set_level());
    DepthGuard chain(*this, 0);
    while (const std::optional<ArithOp> op =
               at_arith({ArithOp::Multiply, ArithOp::Divide, ArithOp::Modulo})) {
      if (*op == ArithOp::Multiply && repeats_here()) break;
      chain.deeper();
      left = arithmetic(std::move(left), *op, &Parser::set_level);
    }
    return left;
  }

  // Attack arrows: a chain of one arrow direction, "a -> b -> c".
  NodePtr set_level() {
    NodePtr first = union_level();
    const std::optional<Arrow> arrow = spelled<Arrow>(ArrowTokens, peek().kind);
    if (!arrow) return first;
    auto chain = make(NodeKind::AttackChain, first->range);
    chain->arrow = *arrow;
    chain->children.push_back(std::move(first));
    while (accept(spelling(ArrowTokens, *arrow)))
      chain->children.push_back(operand_after(&Parser::union_level, operator_text(*arrow)));
    chain->range = chain->range.to(chain->children.back()->range);
    return chain;
  }

  NodePtr union_level() { return associative(NodeKind::Union, &Parser::intersection_level, TokenKind::Bar); }

  NodePtr intersection_level() {
    return associative(NodeKind::Intersect, &Parser::attack_level, TokenKind::Amp);
  }

  NodePtr attack_level() {
    NodePtr left = prefix();
    DepthGuard chain(*this, 0);
    while (at_keyword(Keyword::Attacks) || at_keyword(Keyword::AttackedBy)) {
      chain.deeper();
      const Token& op = take();
      const NodeKind kind = op.keyword == Keyword::Attacks ? NodeKind::Attacks : NodeKind::AttackedBy;
      if (!starts_filter()) fail_expected("square set after '" + std::string(op.text) + "'");
      left = binary(kind, std::move(left), prefix());
    }
    return left;
  }

  // ---- prefix filters

  [[nodiscard]] bool starts_filter() const {
    switch (peek().kind) {
      case TokenKind::Keyword: {
        const KeywordUse use = keyword_info(peek().keyword).use;
        return use == KeywordUse::Filter || use == KeywordUse::Compound;
      }
      case TokenKind::Identifier:
      case TokenKind::Number:
      case TokenKind::String:
      case TokenKind::PieceDesignator:
      case TokenKind::LParen:
      case TokenKind::LBrace:
      case TokenKind::Tilde:
      case TokenKind::Hash:
      case TokenKind::GroupRef:
      case TokenKind::Dash:
      case TokenKind::CaptureDash:
      case TokenKind::LineComment:
      case TokenKind::Minus: return true;
      default: return false;
    }
  }

  // A filter and the indexes and matches after it (x[0], player white[-3:], event ~~ "Open"), as
  // CQL reads them: tighter than every operator but ':'.
  NodePtr prefix() {
    DepthGuard guard(*this);
    NodePtr n = primary();
    DepthGuard chain(*this, 0);
    while (at(TokenKind::LBracket) || at(TokenKind::Match)) {
      chain.deeper();
      n = at(TokenKind::Match) ? string_match(std::move(n)) : index(std::move(n));
    }
    return n;
  }

  // [i] or [a:b] (either bound may be left out) after `target`.
  NodePtr index(NodePtr target) {
    const SourceRange open = take().range;
    auto n = make(NodeKind::Substring, target->range);
    n->children.push_back(std::move(target));
    if (at(TokenKind::Colon)) {
      auto zero = make(NodeKind::Number, open);
      n->children.push_back(std::move(zero));
    } else {
      n->children.push_back(operand(&Parser::additive_level, "'['"));
    }
    if (accept(TokenKind::Colon)) {
      n->flags |= FlagRange;
      if (!at(TokenKind::RBracket)) n->children.push_back(operand(&Parser::additive_level, "':'"));
    }
    expect(TokenKind::RBracket,
           "']' to close the '[' at " + std::to_string(open.line) + ":" + std::to_string(open.column));
    return finish(std::move(n));
  }

  NodePtr primary() {
    const Token& t = peek();
    if (at_dash()) return dash_filter();
    switch (t.kind) {
      case TokenKind::Number: {
        auto n = make(NodeKind::Number, take().range);
        n->number = t.number;
        return n;
      }
      case TokenKind::String: return make(NodeKind::String, take().range, t.value);
      case TokenKind::GroupRef: {
        auto n = make(NodeKind::GroupRef, take().range);
        n->number = t.number;
        return n;
      }
      case TokenKind::PieceDesignator: {
        if (at_piece_declaration()) {
          take();
          if (peek(1).kind == TokenKind::Assign) return piece_assign(take());
          return element_loop(take(), NodeKind::PieceLoop);
        }
        auto n = make(NodeKind::Designator, take().range, std::string(t.text));
        n->pieces = t.pieces;
        n->squares = t.squares;
        return n;
      }
      case TokenKind::LParen: return parenthesized();
      case TokenKind::LBrace: return block();
      case TokenKind::Tilde: return unary(NodeKind::Complement, &Parser::attack_level);
      case TokenKind::Hash: return unary(NodeKind::Count, &Parser::set_level);
      case TokenKind::Minus: return unary(NodeKind::Negate, &Parser::prefix);
      case TokenKind::Identifier: return identifier();
      case TokenKind::Keyword: return keyword();
      case TokenKind::LineComment: return line_comment();
      default: fail_expected("a filter");
    }
  }

  // An operator or keyword and its one operand.
  NodePtr unary(NodeKind kind, NodePtr (Parser::*level)()) {
    const Token& op = take();
    auto n = make(kind, op.range);
    n->children.push_back(operand_after(level, op.text));
    return finish(std::move(n));
  }

  NodePtr parenthesized() {
    const SourceRange open = take().range;
    if (!starts_filter()) fail_expected("a filter after '('");
    NodePtr inner = filter();
    if (!at(TokenKind::RParen))
      fail_expected("')' to close the '(' at " + std::to_string(open.line) + ":" +
                    std::to_string(open.column));
    take();
    return inner;
  }

  NodePtr block() {
    const SourceRange open = take().range;
    const SequenceLevel level(*this, Sequence::None);
    auto n = make(NodeKind::Block, open);
    while (!at(TokenKind::RBrace)) {
      if (!starts_filter())
        fail_expected("a filter or '}' to close the '{' at " + std::to_string(open.line) + ":" +
                      std::to_string(open.column));
      n->children.push_back(filter());
    }
    take();
    if (n->children.empty()) fail(open.to(previous_range()), "empty '{}': expected a filter inside");
    return finish(std::move(n));
  }

  NodePtr identifier() {
    const Token& t = take();
    const std::string name = t.value;
    if (name == "string" && at(TokenKind::Identifier) && peek(1).kind == TokenKind::Keyword &&
        peek(1).keyword == Keyword::In && at_dictionary(2))
      return dictionary_loop(take(), Keyword::In);
    if (is_cql_reserved(name)) fail(t.range, unsupported_word_message(name));
    if (dictionaries_.count(name)) return dictionary_use(t);
    if (at(TokenKind::Element) && at_dictionary(1)) return dictionary_loop(t, Keyword::None);
    if (at(TokenKind::Element)) return element_loop(t, NodeKind::SquareLoop);
    if (accept(TokenKind::Assign)) {
      auto n = make(NodeKind::Assign, t.range, name);
      n->children.push_back(operand(&Parser::additive_level, "'='"));
      if (names_position(n->child(0))) position_variables_.insert(name);
      if (names_number(n->child(0))) numeric_variables_.insert(name);
      return finish(std::move(n));
    }
    if (at(TokenKind::OpAssign)) return op_assign(t);
    if (functions_.count(name) && at(TokenKind::LParen)) return call(t);
    auto n = make(NodeKind::Variable, t.range, name);
    if ((!position_variables_.count(name) && !parameters_.count(name)) || !accept(TokenKind::Colon)) return n;
    return binary(NodeKind::WithPosition, std::move(n), operand(&Parser::prefix, "':'"));
  }

  // dictionary D, persistent dictionary D (the same: CQL's dictionaries are persistent unless
  // local), local dictionary D: declares D, or names it again with the same persistence.
  NodePtr dictionary_declaration() {
    const Token& first = take();
    const bool local = first.keyword == Keyword::Local;
    if (first.keyword != Keyword::Dictionary && !accept_keyword(Keyword::Dictionary))
      fail_expected("'dictionary' after '" + std::string(first.text) +
                    "' (egtb has local and persistent dictionaries, not other local variables)");
    if (!at(TokenKind::Identifier)) fail_expected("the dictionary's name after 'dictionary'");
    const Token& name = take();
    if (is_cql_reserved(name.value)) fail(name.range, unsupported_word_message(name.value));
    const auto [known, fresh] = dictionaries_.emplace(name.value, !local);
    if (!fresh && known->second == local)
      fail(first.range.to(name.range), "dictionary '" + quote_source(name.value) + "' was declared " +
                                           (local ? "persistent" : "local") + " before");
    auto n = make(NodeKind::Dictionary, first.range, name.value);
    if (local) n->keyword = Keyword::Local;
    n->flags |= local ? 0 : FlagPersistent;
    return finish(std::move(n));
  }

  // D, D[k], D[k] = v for a dictionary D, and D[k]:f for a dictionary of positions.
  NodePtr dictionary_use(const Token& name) {
    if (!at(TokenKind::LBracket)) return make(NodeKind::Dictionary, name.range, name.value);
    auto n = make(NodeKind::DictEntry, name.range, name.value);
    n->children.push_back(dictionary_key());
    if (accept(TokenKind::Assign)) {
      n->kind = NodeKind::DictAssign;
      n->children.push_back(operand(&Parser::additive_level, "'" + name.value + "[...] ='"));
    }
    n = finish(std::move(n));
    if (n->kind == NodeKind::DictAssign || !accept(TokenKind::Colon)) return n;
    return binary(NodeKind::WithPosition, std::move(n), operand(&Parser::prefix, "':'"));  // D[k]:f
  }

  // Whether the token `ahead` names a dictionary as a whole (D, not D[k]): "x ∊ D" loops over D's
  // keys, "x ∊ D[1]" over the squares of D's value at 1 (as CQL's parser tells them).
  [[nodiscard]] bool at_dictionary(size_t ahead) const {
    return peek(ahead).kind == TokenKind::Identifier && dictionaries_.count(peek(ahead).value) &&
           peek(ahead + 1).kind != TokenKind::LBracket;
  }

  // x ∊ D body, string x in D body (form In): `name` is x's token, the current one the ∊ or 'in'.
  NodePtr dictionary_loop(const Token& name, Keyword form) {
    take();
    auto n = make(NodeKind::DictLoop, name.range, name.value);
    n->keyword = form;
    const Token& d = take();
    n->children.push_back(make(NodeKind::Dictionary, d.range, d.value));
    n->children.push_back(
        operand_after(&Parser::filter, quote_source(n->name) + " in " + quote_source(d.value)));
    return finish(std::move(n));
  }

  // [k] after a dictionary's name.
  NodePtr dictionary_key() {
    const SourceRange open = take().range;
    NodePtr key = operand(&Parser::additive_level, "'['");
    expect(TokenKind::RBracket,
           "']' to close the '[' at " + std::to_string(open.line) + ":" + std::to_string(open.column));
    return key;
  }

  // Whether a filter's value is a number, as far as its syntax tells (sema checks it).
  [[nodiscard]] bool names_number(const Node& n) const {
    switch (n.kind) {
      case NodeKind::Number:
      case NodeKind::Count:
      case NodeKind::Negate:
      case NodeKind::Abs:
      case NodeKind::Max:
      case NodeKind::Min:
      case NodeKind::Sqrt:
      case NodeKind::Distance: return true;
      case NodeKind::Variable: return numeric_variables_.count(n.name) > 0;
      case NodeKind::Arith:
        return n.arith != ArithOp::Add || names_number(n.child(0)) || names_number(n.child(1));
      case NodeKind::WithPosition: return names_number(n.child(1));
      case NodeKind::Path:
      case NodeKind::Line: return !n.has(FlagLastPosition);
      case NodeKind::SquareFact: return n.keyword != Keyword::TypeName && n.keyword != Keyword::PieceName;
      default: return keyword_info(keyword_of(n)).kind == FilterKind::Numeric;
    }
  }

  // Whether a filter's value is a position, as far as its syntax tells (sema checks it).
  [[nodiscard]] bool names_position(const Node& n) const {
    switch (n.kind) {
      case NodeKind::Variable: return position_variables_.count(n.name) > 0;
      case NodeKind::Lca:
      case NodeKind::Child:
      case NodeKind::PositionAt: return true;
      case NodeKind::Find: return !n.has(FlagCount);
      case NodeKind::Path:
      case NodeKind::Line: return n.has(FlagLastPosition);
      case NodeKind::WithPosition: return names_position(n.child(1));
      case NodeKind::Compare: return names_position(n.child(0));
      default: return keyword_info(keyword_of(n)).kind == FilterKind::Position;
    }
  }

  // x += e (and -=, *=, /=, %=, |=, &=): x = x + e, as CQL reads it.
  NodePtr op_assign(const Token& name) {
    const Token& op = take();
    const std::string_view symbol = op.text.substr(0, 1);
    NodePtr value = binary(NodeKind::Arith, make(NodeKind::Variable, name.range, name.value),
                           operand_after(&Parser::additive_level, op.text));
    if (symbol == operator_spelling(TokenKind::Bar)) value->kind = NodeKind::Union;
    if (symbol == operator_spelling(TokenKind::Amp)) value->kind = NodeKind::Intersect;
    for (const TokenKind k : ArithTokens)
      if (symbol == operator_spelling(k)) value->arith = *spelled<ArithOp>(ArithTokens, k);
    auto n = make(NodeKind::Assign, name.range, name.value);
    n->children.push_back(std::move(value));
    return finish(std::move(n));
  }

  NodePtr call(const Token& name) {
    auto n = make(NodeKind::Call, name.range, std::string(name.text));
    take();
    while (!accept(TokenKind::RParen)) {
      if (!starts_filter())
        fail_expected("an argument or ')' in the call of '" + quote_source(n->name) + "'");
      n->children.push_back(filter());
      accept(TokenKind::Comma);
    }
    return finish(std::move(n));
  }

  NodePtr keyword() {
    const Token& t = peek();
    if (t.keyword == Keyword::OriginalComment || t.keyword == Keyword::HasComment) return original_comment();
    if (keyword_info(t.keyword).use == KeywordUse::Filter) {
      auto n = make(NodeKind::Keyword, take().range);
      n->keyword = t.keyword;
      return at_position(std::move(n));
    }
    if (const std::optional<Transform> transform = spelled<Transform>(TransformWords, t.keyword))
      return transformed(*transform);
    if (t.keyword == Keyword::Dihedral || t.keyword == Keyword::FlipDihedral)
      return transformed(Transform::Flip);  // CQL's other names of flip
    switch (t.keyword) {
      case Keyword::Not: return unary(NodeKind::Not, &Parser::in_level);
      case Keyword::If: return if_filter();
      case Keyword::Loop: return unary(NodeKind::Repeat, &Parser::filter);
      case Keyword::While: return while_filter();
      case Keyword::Persistent:
        if (peek(1).kind == TokenKind::Keyword && peek(1).keyword == Keyword::Dictionary)
          return dictionary_declaration();
        return persistent();
      case Keyword::Dictionary:
      case Keyword::Local: return dictionary_declaration();
      case Keyword::Atomic: return atomic();
      case Keyword::Hhdb: return hhdb();
      case Keyword::SetTag: return set_tag();
      case Keyword::Square:
      case Keyword::Piece: return loop();
      case Keyword::Function: return function();
      case Keyword::Sort: return sort();
      case Keyword::Abs: return unary(NodeKind::Abs, &Parser::additive_level);
      case Keyword::Max:
      case Keyword::Min: return extremum();
      case Keyword::Pin: return pin();
      case Keyword::Ray:
      case Keyword::XRay: return ray();
      case Keyword::Between:
      case Keyword::Distance: return pair();
      case Keyword::Power: return unary(NodeKind::Power, &Parser::set_level);
      case Keyword::PieceId: return unary(NodeKind::PieceId, &Parser::set_level);
      case Keyword::Light: return unary(NodeKind::Light, &Parser::prefix);
      case Keyword::Dark: return unary(NodeKind::Dark, &Parser::prefix);
      case Keyword::Rank:
      case Keyword::File:
      case Keyword::ColorType:
      case Keyword::Type:
      case Keyword::TypeName:
      case Keyword::PieceName: {
        const Keyword word = t.keyword;
        NodePtr n = unary(NodeKind::SquareFact, &Parser::set_level);
        n->keyword = word;
        return n;
      }
      case Keyword::MakeSquare: return make_square();
      case Keyword::Sqrt: return unary(NodeKind::Sqrt, &Parser::additive_level);
      case Keyword::NoTransform: return unary(NodeKind::NoTransform, &Parser::filter);
      case Keyword::Fen: return fen();
      case Keyword::Message:
      case Keyword::Comment:
      case Keyword::Str: return message();
      case Keyword::Player:
      case Keyword::Event:
      case Keyword::EventDate:
      case Keyword::Site:
      case Keyword::Date:
      case Keyword::Eco:
      case Keyword::Tag: return game_text();
      case Keyword::Elo: return elo();
      case Keyword::IndexOf: return pair();
      case Keyword::LowerCase:
      case Keyword::UpperCase:
      case Keyword::Int: return convert();
      case Keyword::Move:
        return peek(1).kind == TokenKind::Keyword &&
                       (peek(1).keyword == Keyword::Legal || peek(1).keyword == Keyword::PseudoLegal)
                   ? move()
                   : played_move();
      case Keyword::Child: return at_position(child());
      case Keyword::Position: return at_position(position_at());
      case Keyword::Find: return at_position(find());
      case Keyword::Result: return result();
      case Keyword::Imagine: return imagine();
      case Keyword::DtmEnd:
      case Keyword::DtsEnd: return line_end();
      case Keyword::Path: return at_position(path());
      case Keyword::Line: return at_position(line());
      case Keyword::Echo: return echo();
      case Keyword::Primary:
      case Keyword::Secondary:
      case Keyword::EnPassant:
      case Keyword::Castle:
      case Keyword::CastleKingside:
      case Keyword::CastleQueenside:
      case Keyword::NullMove: return past_move();
      case Keyword::EnPassantSquare: return en_passant_square();
      case Keyword::Lca: return at_position(pair());
      case Keyword::ConsecutiveMoves: return consecutive_moves();
      case Keyword::CountMoves: return count_moves();
      case Keyword::Legal:
      case Keyword::PseudoLegal: return legal_dash();
      case Keyword::IsBound:
      case Keyword::IsUnbound:
      case Keyword::Unbind: return binding();
      case Keyword::Assert: return unary(NodeKind::Assert, &Parser::filter);
      case Keyword::Previous:
      case Keyword::CurrentMove: return previous_dash();
      default: break;
    }
    if (keyword_info(t.keyword).directions != 0 && t.keyword != Keyword::Attack) return vector();
    fail(t.range, "unexpected '" + std::string(t.text) + "': expected a filter");
  }

  NodePtr transformed(Transform transform) {
    const Token& kw = take();
    auto n = make(NodeKind::Transform, kw.range);
    n->transform = transform;
    if (accept_keyword(Keyword::Count)) n->flags |= FlagCount;
    n->children.push_back(operand_after(&Parser::filter, kw.text));
    return finish(std::move(n));
  }

  NodePtr if_filter() {
    auto n = make(NodeKind::If, take().range);
    n->children.push_back(operand(&Parser::filter, quoted(Keyword::If)));
    accept_keyword(Keyword::Then);
    n->children.push_back(operand(&Parser::filter, quoted(Keyword::Then)));
    if (accept_keyword(Keyword::Else)) n->children.push_back(operand(&Parser::filter, quoted(Keyword::Else)));
    return finish(std::move(n));
  }

  // persistent [quiet] x = e (or x += e ...): an assignment to a persistent variable (FlagPersistent).
  NodePtr persistent() {
    const SourceRange word = take().range;
    const bool quiet = accept_keyword(Keyword::Quiet);
    if (!at(TokenKind::Identifier) ||
        (peek(1).kind != TokenKind::Assign && peek(1).kind != TokenKind::OpAssign))
      fail_expected("a variable and an assignment ('=', '+=' ...) after " + quoted(Keyword::Persistent));
    NodePtr n = identifier();
    n->range = word.to(n->range);
    n->flags |= FlagPersistent | (quiet ? FlagQuiet : 0);
    return n;
  }

  // atomic x = e (or x += e ...): an assignment to an atomic variable (FlagAtomic), which a path
  // restores as it backtracks.
  NodePtr atomic() {
    const SourceRange word = take().range;
    if (!at(TokenKind::Identifier) ||
        (peek(1).kind != TokenKind::Assign && peek(1).kind != TokenKind::OpAssign))
      fail_expected("a variable and an assignment ('=', '+=' ...) after " + quoted(Keyword::Atomic));
    NodePtr n = identifier();
    n->range = word.to(n->range);
    n->flags |= FlagAtomic;
    return n;
  }

  // while (test) body: CQL's test in parentheses, then a whole filter; a test `s ~~ r` makes CQL's
  // other while, over the matches of the regular expression (NodeKind::While).
  NodePtr while_filter() {
    const Token& kw = take();
    auto n = make(NodeKind::While, kw.range);
    expect(TokenKind::LParen, "'(' after 'while'");
    n->children.push_back(operand(&Parser::filter, quoted(Keyword::While) + " ("));
    expect(TokenKind::RParen, "')' after the test of 'while'");
    n->children.push_back(operand(&Parser::filter, quoted(Keyword::While) + " (...)"));
    return finish(std::move(n));
  }

  // CQL's piece declaration ◭ (read as the designator of every man) next to a variable, then '∊'
  // or '=': "◭x ∊ S body" is "piece x in S body", "◭x = S" "piece x = S". A blank between them
  // makes ◭ a set, as CQL's lexer reads it: "x∊◭ y∊◭ f" is two square loops over the men.
  [[nodiscard]] bool at_piece_declaration() const {
    const Token& t = peek();
    return t.kind == TokenKind::PieceDesignator && t.pieces == (WhiteMen | BlackMen) &&
           t.squares == AllSquares && peek(1).kind == TokenKind::Identifier && touching(t, peek(1)) &&
           (peek(2).kind == TokenKind::Element || peek(2).kind == TokenKind::Assign);
  }

  NodePtr loop() {
    const Token& kw = take();
    auto n = make(kw.keyword == Keyword::Square ? NodeKind::SquareLoop : NodeKind::PieceLoop, kw.range);
    if (accept_keyword(Keyword::All)) n->flags |= FlagAll;
    if (n->kind == NodeKind::SquareLoop && n->has(FlagAll) && at_piece_declaration() &&
        peek(2).kind == TokenKind::Element) {  // ∀◭x∊S, read "square all ◭ x ∊ S": piece all x in S
      take();
      n->kind = NodeKind::PieceLoop;
    }
    if (n->kind == NodeKind::PieceLoop && !n->has(FlagAll) && peek(1).kind == TokenKind::Assign)
      return piece_assign(
          expect(TokenKind::Identifier, "a variable name after '" + std::string(kw.text) + "'"));
    n->name = std::string(
        expect(TokenKind::Identifier, "a variable name after '" + std::string(kw.text) + "'").text);
    if (!accept_keyword(Keyword::In) && !accept(TokenKind::Element))
      fail_expected(quoted(Keyword::In) + " after '" + std::string(kw.text) + " " + quote_source(n->name) +
                    "'");
    n->children.push_back(operand(&Parser::set_level, quoted(Keyword::In)));
    n->children.push_back(operand_after(&Parser::filter, quote_source(n->name) + " in ..."));
    return finish(std::move(n));
  }

  // CQL's Unicode loops: "x ∊ S body" is "square x in S body", "◭ x ∊ S body" "piece x in S body";
  // `name` is the variable's token, the current one the ∊.
  NodePtr element_loop(const Token& name, NodeKind kind) {
    take();
    auto n = make(kind, name.range, name.value);
    n->children.push_back(operand(&Parser::set_level, "'∊'"));
    n->children.push_back(operand_after(&Parser::filter, quote_source(n->name) + " ∊ ..."));
    return finish(std::move(n));
  }

  // piece x = S, ◭ x = S: `name` is the variable's token, the current one the '='.
  NodePtr piece_assign(const Token& name) {
    take();
    auto n = make(NodeKind::PieceAssign, name.range, name.value);
    n->children.push_back(operand(&Parser::additive_level, "'" + quote_source(n->name) + " ='"));
    return finish(std::move(n));
  }

  NodePtr function() {
    const Token& kw = take();
    auto n = make(NodeKind::Function, kw.range);
    n->name = std::string(
        expect(TokenKind::Identifier, "a function name after '" + std::string(kw.text) + "'").text);
    expect(TokenKind::LParen, "'(' after the function name");
    while (!accept(TokenKind::RParen)) {
      n->params.emplace_back(expect(TokenKind::Identifier, "a parameter name or ')'").text);
      accept(TokenKind::Comma);
    }
    if (!at(TokenKind::LBrace))
      fail_expected("'{' to begin the body of function '" + quote_source(n->name) + "'");
    functions_.insert(n->name);
    parameters_ = {n->params.begin(), n->params.end()};
    n->children.push_back(block());
    parameters_.clear();
    return finish(std::move(n));
  }

  NodePtr sort() {
    const Token& kw = take();
    auto n = make(NodeKind::Sort, kw.range);
    if (accept_keyword(Keyword::Min))
      n->flags |= FlagMin;
    else if (accept_keyword(Keyword::Max))
      n->flags |= FlagMax;
    if (at(TokenKind::String)) n->name = take().value;
    n->children.push_back(operand_after(&Parser::filter, kw.text));
    return finish(std::move(n));
  }

  NodePtr extremum() {
    const Token& kw = take();
    auto n = make(kw.keyword == Keyword::Max ? NodeKind::Max : NodeKind::Min, kw.range);
    expect(TokenKind::LParen, "'(' after '" + std::string(kw.text) + "'");
    while (!accept(TokenKind::RParen)) {
      if (!starts_filter()) fail_expected("a numeric filter or ')'");
      n->children.push_back(additive_level());
    }
    if (n->children.size() < 2)
      fail(kw.range.to(previous_range()), "'" + std::string(kw.text) + "' needs at least two arguments");
    return finish(std::move(n));
  }

  NodePtr pin() {
    const Token& kw = take();
    auto n = make(NodeKind::Pin, kw.range);
    while (peek().kind == TokenKind::Keyword) {
      const std::optional<PinRole> role = spelled<PinRole>(PinRoleWords, peek().keyword);
      if (!role) break;
      const Token& word = take();
      if (std::find(n->pin_roles.begin(), n->pin_roles.end(), *role) != n->pin_roles.end())
        fail(word.range, "'" + std::string(word.text) + "' given twice in '" + std::string(kw.text) + "'");
      n->pin_roles.push_back(*role);
      n->children.push_back(operand_after(&Parser::prefix, word.text));
    }
    return finish(std::move(n));
  }

  NodePtr ray() {
    const Token& kw = take();
    auto n = make(kw.keyword == Keyword::Ray ? NodeKind::Ray : NodeKind::XRay, kw.range);
    while (n->kind == NodeKind::Ray && peek().kind == TokenKind::Keyword &&
           keyword_info(peek().keyword).directions != 0)
      n->directions.push_back(take().keyword);
    expect(TokenKind::LParen, "'(' and the square sets of the " + std::string(kw.text));
    while (!accept(TokenKind::RParen)) {
      if (!starts_filter()) fail_expected("a square set or ')'");
      n->children.push_back(filter());
    }
    if (n->children.size() < 2)
      fail(kw.range.to(previous_range()), "'" + std::string(kw.text) + "' needs at least two square sets");
    return finish(std::move(n));
  }

  NodePtr pair() {
    const Token& kw = take();
    auto n = make(kw.keyword == Keyword::Between    ? NodeKind::Between
                  : kw.keyword == Keyword::Distance ? NodeKind::Distance
                  : kw.keyword == Keyword::Lca      ? NodeKind::Lca
                                                    : NodeKind::IndexOf,
                  kw.range);
    expect(TokenKind::LParen, "'(' after '" + std::string(kw.text) + "'");
    n->children.push_back(operand(&Parser::set_level, "'('"));
    n->children.push_back(operand_after(&Parser::set_level, std::string(kw.text) + " (..."));
    expect(TokenKind::RParen, "')' after the two arguments of '" + std::string(kw.text) + "'");
    return finish(std::move(n));
  }

  // makesquare (file rank), makesquare (name) or makesquare name: the square of those coordinates
  // (from 1) or of that name ("e4"), as CQL reads them.
  NodePtr make_square() {
    const Token& kw = take();
    auto n = make(NodeKind::MakeSquare, kw.range);
    const bool paren = accept(TokenKind::LParen);
    n->children.push_back(operand_after(&Parser::additive_level, kw.text));
    if (paren && !at(TokenKind::RParen))
      n->children.push_back(operand_after(&Parser::additive_level, std::string(kw.text) + " (..."));
    if (paren) expect(TokenKind::RParen, "')' after the arguments of '" + std::string(kw.text) + "'");
    return finish(std::move(n));
  }

  // A direction word as a filter, CQL's VectorNode: "up 1 3 K" is the squares one to three steps
  // up from the white king (the range 1 7 by default; 0 is the square itself). A numeric variable
  // may stand for a count ("up d K", d steps, backwards when negative): then the counts are the
  // children after the set (flag Range), as numeric filters.
  NodePtr vector() {
    const Token& kw = take();
    auto n = make(NodeKind::Vector, kw.range);
    n->keyword = kw.keyword;
    n->number = 1;
    n->high = 7;
    if (at_count_variable() || (at(TokenKind::Number) && peek(1).kind == TokenKind::Identifier &&
                                numeric_variables_.count(peek(1).value))) {
      std::vector<NodePtr> counts;
      for (int i = 0; i < 2 && (at(TokenKind::Number) || at_count_variable()); ++i) {
        if (at(TokenKind::Number)) {
          counts.push_back(number_token());
        } else {
          const Token& v = take();
          counts.push_back(make(NodeKind::Variable, v.range, v.value));
        }
      }
      n->children.push_back(operand_after(&Parser::prefix, kw.text));
      if (counts.size() == 1) counts.push_back(clone(*counts[0]));
      for (NodePtr& c : counts) n->children.push_back(std::move(c));
      n->flags |= FlagRange;
      return finish(std::move(n));
    }
    if (at(TokenKind::Number)) {
      n->number = n->high = take().number;
      if (at(TokenKind::Number)) n->high = take().number;
      if (n->high > 7 || n->number > n->high)
        fail(kw.range.to(previous_range()),
             "the range of '" + std::string(kw.text) + "' must lie within 0 and 7, its least first");
    }
    n->children.push_back(operand_after(&Parser::prefix, kw.text));
    return finish(std::move(n));
  }

  // At a numeric variable standing for a direction word's count (not the start of an expression).
  [[nodiscard]] bool at_count_variable() const {
    if (!at(TokenKind::Identifier) || !numeric_variables_.count(peek().value)) return false;
    const TokenKind next = peek(1).kind;
    return !spelled<ArithOp>(ArithTokens, next) && !spelled<CompareOp>(CompareTokens, next) &&
           next != TokenKind::Assign && next != TokenKind::OpAssign;
  }

  NodePtr fen() {
    auto n = make(NodeKind::Fen, take().range);
    if (at(TokenKind::String)) n->name = take().value;
    return finish(std::move(n));
  }

  NodePtr message() {
    const Token& kw = take();
    auto n = make(NodeKind::Message, kw.range);
    n->keyword = kw.keyword;
    if (accept(TokenKind::LParen)) {
      while (!accept(TokenKind::RParen)) {
        if (!starts_filter()) fail_expected("an argument or ')'");
        n->children.push_back(filter());
      }
    } else {
      n->children.push_back(operand_after(&Parser::prefix, kw.text));
    }
    return finish(std::move(n));
  }

  // /// a b ...: CQL's comment(a b ...), its arguments to the end of the line.
  NodePtr line_comment() {
    auto n = make(NodeKind::Message, take().range);
    n->keyword = Keyword::Comment;
    while (!accept(TokenKind::EndLine)) {
      if (!starts_filter()) fail_expected("an argument of '///' before the end of the line");
      n->children.push_back(filter());
    }
    if (n->children.empty()) fail(n->range, "'///' needs something to write before the end of the line");
    return finish(std::move(n));
  }

  NodePtr move() {
    const Token& kw = take();
    auto n = make(NodeKind::Move, kw.range);
    if (take().keyword == Keyword::PseudoLegal) n->flags |= FlagPseudoLegal;
    while (true) {
      if (accept_keyword(Keyword::Count)) {
        n->flags |= FlagCount;
      } else if (accept_keyword(Keyword::All)) {
        n->flags |= FlagAll;
      } else if (at_keyword(Keyword::EnPassant)) {
        n->flags |= FlagEnPassant;
        take();
      } else if (const std::optional<MoveRole> role = move_role()) {
        const Token& word = take();
        n->move_roles.push_back(*role);
        n->children.push_back(operand_after(&Parser::prefix, word.text));
      } else {
        break;
      }
    }
    if (accept(TokenKind::Colon)) {
      n->move_roles.push_back(MoveRole::Body);
      n->children.push_back(operand(&Parser::prefix, "':'"));
    }
    check_en_passant(*n, kw);
    return finish(std::move(n));
  }

  // CQL refuses 'enpassant' with 'enpassantsquare' in one move filter, and either with 'promote'.
  void check_en_passant(const Node& n, const Token& kw) const {
    const bool square =
        std::find(n.move_roles.begin(), n.move_roles.end(), MoveRole::EnPassantSquare) != n.move_roles.end();
    const SourceRange at = kw.range.to(previous_range());
    if (square && n.has(FlagEnPassant))
      fail(at, "'move' takes 'enpassant' or 'enpassantsquare', not both, as in CQL");
    if ((square || n.has(FlagEnPassant)) && n.pieces)
      fail(at, "'move' cannot be both an en passant capture and a promotion, as in CQL");
  }

  // enpassantsquare alone: the square of the pawn the move that led to the position took en
  // passant (CQL's definition), none after another move. It is the move played's capture square:
  // "move previous enpassant capture .".
  NodePtr en_passant_square() {
    const Token& kw = take();
    auto n = make(NodeKind::PlayedMove, kw.range);
    n->flags |= FlagPrevious | FlagEnPassant;
    auto every = make(NodeKind::Designator, kw.range);
    every->pieces = AnyMen;
    every->squares = AllSquares;
    n->move_roles.push_back(MoveRole::Capture);
    n->children.push_back(std::move(every));
    return n;
  }

  // The move role spelled by the current token, if any (the body has no keyword).
  // CQL 6.2 reads "captures" as "capture" there.
  [[nodiscard]] std::optional<MoveRole> move_role() const {
    if (peek().kind != TokenKind::Keyword || peek().keyword == Keyword::None) return std::nullopt;
    if (peek().keyword == Keyword::Captures) return MoveRole::Capture;
    return spelled<MoveRole>(MoveRoleWords, peek().keyword);
  }

  NodePtr imagine() {
    const Token& kw = take();
    auto n = make(NodeKind::Imagine, kw.range);
    while (!accept(TokenKind::Colon)) n->children.push_back(imagine_spec(kw));
    if (n->children.empty())
      fail(previous_range(),
           "'" + std::string(kw.text) + "' needs at least one of " + one_of(ImagineStepWords, ", "));
    n->children.push_back(operand(&Parser::prefix, "':'"));
    return finish(std::move(n));
  }

  NodePtr imagine_spec(const Token& imagine) {
    const std::optional<ImagineStep> step =
        at(TokenKind::Keyword) ? spelled<ImagineStep>(ImagineStepWords, peek().keyword) : std::nullopt;
    if (!step)
      fail_expected(one_of(ImagineStepWords, ", ") + " or ':' in '" + std::string(imagine.text) + "'");
    const Token& word = take();
    auto s = make(NodeKind::ImagineSpec, word.range);
    s->imagine_step = *step;
    switch (*step) {
      case ImagineStep::Piece:
        if (!at(TokenKind::PieceDesignator))
          fail_expected("a piece designator after '" + std::string(word.text) + "'");
        s->children.push_back(prefix());
        expect(TokenKind::LongArrow, "'-->' after the piece designator");
        s->children.push_back(operand(&Parser::set_level, "'-->'"));
        break;
      case ImagineStep::Swap:
        s->children.push_back(operand_after(&Parser::prefix, word.text));
        s->children.push_back(operand_after(&Parser::prefix, word.text));
        break;
      case ImagineStep::SideToMove: {
        const std::optional<Side> side =
            at(TokenKind::Keyword) ? spelled<Side>(SideWords, peek().keyword) : std::nullopt;
        if (!side) fail_expected(one_of(SideWords, " or ") + " after '" + std::string(word.text) + "'");
        take();
        s->side = *side;
        break;
      }
    }
    return finish(std::move(s));
  }

  // "p : f" when p (parent, child, position N, find f ...) names a position: f evaluated there.
  NodePtr at_position(NodePtr n) {
    if (!names_position(*n) || !accept(TokenKind::Colon)) return n;
    return binary(NodeKind::WithPosition, std::move(n), operand(&Parser::prefix, "':'"));
  }

  // child, or child(n): the n-th child.
  NodePtr child() {
    auto n = make(NodeKind::Child, take().range);
    if (accept(TokenKind::LParen)) {
      n->children.push_back(operand(&Parser::additive_level, "'('"));
      expect(TokenKind::RParen, "')' after the index of 'child'");
    }
    return finish(std::move(n));
  }

  // find [quiet] [all] [<-] [N [M] | count] f (a whole filter, 'or' and all, as CQL reads it: "find T == a1"
  // is find (T == a1)): the first position from here on (with <-, back to the start) where f
  // matches, or with all or a range the number of them.
  NodePtr find() {
    const Token& kw = take();
    auto n = make(NodeKind::Find, kw.range);
    std::vector<NodePtr> bounds;
    while (true) {
      if (accept_keyword(Keyword::Quiet)) continue;
      if (accept_keyword(Keyword::All)) {
        n->flags |= FlagAll | FlagCount;
      } else if (accept(TokenKind::BackArrow)) {
        n->flags |= FlagPrevious;
      } else if (bounds.empty() && at(TokenKind::Number)) {
        bounds.push_back(number_token());
        if (at(TokenKind::Number)) bounds.push_back(number_token());
        n->flags |= FlagCount;
      } else if (bounds.empty() && at_keyword(Keyword::Count)) {
        // CQL's range 'count': any number of matches, -100000 to 100000 (find count f: how many).
        const SourceRange word = take().range;
        for (const int64_t bound : {-100000, 100000}) {
          bounds.push_back(make(NodeKind::Number, word));
          bounds.back()->number = bound;
        }
        n->flags |= FlagCount;
      } else {
        break;
      }
    }
    if (n->has(FlagAll) && !bounds.empty())
      fail(kw.range.to(previous_range()), "'find' takes 'all' or a range, not both");
    n->children.push_back(operand_after(&Parser::filter, kw.text));
    for (NodePtr& b : bounds) n->children.push_back(std::move(b));
    return finish(std::move(n));
  }

  // echo [quiet] (s t) [in all] f (a whole filter, 'or' and all, as CQL reads it): f at every other position
  // of the game (every one with in all), s bound to the current position and t to that one.
  NodePtr echo() {
    const Token& kw = take();
    auto n = make(NodeKind::Echo, kw.range);
    accept_keyword(Keyword::Quiet);
    position_pair(*n, kw.text);
    if (at_keyword(Keyword::In) && peek(1).kind == TokenKind::Keyword && peek(1).keyword == Keyword::All) {
      take();
      take();
      n->flags |= FlagAll;
    }
    n->children.push_back(operand_after(&Parser::filter, std::string(kw.text) + " (...)"));
    return finish(std::move(n));
  }

  // "(s t)" after echo or consecutivemoves: two distinct names, position variables from here on.
  void position_pair(Node& n, std::string_view word) {
    expect(TokenKind::LParen, "'(' after '" + std::string(word) + "'");
    for (int i = 0; i < 2; ++i) {
      const Token& name =
          expect(TokenKind::Identifier, "a position variable's name in '" + std::string(word) + " (...)'");
      if (is_cql_reserved(name.value)) fail(name.range, unsupported_word_message(name.value));
      if (i == 1 && name.value == n.child(0).name)
        fail(name.range, "the two position variables of '" + std::string(word) + "' must differ");
      n.children.push_back(make(NodeKind::Variable, name.range, name.value));
      position_variables_.insert(name.value);
    }
    expect(TokenKind::RParen, "')' after the two position variables of '" + std::string(word) + "'");
  }

  // consecutivemoves [quiet] [low [high]] [quiet] (s t): the length of the longest run of the same
  // moves on the ways from the two positions' latest common ancestor to them.
  NodePtr consecutive_moves() {
    const Token& kw = take();
    auto n = make(NodeKind::ConsecutiveMoves, kw.range);
    accept_keyword(Keyword::Quiet);
    n->number = 1;
    n->high = 100000;
    if (at(TokenKind::Number)) {
      n->number = take().number;
      n->high = at(TokenKind::Number) ? take().number : n->number;
    }
    accept_keyword(Keyword::Quiet);
    position_pair(*n, kw.text);
    return finish(std::move(n));
  }

  // position N: the position whose positionid is N.
  NodePtr position_at() {
    const Token& kw = take();
    auto n = make(NodeKind::PositionAt, kw.range);
    n->children.push_back(operand_after(&Parser::additive_level, kw.text));
    return finish(std::move(n));
  }

  // player [white|black], event, eventdate, site, date, eco, tag "Name": a tag of the game; the builtin words
  // take a trailing string to search for ("event \"Open\"" is "\"Open\" in event").
  NodePtr game_text() {
    const Token& kw = take();
    auto n = make(NodeKind::GameText, kw.range);
    n->keyword = kw.keyword;
    switch (kw.keyword) {
      case Keyword::Player: n->name = player_tag(); break;
      case Keyword::Event: n->name = "Event"; break;
      case Keyword::EventDate: n->name = "EventDate"; break;
      case Keyword::Site: n->name = "Site"; break;
      case Keyword::Date: n->name = "Date"; break;
      case Keyword::Eco: n->name = "ECO"; break;
      default:
        n->name = expect(TokenKind::String, "a quoted tag name after 'tag'").value;
        if (n->name.empty()) fail(previous_range(), "expected a tag name, found \"\"");
        return finish(std::move(n));
    }
    return implicit_search(finish(std::move(n)));
  }

  // After player: "White", "Black", or "" for both.
  std::string player_tag() {
    if (accept_keyword(Keyword::White)) return "White";
    if (accept_keyword(Keyword::Black)) return "Black";
    return {};
  }

  // originalcomment (hascomment, its other name in CQL 6.2) [s]: the comments after the move that
  // led to the position; a NAG after it ("!", "$18", "+-") tests the move's NAGs, another string is
  // searched for in the comments (originalcomment "<main>").
  NodePtr original_comment() {
    auto n = make(NodeKind::Keyword, take().range);
    n->keyword = Keyword::OriginalComment;
    if (!at(TokenKind::String) || peek().value.empty()) return n;
    const std::string& text = peek().value;
    const int nag = nag_of(text);
    if (text == "$0" || nag > 255)
      fail(peek().range, "expected a NAG from $1 to $255, found \"" + quote_source(text) + "\"");
    if (nag == 0) return implicit_search(std::move(n));
    take();
    n->kind = NodeKind::Nag;
    n->number = nag;
    return finish(std::move(n));
  }

  // The NAG a string names, as CQL reads it: "!" 1 ... "?!" 6, "=" 10, "+/=" 14 ... "-+" 19, "$N" N;
  // 0 for another string.
  static int nag_of(const std::string& s) {
    static constexpr std::array<std::string_view, 20> Symbols = {"",    "!",   "?",   "!!",  "??", "!?", "?!",
                                                                 "",    "",    "",    "=",   "",   "",   "",
                                                                 "+/=", "=/+", "+/-", "-/+", "+-", "-+"};
    for (size_t i = 1; i < Symbols.size(); ++i)
      if (!Symbols[i].empty() && s == Symbols[i]) return static_cast<int>(i);
    if (s.size() < 2 || s[0] != '$' || s.size() > 5 ||
        s.find_first_not_of("0123456789", 1) != std::string::npos)
      return 0;
    return std::stoi(s.substr(1));
  }

  // settag("Name" value): sets the tag of the game CQL writes to value (a string).
  NodePtr set_tag() {
    auto n = make(NodeKind::SetTag, take().range);
    expect(TokenKind::LParen, "'(' after 'settag'");
    const Token& name = expect(TokenKind::String, "a quoted tag name after 'settag('");
    if (const std::string why = settable_tag(name.value); !why.empty()) fail(name.range, why);
    n->name = name.value;
    n->children.push_back(operand(&Parser::filter, "the tag's name"));
    expect(TokenKind::RParen, "')' after the value of 'settag'");
    return finish(std::move(n));
  }

  // Why CQL 6.2 does not set a tag of that name (its TagSetNode::isSettable), or "".
  static std::string settable_tag(const std::string& name) {
    const auto tag_char = [](char c) {
      return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    };
    if (name.empty() || !tag_char(name[0]) || name[0] == '_')
      return "a tag name must start with a letter or a digit";
    if (!std::all_of(name.begin(), name.end(), tag_char))
      return "a tag name has only letters, digits and '_'";
    static constexpr std::array<std::string_view, 29> Builtin = {
        "Black", "black", "BLACK", "White",  "white",  "WHITE",  "Event",     "event",     "EVENT",    "Site",
        "site",  "SITE",  "Date",  "date",   "DATE",   "Eco",    "eco",       "ECO",       "Fen",      "fen",
        "FEN",   "Round", "ROUND", "Result", "result", "RESULT", "EventDate", "eventdate", "EVENTDATE"};
    if (std::find(Builtin.begin(), Builtin.end(), name) != Builtin.end() || name == "eventDate" ||
        (name.size() > 5 && (name.starts_with("White") || name.starts_with("Black"))))
      return "CQL 6.2 sets no tag named as one of its own ('" + quote_source(name) + "')";
    return {};
  }

  // hhdb KEY (query/hhdb.hpp): award keys make an HhdbAward node; another key is read as the CQL
  // it stands for, in place (its nodes located at `hhdb KEY`), then a string after it is searched
  // for in it, as after a tag word.
  NodePtr hhdb() {
    const SourceRange word = take().range;
    std::vector<std::string> awards;
    while (const std::optional<std::string> key = hhdb_key())
      if (is_hhdb_award_key(*key)) {
        awards.push_back(*key);
        take();
      } else {
        break;
      }
    if (!awards.empty()) return hhdb_award(word, awards);
    const std::optional<std::string> key = hhdb_key();
    if (!key) fail_expected("a key of hhdb after 'hhdb' (prize, hm, MC, composer, gbr ...)");
    take();
    std::string name = *key;
    if (name == "gbr")
      if (const std::optional<std::string> part = hhdb_key(); part && is_hhdb_gbr_key(*part)) {
        name += *part;
        take();
      }
    const HhdbText text = hhdb_filter_text(name);
    const SourceRange at = word.to(previous_range());
    if (text.cql.empty())
      fail(at, unsupported_word_message("hhdb " + name) + ": it needs " + std::string(text.needs));
    Expected<NodePtr, QueryError> tree = parse(text.cql);
    if (!tree) fail(at, "internal error in the CQL of 'hhdb " + name + "': " + tree.error().message);
    NodePtr n = std::move((*tree)->children.front());
    relocate(*n, at);
    return implicit_search(std::move(n));
  }

  // The key of hhdb at the current token, quoted when it must be (hhdb "(c)", hhdb MC), or none.
  [[nodiscard]] std::optional<std::string> hhdb_key() const {
    const Token& t = peek();
    std::string key;
    if (t.kind == TokenKind::Identifier || t.kind == TokenKind::String)
      key = t.value;
    else if (t.kind == TokenKind::Keyword || t.kind == TokenKind::PieceDesignator)
      key = std::string(t.text);
    if (key.empty() || !is_hhdb_key(key) || hhdb_key_quoted(key) != (t.kind == TokenKind::String)) return {};
    return key;
  }

  // hhdb [award|prize|hm|commendation] [special] [max]: the checks of CQL's match_hhdb_award.
  NodePtr hhdb_award(SourceRange word, const std::vector<std::string>& keys) {
    auto n = make(NodeKind::HhdbAward, word);
    const SourceRange at = word.to(previous_range());
    const auto twice = [&](const std::string& key) { return std::count(keys.begin(), keys.end(), key) > 1; };
    for (const std::string& key : keys) {
      if (key == "sort") fail(at, unsupported_word_message("hhdb sort"));
      if (twice(key)) fail(at, "'" + key + "' twice after 'hhdb'");
      if (key == "max") n->flags |= FlagMax;
      if (key == "special") n->flags |= FlagSpecial;
      if (!is_hhdb_award_type(key)) continue;
      if (!n->name.empty()) fail(at, "more than one of award, prize, hm and commendation after 'hhdb'");
      n->name = key;
    }
    if (n->name.empty()) n->name = "award";
    return finish(std::move(n));
  }

  // Gives every node of an expansion the place of the words it stands for.
  static void relocate(Node& n, const SourceRange& at) {
    n.range = at;
    for (NodePtr& c : n.children) relocate(*c, at);
  }

  // A nonempty string after a tag word: the text searched for in the tag. A pattern that looks
  // like a regular expression is refused, as CQL refuses it.
  NodePtr implicit_search(NodePtr tag) {
    if (!at(TokenKind::String) || peek().value.empty()) return tag;
    const Token& text = take();
    const std::string& p = text.value;
    const size_t bracket = p.find('[');
    if ((bracket != std::string::npos && p.find(']', bracket) != std::string::npos) ||
        p.find_first_of("*+?", 1) != std::string::npos)
      fail(text.range,
           "\"" + quote_source(p) +
               "\" looks like a regular expression but is searched for as text here: write '~~ \"" +
               quote_source(p) + "\"' to match it, or '\"" + quote_source(p) +
               "\" in ...' to search for the text");
    auto n = make(NodeKind::In, tag->range.to(text.range));
    n->children.push_back(make(NodeKind::String, text.range, p));
    n->children.push_back(std::move(tag));
    return n;
  }

  // elo [white|black]: a player's rating, or the higher of both.
  NodePtr elo() {
    auto n = make(NodeKind::Elo, take().range);
    n->name = player_tag();
    return finish(std::move(n));
  }

  // lowercase s, uppercase s, int s.
  NodePtr convert() {
    const Token& kw = take();
    auto n = make(NodeKind::Convert, kw.range);
    n->keyword = kw.keyword;
    n->children.push_back(operand_after(&Parser::prefix, kw.text));
    return finish(std::move(n));
  }

  NodePtr result() {
    const Token& kw = take();
    const Token& r =
        expect(TokenKind::String, "\"1-0\", \"0-1\" or \"1/2-1/2\" after '" + std::string(kw.text) + "'");
    if (!pgn::is_result(r.value) || r.value == "*")
      fail(r.range, "expected \"1-0\", \"0-1\" or \"1/2-1/2\" after '" + std::string(kw.text) + "'");
    return finish(make(NodeKind::Result, kw.range, r.value));
  }

  // move [previous] [from X] [to Y] [capture Z] [promote P] [null] [primary|secondary] [enpassant]
  // [castle]: the move played (CQL's "move" without legal or pseudolegal).

  // primary, secondary, enpassant, castle alone: CQL's past-move filters, the move that led to the
  // position was one (move previous primary ...); none at the start.
  NodePtr past_move() {
    const Token& kw = take();
    auto n = make(NodeKind::PlayedMove, kw.range);
    n->flags |= FlagPrevious;
    if (kw.keyword == Keyword::NullMove) n->flags |= FlagNull;
    for (const auto& [word, flag] : PlayedMoveFlags)
      if (word == kw.keyword) n->flags |= flag;
    return n;
  }

  NodePtr played_move() {
    const Token& kw = take();
    auto n = make(NodeKind::PlayedMove, kw.range);
    const auto& Flags = PlayedMoveFlags;
    while (peek().kind == TokenKind::Keyword) {
      const Token& word = peek();
      const auto flag =
          std::find_if(Flags.begin(), Flags.end(), [&](const auto& f) { return f.first == word.keyword; });
      if (flag != Flags.end()) {
        take();
        n->flags |= flag->second;
      } else if (word.keyword == Keyword::Promote) {
        take();
        if (!at(TokenKind::PieceDesignator)) fail_expected("a piece designator after 'promote'");
        n->pieces = take().pieces;
      } else if (const std::optional<MoveRole> role = move_role()) {
        take();
        if (std::find(n->move_roles.begin(), n->move_roles.end(), *role) != n->move_roles.end())
          fail(word.range, "'" + std::string(word.text) + "' given twice in 'move'");
        n->move_roles.push_back(*role);
        n->children.push_back(operand_after(&Parser::prefix, word.text));
      } else if (word.keyword == Keyword::Legal || word.keyword == Keyword::PseudoLegal) {
        fail(word.range, "'" + std::string(word.text) + "' comes first after 'move' (move " +
                             std::string(word.text) + " from ...)");
      } else {
        break;
      }
    }
    // CQL's comment parameter, last: "move from Q comment ("the queen to " Q)" writes the comment
    // at the position the move leads to, where its arguments are read.
    if (at_keyword(Keyword::Comment)) {
      n->move_roles.push_back(MoveRole::Body);
      n->children.push_back(message());
    }
    if (n->has(FlagPrimary) && n->has(FlagSecondary))
      fail(kw.range.to(previous_range()), "'move' cannot be both 'primary' and 'secondary'");
    check_en_passant(*n, kw);
    return finish(std::move(n));
  }

  // cql(input F output F result R gamenumber N [M] matchcount N [M] sort matchcount ... variations
  // quiet silent matchstring S): the header of a CQL program.
  NodePtr header() {
    auto n = make(NodeKind::Header, take().range);
    expect(TokenKind::LParen, "'(' after 'cql'");
    while (!accept(TokenKind::RParen)) n->children.push_back(header_feature());
    return finish(std::move(n));
  }

  NodePtr header_feature() {
    const bool sorted = accept_keyword(Keyword::Sort);
    static constexpr std::array Features = {Keyword::Input,      Keyword::Output,     Keyword::Result,
                                            Keyword::GameNumber, Keyword::MatchCount, Keyword::Variations,
                                            Keyword::Quiet,      Keyword::Silent};
    const Token& word = peek();
    const bool matchstring = word.kind == TokenKind::Identifier && word.text == "matchstring";
    if (!matchstring && (word.kind != TokenKind::Keyword ||
                         std::find(Features.begin(), Features.end(), word.keyword) == Features.end())) {
      const bool game_word = word.kind == TokenKind::Keyword &&
                             (word.keyword == Keyword::Player || word.keyword == Keyword::Year);
      if ((word.kind == TokenKind::Identifier && is_cql_reserved(word.text)) || game_word)
        fail(word.range, unsupported_word_message(word.text));
      fail_expected(
          "a feature of 'cql(...)' (input, output, result, gamenumber, matchcount, variations, "
          "quiet, silent) or ')'");
    }
    take();
    auto n = make(NodeKind::HeaderFeature, word.range);
    n->keyword = matchstring ? Keyword::None : word.keyword;
    if (sorted) {
      if (word.keyword != Keyword::MatchCount)
        fail(word.range, "expected 'matchcount' after 'sort' in 'cql(...)'");
      n->flags |= FlagMin;
    }
    if (matchstring || word.keyword == Keyword::Input || word.keyword == Keyword::Output ||
        word.keyword == Keyword::Result) {
      n->name = expect(TokenKind::String, "a name after '" + std::string(word.text) + "'").value;
    }
    if (word.keyword == Keyword::Result && (!pgn::is_result(n->name) || n->name == "*"))
      fail(previous_range(), "expected 1-0, 0-1 or 1/2-1/2 after 'result'");
    if (word.keyword == Keyword::GameNumber || word.keyword == Keyword::MatchCount) {
      n->children.push_back(number_token());
      if (at(TokenKind::Number)) n->children.push_back(number_token());
    }
    return finish(std::move(n));
  }

  NodePtr number_token() {
    const Token& t = expect(TokenKind::Number, "a number");
    auto n = make(NodeKind::Number, t.range);
    n->number = t.number;
    return n;
  }

  // ---- path (CQL 6.2's path, ⊢): parameters, then constituents up to the '}' or ')' around the
  // path, a blank line or the end of the query.

  NodePtr path() {
    auto n = make(NodeKind::Path, take().range);
    path_parameters(*n);
    const SequenceLevel level(*this, Sequence::Path);
    const size_t params = n->children.size();
    while (starts_path_step()) n->children.push_back(path_step());
    if (n->children.size() == params) fail_expected("a constituent of 'path' (a filter, '--' or '(')");
    return finish(std::move(n));
  }

  void path_parameters(Node& n) {
    const auto& Flags = PathParameterFlags;
    bool focus = false;
    bool max = false;
    SourceRange piece_path;  // where 'piecepath' stands
    while (true) {
      const Token& word = peek();
      const auto flag = std::find_if(Flags.begin(), Flags.end(), [&](const auto& f) {
        return word.kind == TokenKind::Keyword && f.first == word.keyword;
      });
      if (flag != Flags.end()) {
        if (n.has(flag->second)) fail(word.range, "'" + std::string(word.text) + "' given twice in 'path'");
        if (flag->first == Keyword::PiecePath) piece_path = word.range;
        take();
        n.flags |= flag->second;
      } else if (accept_keyword(Keyword::Quiet)) {
        // CQL's quiet drops the path's "Start path" and "End path" comments, which egtb does not write.
      } else if (at_keyword(Keyword::Title)) {
        if (!n.name.empty()) fail(word.range, "'title' given twice in 'path'");
        take();
        const Token& title = expect(TokenKind::String, "the title of the path (a quoted string)");
        if (title.value.empty()) fail(title.range, "the title of a path is a nonempty string");
        n.name = title.value;
      } else if (at_keyword(Keyword::Focus) || at_keyword(Keyword::SingleColor)) {
        if (focus) fail(word.range, "'path' has one 'focus' or 'singlecolor'");
        focus = true;
        n.children.push_back(path_focus());
      } else if (at_keyword(Keyword::Max)) {
        if (max) fail(word.range, "'max' given twice in 'path'");
        max = true;
        auto m = make(NodeKind::PathParam, take().range);
        m->keyword = Keyword::Max;
        m->children.push_back(operand_after(&Parser::filter, word.text));
        n.children.push_back(finish(std::move(m)));
      } else if (word.kind == TokenKind::Number) {
        fail(word.range,
             "CQL's path length range is not supported by egtb: compare the path's value (path ... >= 3)");
      } else {
        break;
      }
    }
    if (focus && n.has(FlagPrimary))
      fail(n.range, "CQL does not support 'focus' and 'primary' in one 'path'");
    if (!focus && n.has(FlagPiecePath))
      fail(piece_path,
           "'piecepath' in 'path' needs a 'focus' (or 'singlecolor'): it notes the focused men's ways");
  }

  // focus [capture] S, or singlecolor: focus on the men of the side to move where the path starts.
  NodePtr path_focus() {
    const Token& word = take();
    auto n = make(NodeKind::PathParam, word.range);
    n->keyword = Keyword::Focus;
    if (word.keyword == Keyword::SingleColor) {
      auto side = make(NodeKind::If, word.range);
      auto wtm = make(NodeKind::Keyword, word.range);
      wtm->keyword = Keyword::Wtm;
      side->children.push_back(std::move(wtm));
      for (const PieceMask men : {WhiteMen, BlackMen}) {
        auto d = make(NodeKind::Designator, word.range, men == WhiteMen ? "A" : "a");
        d->pieces = men;
        d->squares = AllSquares;
        side->children.push_back(std::move(d));
      }
      n->children.push_back(std::move(side));
      return n;
    }
    if (accept_keyword(Keyword::Capture)) n->flags |= FlagCapture;
    n->children.push_back(operand_after(&Parser::union_level, word.text));
    return finish(std::move(n));
  }

  // Whether `b` follows `a` with nothing between them ("P--", "--=Q").
  static bool touching(const Token& a, const Token& b) {
    return a.text.data() + a.text.size() == b.text.data();
  }

  // Whether a blank line comes before the current token: it ends a path in CQL.
  [[nodiscard]] bool after_blank_line() const {
    if (at_ == 0) return false;
    const Token& before = tokens_[at_ - 1];
    const char* begin = before.text.data() + before.text.size();
    const char* end = peek().text.data();
    if (end < begin) return false;
    const std::string_view gap(begin, static_cast<size_t>(end - begin));
    for (size_t line = gap.find('\n'); line != std::string_view::npos;) {
      const size_t next = gap.find('\n', line + 1);
      if (next == std::string_view::npos) break;
      if (gap.substr(line + 1, next - line - 1).find_first_not_of(" \t\r") == std::string_view::npos)
        return true;
      line = next;
    }
    return false;
  }

  [[nodiscard]] bool at_dash(size_t ahead = 0) const {
    return peek(ahead).kind == TokenKind::Dash || peek(ahead).kind == TokenKind::CaptureDash;
  }
  // A set tied to a dash on its left ("P--", "Front--").
  [[nodiscard]] bool tied_dash() const {
    return (at(TokenKind::PieceDesignator) || at(TokenKind::Identifier)) && at_dash(1) &&
           touching(peek(), peek(1));
  }
  [[nodiscard]] bool dash_ahead() const { return at_dash() || tied_dash(); }

  // The set tied to a dash on its left: a designator or a variable.
  NodePtr dash_left() {
    const Token& t = take();
    if (t.kind == TokenKind::PieceDesignator) {
      auto n = make(NodeKind::Designator, t.range, std::string(t.text));
      n->pieces = t.pieces;
      n->squares = t.squares;
      return n;
    }
    if (is_cql_reserved(t.value)) fail(t.range, unsupported_word_message(t.value));
    return make(NodeKind::Variable, t.range, t.value);
  }

  // The squares and promotion of a dash of `kind` (PathDash or Dash): [S]--[S][=P].
  NodePtr dash_move(NodeKind kind, NodePtr left = nullptr) {
    auto n = make(kind, left ? left->range : peek().range);
    if (left || !at_dash()) {
      n->move_roles.push_back(MoveRole::From);
      n->children.push_back(left ? std::move(left) : dash_left());
    }
    const Token& dash = take();
    if (dash.kind == TokenKind::CaptureDash) n->flags |= FlagCapture;
    if (touching(dash, peek()) && starts_filter() && !at(TokenKind::LParen) && !at_brace_repetition()) {
      // As CQL's match_dash_right: a set with its arrows, unions and intersections ("――~T∩□").
      n->move_roles.push_back(MoveRole::To);
      n->children.push_back(set_level());
    }
    if (at(TokenKind::Assign)) {
      take();
      if (at(TokenKind::PieceDesignator)) {
        n->pieces = take().pieces;
      } else if (starts_filter()) {  // a string of men's letters, as CQL's match_dash_promotion
        n->move_roles.push_back(MoveRole::Promote);
        n->children.push_back(filter());
      } else {
        fail_expected("a piece designator or a string after '='");
      }
    }
    return n;
  }

  // A dash written next to the set before it takes the whole set, with its arrows, unions and
  // intersections, as CQL's match_mulop_x ties it: "♕♖∩~T――(from)" is "(♕♖∩~T)――(from)", and
  // "x:K――" is "(x:K)――".
  NodePtr left_tied_dash(NodePtr set) {
    if (!at_dash() || !touching(tokens_[at_ - 1], peek())) return set;
    return dash_filter(std::move(set));
  }

  // CQL's dash as a filter, outside path: [S]--[S][=P][(f ...)]: one of the moves played from the
  // position fits and the filters in parentheses (written next to the dash) match after it.
  NodePtr dash_filter(NodePtr left = nullptr) {
    NodePtr n = dash_move(NodeKind::Dash, std::move(left));
    if (at(TokenKind::LParen) && touching(tokens_[at_ - 1], peek())) {
      const SourceRange open = take().range;
      const SequenceLevel level(*this, Sequence::None);
      while (!accept(TokenKind::RParen)) {
        if (!starts_filter())
          fail_expected("a filter or ')' to close the '(' at " + std::to_string(open.line) + ":" +
                        std::to_string(open.column));
        n->move_roles.push_back(MoveRole::Body);
        n->children.push_back(filter());
      }
    }
    return finish(std::move(n));
  }

  // {m,n}, {m,}, {,n}, {m}, {*} or {+} at the current token (`ahead` tokens after it).
  [[nodiscard]] bool at_brace_repetition(size_t ahead = 0) const {
    if (peek(ahead).kind != TokenKind::LBrace) return false;
    const TokenKind k1 = peek(ahead + 1).kind;
    if ((k1 == TokenKind::Star || k1 == TokenKind::Plus) && peek(ahead + 2).kind == TokenKind::RBrace)
      return true;
    size_t i = ahead + 1;
    if (peek(i).kind == TokenKind::Number) ++i;
    if (peek(i).kind == TokenKind::Comma) ++i;
    if (peek(i).kind == TokenKind::Number) ++i;
    return i > ahead + 1 && peek(i).kind == TokenKind::RBrace && !(i == ahead + 2 && k1 == TokenKind::Comma);
  }

  // The bounds of the repetition at the current token: '*', '+', '?' or one at_brace_repetition;
  // none (nothing read) at anything else.
  struct Repetition {
    int64_t low = 0;
    int64_t high = INT64_MAX;
    bool plus = false;     // '+' or '{+}'
    bool counted = false;  // {m,n}, {m,}, {,n} or {m}
  };
  std::optional<Repetition> repetition() {
    const Token& t = peek();
    if (accept(TokenKind::Star)) return Repetition{};
    if (accept(TokenKind::Plus)) return Repetition{.low = 1, .plus = true};
    if (accept(TokenKind::Question)) return Repetition{.high = 1};
    if (!at_brace_repetition()) return std::nullopt;
    take();
    Repetition r;
    if (accept(TokenKind::Plus)) {
      r = {.low = 1, .plus = true};
    } else if (!accept(TokenKind::Star)) {
      r.counted = true;
      r.low = at(TokenKind::Number) ? take().number : 0;
      r.high = accept(TokenKind::Comma) ? (at(TokenKind::Number) ? take().number : INT64_MAX) : r.low;
    }
    take();
    if (r.low > r.high) fail(t.range.to(previous_range()), "in '{m,n}' m must not exceed n");
    return r;
  }

  // Whether a '+' or '*' at the current token repeats a constituent of the sequence being read
  // rather than adds or multiplies: in a path always; in a line when it is a wildcard (CQL's
  // at_wildcard_terminator): followed by what ends a constituent ('-->', '<--', ')', '}', the end,
  // '?', a {m,n}), maybe after more '+' and '*' ("check + --> mate": the '+' repeats check).
  [[nodiscard]] bool repeats_here() const {
    if (sequence_ != Sequence::Line) return sequence_ == Sequence::Path;
    size_t i = 1;
    while (peek(i).kind == TokenKind::Plus || peek(i).kind == TokenKind::Star) ++i;
    switch (peek(i).kind) {
      case TokenKind::End:
      case TokenKind::RBrace:
      case TokenKind::RParen:
      case TokenKind::LongArrow:
      case TokenKind::LongBackArrow:
      case TokenKind::Question: return true;
      default: return at_brace_repetition(i);
    }
  }

  [[nodiscard]] bool starts_path_step() const {
    if (after_blank_line() || at_brace_repetition()) return false;
    return at(TokenKind::LParen) || dash_ahead() || starts_filter();
  }

  NodePtr path_step() {
    const DepthGuard guard(*this);
    NodePtr step;
    if (at(TokenKind::LParen)) {
      const SourceRange open = take().range;
      step = make(NodeKind::PathChain, open);
      while (!accept(TokenKind::RParen)) {
        if (!starts_path_step())
          fail_expected("a constituent of 'path' or ')' to close the '(' at " + std::to_string(open.line) +
                        ":" + std::to_string(open.column));
        step->children.push_back(path_step());
      }
      if (step->children.empty()) fail(open.to(previous_range()), "empty '()' in 'path'");
      step = finish(std::move(step));
    } else if (dash_ahead()) {
      step = path_dash();
    } else {
      NodePtr f = filter();  // a filter matched where the path has come to; no repetition applies
      if (at(TokenKind::Star) || at(TokenKind::Plus) || at(TokenKind::Question) || at_brace_repetition())
        fail(peek().range,
             "a repetition in 'path' repeats a '--' (with the filters after it) or a '( ... )', "
             "not a filter alone");
      return f;
    }
    return path_repetition(std::move(step));
  }

  // [S]--[S][=P] targets..., or the same with [x]: a move (a capture) from the set on the left to
  // the one on the right, then the filters after it at the position it leads to.
  // A '( ... )' after a dash is one of its targets, as CQL parses it, unless it holds a dash: then
  // it is a chain of constituents.
  NodePtr path_dash() {
    NodePtr n = dash_move(NodeKind::PathDash);
    while (starts_path_step() && !(at(TokenKind::LParen) && group_has_dash()) && !dash_ahead()) {
      n->move_roles.push_back(MoveRole::Body);
      n->children.push_back(filter());
    }
    return finish(std::move(n));
  }

  // Whether the '( ... )' at the current token holds a dash.
  [[nodiscard]] bool group_has_dash() const {
    int depth = 0;
    for (size_t i = 0; peek(i).kind != TokenKind::End; ++i) {
      const TokenKind k = peek(i).kind;
      if (k == TokenKind::Dash || k == TokenKind::CaptureDash) return true;
      if (k == TokenKind::LParen) ++depth;
      if (k == TokenKind::RParen && --depth == 0) return false;
    }
    return false;
  }

  NodePtr path_repetition(NodePtr step) {
    const std::optional<Repetition> r = repetition();
    if (!r) return step;
    if (!moves(*step)) fail(step->range, "a repetition in 'path' needs a move ('--') in what it repeats");
    NodePtr n = repeated(std::move(step), *r);
    if (at(TokenKind::Star) || at(TokenKind::Plus) || at(TokenKind::Question) || at_brace_repetition())
      fail(peek().range, "two repetitions in a row in 'path'");
    return n;
  }

  // `step` repeated as `r` says, up to the last token read.
  NodePtr repeated(NodePtr step, const Repetition& r) const {
    auto n = make(NodeKind::PathRepeat, step->range.to(previous_range()));
    n->number = r.low;
    n->high = r.high;
    n->children.push_back(std::move(step));
    return n;
  }

  // Whether every match of a constituent plays a move, so that repeating it cannot loop in place.
  static bool moves(const Node& step) {
    switch (step.kind) {
      case NodeKind::PathDash: return true;
      case NodeKind::PathChain:
        return std::any_of(step.children.begin(), step.children.end(),
                           [](const NodePtr& c) { return moves(*c); });
      case NodeKind::PathRepeat: return step.number > 0 && moves(step.child(0));
      default: return false;
    }
  }

  // ---- line (CQL's older sequence filter): parameters, then '-->' (or '<--', back to the start)
  // before each constituent: a filter, matched at one position of the line, or a '( ... )' of
  // constituents with the same arrows between them, each maybe repeated (*, +, ?, {m,n}).

  NodePtr line() {
    auto n = make(NodeKind::Line, take().range);
    line_parameters(*n);
    const bool back = at(TokenKind::LongBackArrow);
    if (!back && !at(TokenKind::LongArrow)) fail_expected("'-->' or '<--' after 'line' and its parameters");
    if (back) {
      n->flags |= FlagPrevious;
      for (const auto& [flag, k] :
           {std::pair{FlagNestBan, Keyword::NestBan}, std::pair{FlagPrimary, Keyword::Primary},
            std::pair{FlagSecondary, Keyword::Secondary}})
        if (n->has(flag)) fail(n->range.to(peek().range), quoted(k) + " cannot be used with 'line <--'");
    }
    const SequenceLevel level(*this, Sequence::Line);
    const TokenKind arrow = peek().kind;
    while (accept(arrow)) n->children.push_back(line_constituent(arrow));
    wrong_arrow(arrow);
    return finish(std::move(n));
  }

  // singlecolor, primary, secondary, nestban, firstmatch, lastposition, quiet and a range of
  // lengths (one number: exactly that), each at most once.
  void line_parameters(Node& n) {
    const auto& Flags = LineParameterFlags;
    bool quiet = false;
    while (true) {
      const Token& word = peek();
      const auto flag = std::find_if(Flags.begin(), Flags.end(), [&](const auto& f) {
        return word.kind == TokenKind::Keyword && f.first == word.keyword;
      });
      const bool twice = flag != Flags.end() ? n.has(flag->second) : at_keyword(Keyword::Quiet) && quiet;
      if (twice) fail(word.range, "'" + std::string(word.text) + "' given twice in 'line'");
      if (flag != Flags.end()) {
        take();
        n.flags |= flag->second;
      } else if (accept_keyword(Keyword::Quiet)) {
        quiet = true;  // CQL's quiet drops the line's comments, which egtb does not write
      } else if (at(TokenKind::Number) && !n.has(FlagCount)) {
        n.flags |= FlagCount;
        n.number = take().number;
        n.high = at(TokenKind::Number) ? take().number : n.number;
      } else {
        break;
      }
    }
    if (n.has(FlagPrimary) && n.has(FlagSecondary))
      fail(n.range.to(previous_range()), "'line' cannot be both 'primary' and 'secondary'");
  }

  // A constituent of a line whose constituents follow `arrow`, and its repetitions.
  NodePtr line_constituent(TokenKind arrow) {
    const DepthGuard guard(*this);
    NodePtr c;
    if (at(TokenKind::LParen)) {
      const SourceRange open = take().range;
      c = make(NodeKind::PathChain, open);
      c->children.push_back(line_constituent(arrow));
      while (accept(arrow)) c->children.push_back(line_constituent(arrow));
      wrong_arrow(arrow);
      expect(TokenKind::RParen, "'" + std::string(operator_spelling(arrow)) +
                                    "' or ')' to close the '(' at " + std::to_string(open.line) + ":" +
                                    std::to_string(open.column));
      c = finish(std::move(c));
    } else {
      if (!starts_filter())
        fail_expected("a filter or '(' after '" + std::string(operator_spelling(arrow)) + "'");
      c = filter();
      // CQL refuses these as likely mistakes ("line --> check --> 2": a range meant?).
      if (c->kind == NodeKind::Number || c->kind == NodeKind::Arith ||
          (c->kind == NodeKind::Variable && numeric_variables_.count(c->name)))
        fail(c->range, "a number is no constituent of 'line' (put the filter in braces: '{...}')");
    }
    return line_repetitions(std::move(c));
  }

  // The repetitions after a constituent of a line, as CQL allows them: none of what may match no
  // position (check**, (check? --> mate*)+), no '+' or {m,n} of a '+'.
  NodePtr line_repetitions(NodePtr c) {
    bool plus = false;
    while (true) {
      const bool wildcard = !(at(TokenKind::Star) || at(TokenKind::Plus)) || repeats_here();
      const Token& t = peek();
      const std::optional<Repetition> r = wildcard ? repetition() : std::nullopt;
      if (!r) return c;
      if (matches_nothing(*c) || (plus && (r->plus || r->counted)))
        fail(t.range.to(previous_range()),
             "'" + std::string(t.kind == TokenKind::LBrace ? "{m,n}" : t.text) + "' cannot repeat " +
                 (plus ? "a '+'" : "what may match no position") + " in 'line'");
      plus = r->plus;
      c = repeated(std::move(c), *r);
    }
  }

  // Whether a constituent of a line may match no position (CQL's matchesNull).
  static bool matches_nothing(const Node& c) {
    switch (c.kind) {
      case NodeKind::PathChain:
        return std::all_of(c.children.begin(), c.children.end(),
                           [](const NodePtr& x) { return matches_nothing(*x); });
      case NodeKind::PathRepeat: return c.number == 0 || matches_nothing(c.child(0));
      default: return false;
    }
  }

  // Refuses the other arrow at the current token, in a line whose constituents follow `arrow`.
  void wrong_arrow(TokenKind arrow) const {
    const TokenKind other = arrow == TokenKind::LongArrow ? TokenKind::LongBackArrow : TokenKind::LongArrow;
    if (at(other))
      fail(peek().range, "'" + std::string(operator_spelling(other)) + "' in a line of '" +
                             std::string(operator_spelling(arrow)) + "': one direction per line");
  }

  // countmoves legal [S]--[S]: the number of legal moves (from S to S), CQL's count of a legal dash
  // (countmoves pseudolegal ...: of the pseudolegal ones).
  NodePtr count_moves() {
    const Token& kw = take();
    auto n = make(NodeKind::Move, kw.range);
    n->flags |= FlagCount;
    n->keyword = Keyword::CountMoves;
    if (!at_keyword(Keyword::Legal) && !at_keyword(Keyword::PseudoLegal))
      fail_expected("'legal' or 'pseudolegal' after 'countmoves'");
    const std::string mode(take().text);
    if (mode == "pseudolegal") n->flags |= FlagPseudoLegal;
    if (!at_dash() && !(at(TokenKind::PieceDesignator) && at_dash(1) && touching(peek(), peek(1))))
      fail_expected("'--' after 'countmoves " + mode + "'");
    if (!at_dash()) {
      n->move_roles.push_back(MoveRole::From);
      n->children.push_back(primary());
    }
    const Token& dash = take();
    if (dash.kind == TokenKind::CaptureDash)
      fail(dash.range, unsupported_word_message("countmoves " + mode + " [x]"));
    if (touching(dash, peek()) && at(TokenKind::PieceDesignator)) {
      n->move_roles.push_back(MoveRole::To);
      n->children.push_back(primary());
    }
    return finish(std::move(n));
  }

  // isbound x, isunbound x (x a name, or quoted: isbound "x"), unbind x.
  NodePtr binding() {
    const Token& kw = take();
    auto n = make(NodeKind::Binding, kw.range);
    n->keyword = kw.keyword;
    const bool quoted_name = kw.keyword != Keyword::Unbind && at(TokenKind::String);
    if (!quoted_name && !at(TokenKind::Identifier))
      fail_expected(std::string("a variable's name after '") + std::string(kw.text) + "'");
    n->name = take().value;
    if (kw.keyword == Keyword::Unbind && dictionaries_.count(n->name)) {
      n->kind = NodeKind::DictUnbind;
      if (at(TokenKind::LBracket)) n->children.push_back(dictionary_key());
    }
    return finish(std::move(n));
  }

  // previous S--T(f), currentmove S--T(f): the dash filter on the move that led to the position.
  NodePtr previous_dash() {
    const Token& kw = take();
    if (!dash_ahead()) fail_expected("'--' after '" + std::string(kw.text) + "'");
    NodePtr n = dash_filter();
    n->range = kw.range.to(n->range);
    n->flags |= FlagPrevious;
    return n;
  }

  // legal S--T[(target)]: the squares legal moves from S go to on T (CQL's MoveLegalNode, as
  // 'move legal from S to T' with the target squares as value). CQL refuses a capture or a
  // promotion there, and takes one target at most, written next to the dash: o-o, o-o-o, castle
  // (the castlings of that side, of either) or enpassant (the en passant captures):
  // "legal --(o-o)" is the g1 (g8) of a legal short castling.
  NodePtr legal_dash() {
    const Token& kw = take();
    if (!dash_ahead()) fail_expected("'--' after '" + std::string(kw.text) + "'");
    NodePtr dash = dash_move(NodeKind::Dash);
    const std::string word = "'" + std::string(kw.text) + "'";
    if (dash->has(FlagCapture)) fail(dash->range, word + " takes no capturing dash '[x]', as in CQL");
    if (dash->pieces) fail(dash->range, word + " takes no promotion after its dash, as in CQL");
    auto n = make(NodeKind::Move, kw.range);
    if (kw.keyword == Keyword::PseudoLegal) n->flags |= FlagPseudoLegal;
    if (at(TokenKind::LParen) && touching(tokens_[at_ - 1], peek())) n->flags |= legal_target();
    n->keyword = Keyword::Legal;
    n->move_roles = std::move(dash->move_roles);
    n->children = std::move(dash->children);
    return finish(std::move(n));
  }

  // The flag of the target in '(...)' after the dash of 'legal --', at its '('.
  uint32_t legal_target() {
    const SourceRange open = take().range;
    const Token& word = peek();
    const auto target = std::find_if(
        LegalTargetFlags.begin(), LegalTargetFlags.end(),
        [&](const FlagWords& f) { return word.kind == TokenKind::Keyword && f.first == word.keyword; });
    if (target == LegalTargetFlags.end()) {
      std::string words;
      for (const auto& [k, flag] : LegalTargetFlags) {
        if (!words.empty()) words += ", ";
        words += quoted(k);
      }
      fail(word.range, "the target after 'legal --(' must be one of " + words + ", as in CQL");
    }
    take();
    expect(TokenKind::RParen, "')' to close the '(' at " + std::to_string(open.line) + ":" +
                                  std::to_string(open.column) + " after the target of 'legal --'");
    return target->second;
  }

  NodePtr line_end() {
    const Token& kw = take();
    auto n = make(NodeKind::LineEnd, kw.range);
    n->metric = *spelled<Metric>(LineEndWords, kw.keyword);
    if (accept_keyword(Keyword::All))
      n->flags |= FlagAll;
    else if (accept_keyword(Keyword::Any))
      n->flags |= FlagAny;
    expect(TokenKind::Colon, "':' after '" + std::string(kw.text) + "'");
    n->children.push_back(operand(&Parser::prefix, "':'"));
    return finish(std::move(n));
  }
};

}  // namespace

Expected<NodePtr, QueryError> parse(const Tokens& tokens) {
  try {
    return Parser(tokens).query();
  } catch (ParseFailure& f) {
    return unexpected(std::move(f.error));
  }
}

Expected<NodePtr, QueryError> parse(std::string_view source) {
  Expected<Tokens, QueryError> tokens = lex(source);
  if (!tokens) return unexpected(tokens.error());
  return parse(*tokens);
}

}  // namespace egtb::query
