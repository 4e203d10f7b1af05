#include "query/parser.hpp"

#include <algorithm>
#include <array>
#include <set>

namespace egtb::query {

namespace {

// Thrown inside the parser only; parse() turns it into an error value.
struct ParseFailure {
  QueryError error;
};

constexpr auto LeafKeywords = std::to_array<std::string_view>({"black",
                                                               "btm",
                                                               "check",
                                                               "dtm",
                                                               "dts",
                                                               "idealmate",
                                                               "idealstalemate",
                                                               "lasker",
                                                               "legalposition",
                                                               "mate",
                                                               "maxdtm",
                                                               "maxdts",
                                                               "modelmate",
                                                               "modelstalemate",
                                                               "puremate",
                                                               "purestalemate",
                                                               "reachableposition",
                                                               "sidetomove",
                                                               "stalemate",
                                                               "white",
                                                               "wtm",
                                                               "true",
                                                               "false"});

constexpr auto TransformKeywords =
    std::to_array<std::string_view>({"flip", "flipcolor", "fliphorizontal", "flipvertical", "reversecolor",
                                     "rotate90", "shift", "shifthorizontal", "shiftvertical"});

constexpr auto DirectionKeywords =
    std::to_array<std::string_view>({"up", "down", "left", "right", "northeast", "northwest", "southeast",
                                     "southwest", "diagonal", "orthogonal", "vertical", "horizontal"});

template <size_t N>
bool contains_word(const std::array<std::string_view, N>& words, std::string_view w) {
  return std::find(words.begin(), words.end(), w) != words.end();
}

bool is_relation(TokenKind k) {
  return k == TokenKind::Eq || k == TokenKind::Ne || k == TokenKind::Lt || k == TokenKind::Le ||
         k == TokenKind::Gt || k == TokenKind::Ge;
}

class Parser {
public:
  explicit Parser(const Tokens& tokens) : tokens_(tokens) {}

  NodePtr query() {
    auto root = std::make_unique<Node>(NodeKind::Query, peek().range);
    while (!at(TokenKind::End)) root->children.push_back(filter());
    if (!root->children.empty()) root->range = root->children.front()->range.to(root->children.back()->range);
    return root;
  }

private:
  const Tokens& tokens_;
  size_t at_ = 0;
  int depth_ = 0;
  std::set<std::string, std::less<>> functions_;

  // Counts nesting on entry to every recursive production.
  class DepthGuard {
  public:
    explicit DepthGuard(Parser& p) : p_(p) {
      if (++p_.depth_ > MaxParseDepth)
        throw ParseFailure{{p_.peek().range, "query nested too deeply (more than " +
                                                 std::to_string(MaxParseDepth) + " levels)"}};
    }
    ~DepthGuard() { --p_.depth_; }
    DepthGuard(const DepthGuard&) = delete;
    DepthGuard& operator=(const DepthGuard&) = delete;

  private:
    Parser& p_;
  };

  // ---- token access

  [[nodiscard]] const Token& peek(size_t ahead = 0) const {
    return tokens_[std::min(at_ + ahead, tokens_.size() - 1)];
  }
  [[nodiscard]] bool at(TokenKind k) const { return peek().kind == k; }
  [[nodiscard]] bool at_keyword(std::string_view word) const {
    return peek().kind == TokenKind::Keyword && peek().text == word;
  }
  const Token& take() {
    const Token& t = peek();
    if (at_ < tokens_.size() - 1) ++at_;
    return t;
  }
  bool accept(TokenKind k) {
    if (!at(k)) return false;
    take();
    return true;
  }
  bool accept_keyword(std::string_view word) {
    if (!at_keyword(word)) return false;
    take();
    return true;
  }
  [[nodiscard]] const SourceRange& previous_range() const { return tokens_[at_ == 0 ? 0 : at_ - 1].range; }

  [[noreturn]] void fail(const SourceRange& r, std::string message) const {
    throw ParseFailure{{r, std::move(message)}};
  }
  [[noreturn]] void fail_expected(std::string_view what) const {
    const Token& t = peek();
    const std::string found = t.kind == TokenKind::End ? "end of query" : "'" + std::string(t.text) + "'";
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
  static NodePtr binary(NodeKind kind, NodePtr l, NodePtr r, std::string name = {}) {
    auto n = make(kind, l->range.to(r->range), std::move(name));
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

  NodePtr filter() {
    DepthGuard guard(*this);
    NodePtr left = and_level();
    while (accept_keyword("or"))
      left = binary(NodeKind::Or, std::move(left), operand(&Parser::and_level, "or"));
    return left;
  }

  // The right operand of a binary operator, with "expected a filter after 'op'" when missing.
  NodePtr operand(NodePtr (Parser::*level)(), std::string_view op) {
    if (!starts_filter()) fail_expected("a filter after '" + std::string(op) + "'");
    return (this->*level)();
  }

  NodePtr and_level() {
    NodePtr left = in_level();
    while (accept_keyword("and"))
      left = binary(NodeKind::And, std::move(left), operand(&Parser::in_level, "and"));
    return left;
  }

  NodePtr in_level() {
    NodePtr left = relation_level();
    if (!accept_keyword("in")) return left;
    return binary(NodeKind::In, std::move(left), operand(&Parser::set_level, "in"));
  }

  NodePtr relation_level() {
    DepthGuard guard(*this);
    NodePtr left = additive_level();
    if (!is_relation(peek().kind)) return left;
    const std::string op(take().text);
    return binary(NodeKind::Compare, std::move(left), operand(&Parser::relation_level, op), op);
  }

  NodePtr additive_level() {
    NodePtr left = multiplicative_level();
    while (at(TokenKind::Plus) || at(TokenKind::Minus)) {
      const std::string op(take().text);
      left = binary(NodeKind::Arith, std::move(left), operand(&Parser::multiplicative_level, op), op);
    }
    return left;
  }

  NodePtr multiplicative_level() {
    NodePtr left = set_level();
    while (at(TokenKind::Star) || at(TokenKind::Slash) || at(TokenKind::Percent)) {
      const std::string op(take().text);
      left = binary(NodeKind::Arith, std::move(left), operand(&Parser::set_level, op), op);
    }
    return left;
  }

  // Attack arrows: a chain of one arrow direction, "a -> b -> c".
  NodePtr set_level() {
    NodePtr first = union_level();
    if (!at(TokenKind::Arrow) && !at(TokenKind::BackArrow)) return first;
    const TokenKind arrow = peek().kind;
    const std::string op(peek().text);
    auto chain = make(NodeKind::AttackChain, first->range, op);
    chain->children.push_back(std::move(first));
    while (accept(arrow)) chain->children.push_back(operand(&Parser::union_level, op));
    chain->range = chain->range.to(chain->children.back()->range);
    return chain;
  }

  NodePtr union_level() {
    NodePtr left = intersection_level();
    while (accept(TokenKind::Bar))
      left = binary(NodeKind::Union, std::move(left), operand(&Parser::intersection_level, "|"));
    return left;
  }

  NodePtr intersection_level() {
    NodePtr left = attack_level();
    while (accept(TokenKind::Amp))
      left = binary(NodeKind::Intersect, std::move(left), operand(&Parser::attack_level, "&"));
    return left;
  }

  NodePtr attack_level() {
    NodePtr left = prefix();
    while (at_keyword("attacks") || at_keyword("attackedby")) {
      const std::string op(take().text);
      const NodeKind kind = op == "attacks" ? NodeKind::Attacks : NodeKind::AttackedBy;
      if (!starts_filter()) fail_expected("square set after '" + op + "'");
      left = binary(kind, std::move(left), prefix());
    }
    return left;
  }

  // ---- prefix filters

  [[nodiscard]] bool starts_filter() const {
    switch (peek().kind) {
      case TokenKind::End:
      case TokenKind::RParen:
      case TokenKind::RBrace:
      case TokenKind::Comma:
      case TokenKind::Colon: return false;
      case TokenKind::Keyword: {
        const std::string_view w = peek().text;
        return w != "or" && w != "and" && w != "in" && w != "then" && w != "else" && w != "attacks" &&
               w != "attackedby" && w != "from" && w != "through" && w != "to" && w != "capture" &&
               w != "promote" && w != "count" && w != "all";
      }
      case TokenKind::Identifier:
      case TokenKind::Number:
      case TokenKind::String:
      case TokenKind::PieceDesignator:
      case TokenKind::LParen:
      case TokenKind::LBrace:
      case TokenKind::Tilde:
      case TokenKind::Hash:
      case TokenKind::Minus: return true;
      default: return false;
    }
  }

  NodePtr prefix() {
    DepthGuard guard(*this);
    const Token& t = peek();
    switch (t.kind) {
      case TokenKind::Number: {
        auto n = make(NodeKind::Number, take().range);
        n->number = t.number;
        return n;
      }
      case TokenKind::String: return make(NodeKind::String, take().range, t.value);
      case TokenKind::PieceDesignator: {
        auto n = make(NodeKind::Designator, take().range, std::string(t.text));
        n->pieces = t.pieces;
        n->squares = t.squares;
        return n;
      }
      case TokenKind::LParen: return parenthesized();
      case TokenKind::LBrace: return block();
      case TokenKind::Tilde: return unary(NodeKind::Complement, &Parser::attack_level, "~");
      case TokenKind::Hash: return unary(NodeKind::Count, &Parser::set_level, "#");
      case TokenKind::Minus: return unary(NodeKind::Negate, &Parser::prefix, "-");
      case TokenKind::Identifier: return identifier();
      case TokenKind::Keyword: return keyword();
      default: fail_expected("a filter");
    }
  }

  NodePtr unary(NodeKind kind, NodePtr (Parser::*level)(), std::string_view op) {
    auto n = make(kind, take().range);
    n->children.push_back(operand(level, op));
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
    const std::string name(t.text);
    if (accept(TokenKind::Assign)) {
      auto n = make(NodeKind::Assign, t.range, name);
      n->children.push_back(operand(&Parser::additive_level, "="));
      return finish(std::move(n));
    }
    if (functions_.count(name) && at(TokenKind::LParen)) return call(t);
    return make(NodeKind::Variable, t.range, name);
  }

  NodePtr call(const Token& name) {
    auto n = make(NodeKind::Call, name.range, std::string(name.text));
    take();
    while (!accept(TokenKind::RParen)) {
      if (!starts_filter()) fail_expected("an argument or ')' in the call of '" + n->name + "'");
      n->children.push_back(filter());
      accept(TokenKind::Comma);
    }
    return finish(std::move(n));
  }

  NodePtr keyword() {
    const std::string_view w = peek().text;
    if (contains_word(LeafKeywords, w)) return make(NodeKind::Keyword, take().range, std::string(w));
    if (contains_word(TransformKeywords, w)) return transform();
    if (w == "not") return unary(NodeKind::Not, &Parser::in_level, "not");
    if (w == "if") return if_filter();
    if (w == "square" || w == "piece") return loop();
    if (w == "function") return function();
    if (w == "sort") return sort();
    if (w == "abs") return unary(NodeKind::Abs, &Parser::additive_level, "abs");
    if (w == "max" || w == "min") return extremum();
    if (w == "pin") return pin();
    if (w == "ray" || w == "xray") return ray();
    if (w == "between" || w == "distance") return pair();
    if (w == "power") return unary(NodeKind::Power, &Parser::set_level, "power");
    if (w == "light" || w == "dark")
      return unary(w == "light" ? NodeKind::Light : NodeKind::Dark, &Parser::prefix, w);
    if (w == "notransform") return unary(NodeKind::NoTransform, &Parser::filter, "notransform");
    if (w == "fen") return fen();
    if (w == "message" || w == "comment") return message();
    if (w == "move") return move();
    if (w == "imagine") return imagine();
    if (w == "dtsend" || w == "dtmend") return line_end();
    fail(peek().range, "unexpected '" + std::string(w) + "': expected a filter");
  }

  NodePtr transform() {
    auto n = make(NodeKind::Transform, peek().range, std::string(take().text));
    if (accept_keyword("count")) n->flags |= FlagCount;
    n->children.push_back(operand(&Parser::filter, n->name));
    return finish(std::move(n));
  }

  NodePtr if_filter() {
    auto n = make(NodeKind::If, take().range);
    n->children.push_back(operand(&Parser::filter, "if"));
    accept_keyword("then");
    n->children.push_back(operand(&Parser::filter, "then"));
    if (accept_keyword("else")) n->children.push_back(operand(&Parser::filter, "else"));
    return finish(std::move(n));
  }

  NodePtr loop() {
    const Token& kw = take();
    auto n = make(kw.text == "square" ? NodeKind::SquareLoop : NodeKind::PieceLoop, kw.range);
    if (accept_keyword("all")) n->flags |= FlagAll;
    n->name = std::string(
        expect(TokenKind::Identifier, "a variable name after '" + std::string(kw.text) + "'").text);
    if (!accept_keyword("in")) fail_expected("'in' after '" + std::string(kw.text) + " " + n->name + "'");
    n->children.push_back(operand(&Parser::set_level, "in"));
    n->children.push_back(operand(&Parser::filter, n->name + " in ..."));
    return finish(std::move(n));
  }

  NodePtr function() {
    auto n = make(NodeKind::Function, take().range);
    n->name = std::string(expect(TokenKind::Identifier, "a function name after 'function'").text);
    expect(TokenKind::LParen, "'(' after the function name");
    while (!accept(TokenKind::RParen)) {
      n->params.emplace_back(expect(TokenKind::Identifier, "a parameter name or ')'").text);
      accept(TokenKind::Comma);
    }
    if (!at(TokenKind::LBrace)) fail_expected("'{' to begin the body of function '" + n->name + "'");
    functions_.insert(n->name);
    n->children.push_back(block());
    return finish(std::move(n));
  }

  NodePtr sort() {
    auto n = make(NodeKind::Sort, take().range);
    if (accept_keyword("min"))
      n->flags |= FlagMin;
    else if (accept_keyword("max"))
      n->flags |= FlagMax;
    if (at(TokenKind::String)) n->name = take().value;
    n->children.push_back(operand(&Parser::filter, "sort"));
    return finish(std::move(n));
  }

  NodePtr extremum() {
    const Token& kw = take();
    auto n = make(kw.text == "max" ? NodeKind::Max : NodeKind::Min, kw.range);
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
    auto n = make(NodeKind::Pin, take().range);
    while (at_keyword("from") || at_keyword("through") || at_keyword("to")) {
      const std::string role(take().text);
      if (std::find(n->params.begin(), n->params.end(), role) != n->params.end())
        fail(previous_range(), "'" + role + "' given twice in 'pin'");
      n->params.push_back(role);
      n->children.push_back(operand(&Parser::prefix, role));
    }
    return finish(std::move(n));
  }

  NodePtr ray() {
    const Token& kw = take();
    auto n = make(kw.text == "ray" ? NodeKind::Ray : NodeKind::XRay, kw.range);
    while (n->kind == NodeKind::Ray && peek().kind == TokenKind::Keyword &&
           (contains_word(DirectionKeywords, peek().text) || peek().text == "attack"))
      n->params.emplace_back(take().text);
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
    auto n = make(kw.text == "between" ? NodeKind::Between : NodeKind::Distance, kw.range);
    expect(TokenKind::LParen, "'(' after '" + std::string(kw.text) + "'");
    n->children.push_back(operand(&Parser::set_level, "("));
    n->children.push_back(operand(&Parser::set_level, std::string(kw.text) + " (..."));
    expect(TokenKind::RParen, "')' after the two arguments of '" + std::string(kw.text) + "'");
    return finish(std::move(n));
  }

  NodePtr fen() {
    auto n = make(NodeKind::Fen, take().range);
    if (at(TokenKind::String)) n->name = take().value;
    return finish(std::move(n));
  }

  NodePtr message() {
    const Token& kw = take();
    auto n = make(NodeKind::Message, kw.range, std::string(kw.text));
    if (accept(TokenKind::LParen)) {
      while (!accept(TokenKind::RParen)) {
        if (!starts_filter()) fail_expected("an argument or ')'");
        n->children.push_back(filter());
      }
    } else {
      n->children.push_back(operand(&Parser::prefix, kw.text));
    }
    return finish(std::move(n));
  }

  NodePtr move() {
    auto n = make(NodeKind::Move, take().range);
    if (!at_keyword("legal")) fail_expected("'legal' after 'move' (the speculative move filter)");
    n->name = std::string(take().text);
    while (true) {
      if (accept_keyword("count"))
        n->flags |= FlagCount;
      else if (accept_keyword("all"))
        n->flags |= FlagAll;
      else if (at_keyword("from") || at_keyword("to") || at_keyword("capture") || at_keyword("promote")) {
        const std::string role(take().text);
        n->params.push_back(role);
        n->children.push_back(operand(&Parser::prefix, role));
      } else
        break;
    }
    if (accept(TokenKind::Colon)) {
      n->params.emplace_back("body");
      n->children.push_back(operand(&Parser::prefix, ":"));
    }
    return finish(std::move(n));
  }

  NodePtr imagine() {
    auto n = make(NodeKind::Imagine, take().range);
    while (!accept(TokenKind::Colon)) n->children.push_back(imagine_spec());
    if (n->children.empty())
      fail(previous_range(), "'imagine' needs at least one of 'piece', 'swap', 'sidetomove'");
    n->children.push_back(operand(&Parser::prefix, ":"));
    return finish(std::move(n));
  }

  NodePtr imagine_spec() {
    if (at_keyword("piece")) {
      auto s = make(NodeKind::ImagineSpec, take().range, "piece");
      if (!at(TokenKind::PieceDesignator)) fail_expected("a piece designator after 'piece'");
      s->children.push_back(prefix());
      expect(TokenKind::LongArrow, "'-->' after the piece designator");
      s->children.push_back(operand(&Parser::set_level, "-->"));
      return finish(std::move(s));
    }
    if (at_keyword("swap")) {
      auto s = make(NodeKind::ImagineSpec, take().range, "swap");
      s->children.push_back(operand(&Parser::prefix, "swap"));
      s->children.push_back(operand(&Parser::prefix, "swap"));
      return finish(std::move(s));
    }
    if (at_keyword("sidetomove")) {
      auto s = make(NodeKind::ImagineSpec, take().range, "sidetomove");
      if (!at_keyword("white") && !at_keyword("black") && !at_keyword("reverse"))
        fail_expected("'white', 'black' or 'reverse' after 'sidetomove'");
      s->params.emplace_back(take().text);
      return finish(std::move(s));
    }
    fail_expected("'piece', 'swap', 'sidetomove' or ':' in 'imagine'");
  }

  NodePtr line_end() {
    const Token& kw = take();
    auto n = make(NodeKind::LineEnd, kw.range, std::string(kw.text));
    if (accept_keyword("all"))
      n->flags |= FlagAll;
    else if (accept_keyword("any"))
      n->flags |= FlagAny;
    expect(TokenKind::Colon, "':' after '" + std::string(kw.text) + "'");
    n->children.push_back(operand(&Parser::prefix, ":"));
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
