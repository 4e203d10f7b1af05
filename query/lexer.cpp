#include "query/lexer.hpp"

#include <algorithm>
#include <array>
#include <optional>

namespace egtb::query {

namespace {

constexpr bool is_word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}
constexpr bool is_file(char c) { return c >= 'a' && c <= 'h'; }
constexpr bool is_rank(char c) { return c >= '1' && c <= '8'; }

// The men one designator character stands for, or 0.
PieceMask piece_char_mask(char c) {
  switch (c) {
    case 'A': return WhiteMen;
    case 'a': return BlackMen;
    case '_': return EmptyBit;
    default: break;
  }
  const std::optional<Piece> p = piece_from_char(c);
  return p ? static_cast<PieceMask>(1u << to_index(*p)) : PieceMask{0};
}

// A designator being read from text; `at` is the next unread character.
struct Scan {
  std::string_view text;
  size_t at = 0;

  [[nodiscard]] char peek(size_t ahead = 0) const {
    return at + ahead < text.size() ? text[at + ahead] : '\0';
  }
};

// "e4", "a-h1", "c1-8", "a-h1-8": one rectangle of squares.
std::optional<Bitboard> scan_square_range(Scan& s) {
  if (!is_file(s.peek())) return std::nullopt;
  const Scan start = s;
  const int f1 = s.peek() - 'a';
  int f2 = f1;
  ++s.at;
  if (s.peek() == '-' && is_file(s.peek(1))) {
    f2 = s.peek(1) - 'a';
    s.at += 2;
  }
  if (!is_rank(s.peek())) {
    s = start;
    return std::nullopt;
  }
  const int r1 = s.peek() - '1';
  int r2 = r1;
  ++s.at;
  if (s.peek() == '-' && is_rank(s.peek(1))) {
    r2 = s.peek(1) - '1';
    s.at += 2;
  }
  Bitboard b = 0;
  for (int f = std::min(f1, f2); f <= std::max(f1, f2); ++f)
    for (int r = std::min(r1, r2); r <= std::max(r1, r2); ++r) b |= square_bb(make_square(f, r));
  return b;
}

// A square range or a bracketed list of them: "[b-h2,d5]"; "[]" is CQL's empty set.
std::optional<Bitboard> scan_squares(Scan& s) {
  if (s.peek() != '[') return scan_square_range(s);
  Scan t = s;
  ++t.at;
  if (t.peek() == ']') {
    s.at = t.at + 1;
    return Bitboard{0};
  }
  Bitboard all = 0;
  while (true) {
    const std::optional<Bitboard> b = scan_square_range(t);
    if (!b) return std::nullopt;
    all |= *b;
    if (t.peek() == ',') {
      ++t.at;
      continue;
    }
    if (t.peek() != ']') return std::nullopt;
    ++t.at;
    s = t;
    return all;
  }
}

// "K", "A", "_" or a bracketed list "[Qq]".
std::optional<PieceMask> scan_pieces(Scan& s) {
  if (s.peek() != '[') {
    const PieceMask m = piece_char_mask(s.peek());
    if (!m) return std::nullopt;
    ++s.at;
    return m;
  }
  Scan t = s;
  ++t.at;
  PieceMask all = 0;
  while (t.peek() != ']') {
    const PieceMask m = piece_char_mask(t.peek());
    if (!m) return std::nullopt;
    all = static_cast<PieceMask>(all | m);
    ++t.at;
  }
  if (!all) return std::nullopt;
  s = t;
  ++s.at;
  return all;
}

struct Designator {
  PieceMask pieces = AnyMen;
  Bitboard squares = AllSquares;
  size_t length = 0;
};

// A whole piece designator at the start of `text`, not followed by a word character.
std::optional<Designator> scan_designator(std::string_view text) {
  if (!text.empty() && text[0] == '.' && (text.size() == 1 || !is_word_char(text[1])))
    return Designator{AnyMen, AllSquares, 1};
  Scan s{text};
  Designator d;
  if (const std::optional<Bitboard> squares = scan_squares(s)) {
    d.squares = *squares;
  } else if (const std::optional<PieceMask> pieces = scan_pieces(s)) {
    d.pieces = *pieces;
    if (const std::optional<Bitboard> sq = scan_squares(s)) d.squares = *sq;
  } else {
    return std::nullopt;
  }
  if (is_word_char(s.peek())) return std::nullopt;
  d.length = s.at;
  return d;
}

struct OperatorSpelling {
  std::string_view text;
  TokenKind kind;
};

// Longest first, so that "-->" wins over "->" and "->" over "-", "<--" over "<-".
constexpr std::array<OperatorSpelling, 42> Operators = {{
    {"[element]", TokenKind::Element},
    {"[x]", TokenKind::CaptureDash},
    {"[<=]", TokenKind::PrecedesEq},
    {"[>=]", TokenKind::SucceedsEq},
    {"[<]", TokenKind::Precedes},
    {"[>]", TokenKind::Succeeds},
    {"~~", TokenKind::Match},
    {"+=", TokenKind::OpAssign},
    {"-=", TokenKind::OpAssign},
    {"*=", TokenKind::OpAssign},
    {"/=", TokenKind::OpAssign},
    {"%=", TokenKind::OpAssign},
    {"|=", TokenKind::OpAssign},
    {"&=", TokenKind::OpAssign},
    {"-->", TokenKind::LongArrow},
    {"<--", TokenKind::LongBackArrow},
    {"->", TokenKind::Arrow},
    {"--", TokenKind::Dash},
    {"<-", TokenKind::BackArrow},
    {"==", TokenKind::Eq},
    {"!=", TokenKind::Ne},
    {"<=", TokenKind::Le},
    {">=", TokenKind::Ge},
    {"<", TokenKind::Lt},
    {">", TokenKind::Gt},
    {"=", TokenKind::Assign},
    {"&", TokenKind::Amp},
    {"|", TokenKind::Bar},
    {"~", TokenKind::Tilde},
    {"+", TokenKind::Plus},
    {"-", TokenKind::Minus},
    {"*", TokenKind::Star},
    {"/", TokenKind::Slash},
    {"%", TokenKind::Percent},
    {"#", TokenKind::Hash},
    {":", TokenKind::Colon},
    {"(", TokenKind::LParen},
    {")", TokenKind::RParen},
    {"{", TokenKind::LBrace},
    {"}", TokenKind::RBrace},
    {",", TokenKind::Comma},
    {"?", TokenKind::Question},
}};

// CQL's Unicode notation (uchar-strings.h of CQL 6.2) and the ASCII it stands for. Words are
// padded with blanks so that "✵Q" reads "flip Q".
struct UnicodeSpelling {
  std::string_view symbol;
  std::string_view ascii;
};
constexpr std::array<UnicodeSpelling, 25> UnicodeSpellings = {{
    {"\u2264", "<="},          {"\u2265", ">="},
    {"\u2260", "!="},          {"\u2192", "->"},
    {"\u2190", "<-"},          {"\u22A2", " path "},
    {"\u25CE", " focus "},     {"\u2219", " currentposition "},
    {"\u2735", " flip "},      {"\u2B13", " flipcolor "},
    {"\u00D7", "[x]"},         {"\u2200", " square all "},
    {"\u220A", " [element] "}, {"\u2229", "&"},
    {"\u222A", "|"},           {"\u227A", "[<]"},
    {"\u227B", "[>]"},         {"\u227C", "[<=]"},
    {"\u227D", "[>=]"},        {"\u2015\u2015", "--"},
    {"\u25BA", "--"},          {"\u25BB", "--"},
    {"\u2015", "-"},           {"\u25A6", " ."},
    {"\u25A1\u25A1", " [__]"},
}};

// CQL's Unicode men: a run of them is one designator ("♕♖♗" is [QRB], "□△" is [_A]), written
// after a blank so that "power△" reads "power A".
constexpr std::array<UnicodeSpelling, 16> UnicodeMen = {{
    {"\u2654", "K"},
    {"\u2655", "Q"},
    {"\u2656", "R"},
    {"\u2657", "B"},
    {"\u2658", "N"},
    {"\u2659", "P"},
    {"\u265A", "k"},
    {"\u265B", "q"},
    {"\u265C", "r"},
    {"\u265D", "b"},
    {"\u265E", "n"},
    {"\u265F", "p"},
    {"\u25B3", "A"},
    {"\u25B2", "a"},
    {"\u25ED", "Aa"},
    {"\u25A1", "_"},
}};

// The spelling of the symbol at the start of `text` in `table`, if any.
template <size_t N>
const UnicodeSpelling* symbol_at(const std::array<UnicodeSpelling, N>& table, std::string_view text) {
  for (const UnicodeSpelling& s : table)
    if (text.substr(0, s.symbol.size()) == s.symbol) return &s;
  return nullptr;
}

// A query in ASCII: CQL's Unicode symbols replaced by their ASCII spelling outside strings, with,
// for every byte of the ASCII text, the bytes of the source it comes from and whether it starts a
// character of the source (so that columns count the source's characters). Example: "♕==2" (♕ is
// 3 bytes) is "Q==2"; the Q comes from source bytes [0, 3) and starts column 1, "==" columns 2-3.
struct AsciiSpelling {
  std::string text;
  std::vector<size_t> from;  // source offset of the character byte i comes from
  std::vector<size_t> to;    // source offset just past it
  std::vector<bool> column;  // byte i starts a character of the source
};

// Whether `text` begins (ends) with a move dash of path, "――", "--", "×" or "[x]": a designator
// next to one stays next to it ("♟――=♗" is "p--=B": a black pawn moves and promotes).
bool starts_with_dash(std::string_view text) {
  return text.starts_with("\u2015\u2015") || text.starts_with("\u00D7") || text.starts_with("--") ||
         text.starts_with("[x]");
}
bool ends_with_dash(std::string_view text) { return text.ends_with("--") || text.ends_with("[x]"); }

// A run of Unicode men from `at` as one designator (" Q", " [QRB]"); returns the offset after it.
// `before` is the ASCII text so far.
template <typename Put>
size_t put_men(std::string_view source, size_t at, std::string_view before, const Put& put) {
  const size_t start = at;
  std::string men;
  while (const UnicodeSpelling* m = symbol_at(UnicodeMen, source.substr(at))) {
    men += m->ascii;
    at += m->symbol.size();
  }
  // Squares may follow ("♙a-h2", "♖[a1,h1]"); a blank ends the designator before anything else
  // ("◭T∊♖" reads " [Aa] T [element] R").
  const char next = at < source.size() ? source[at] : '\0';
  const char after = at + 1 < source.size() ? source[at + 1] : '\0';
  const bool squares = next == '[' || (is_file(next) && (is_rank(after) || after == '-'));
  const std::string lead = ends_with_dash(before) ? "" : " ";
  const bool tied = squares || starts_with_dash(source.substr(at));
  put(lead + (men.size() == 1 ? men : "[" + men + "]") + (tied ? "" : " "), start, at);
  return at;
}

// Where the text to copy as it is from `at` ends, or `at` if none begins there: a comment ("/* ...
// */", or "// ..." up to the end of its line), so that its quotes open no string ("/* sort "a"" */
// ✵Q" still reads "flip Q"), or the "///" of CQL's comment filter, so that its last two slashes
// begin no comment ("///"x" ▲" reads "///"x" a").
size_t verbatim_end(std::string_view source, size_t at) {
  const std::string_view rest = source.substr(at);
  if (rest.starts_with("/*")) return std::min(source.find("*/", at + 2), source.size() - 2) + 2;
  if (rest.starts_with("///") && !rest.starts_with("////")) return at + 3;
  if (!rest.starts_with("//")) return at;
  return std::min(source.find('\n', at), source.size());
}

AsciiSpelling ascii_spelling(std::string_view source) {
  AsciiSpelling out;
  // The column of a replacement goes to its first character that is not padding.
  auto put = [&](std::string_view text, size_t from, size_t to) {
    const size_t first = std::min(text.find_first_not_of(' '), text.size() - 1);
    for (size_t i = 0; i < text.size(); ++i) {
      out.text += text[i];
      out.from.push_back(from);
      out.to.push_back(to);
      out.column.push_back(i == first && (static_cast<unsigned char>(source[from]) & 0xC0) != 0x80);
    }
  };
  bool in_string = false;
  for (size_t at = 0; at < source.size();) {
    const char c = source[at];
    if (const size_t end = in_string ? at : verbatim_end(source, at); end != at) {
      for (; at < end; ++at) put(source.substr(at, 1), at, at + 1);
      continue;
    }
    const bool symbol = !in_string && (static_cast<unsigned char>(c) & 0x80);
    if (symbol && symbol_at(UnicodeMen, source.substr(at))) {
      at = put_men(source, at, out.text, put);
      continue;
    }
    if (const UnicodeSpelling* u = symbol ? symbol_at(UnicodeSpellings, source.substr(at)) : nullptr) {
      put(u->ascii, at, at + u->symbol.size());
      at += u->symbol.size();
      continue;
    }
    if (c == '"') in_string = !in_string;
    const size_t n = in_string && c == '\\' && at + 1 < source.size() ? 2 : 1;
    for (size_t i = 0; i < n; ++i) put(source.substr(at + i, 1), at + i, at + i + 1);
    at += n;
  }
  out.from.push_back(source.size());
  out.to.push_back(source.size());
  out.column.push_back(true);
  return out;
}

class Lexer {
public:
  explicit Lexer(std::string_view source)
      : source_(source), ascii_(ascii_spelling(source)), src_(ascii_.text) {}

  Expected<Tokens, QueryError> run() {
    if (const size_t bad = invalid_utf8(source_); bad != std::string_view::npos)
      return unexpected(QueryError{range_at(source_, bad),
                                   "invalid UTF-8 byte '" + quote_source(source_.substr(bad, 1)) + "'"});
    at_ = byte_order_mark(src_);
    Tokens tokens;
    bool in_line_comment = false;  // a "///" seen on this line: an EndLine ends its arguments
    while (true) {
      const int line = line_;
      const size_t line_end = at_;
      if (std::optional<QueryError> e = skip_blanks()) return unexpected(std::move(*e));
      if (in_line_comment && (line_ != line || at_ >= src_.size())) {
        Token end;  // empty, where the comment's line ends
        end.kind = TokenKind::EndLine;
        end.text = src_.substr(line_end, 0);
        end.range = {line, col_, line, col_};
        tokens.push_back(end);
        in_line_comment = false;
      }
      if (at_ >= src_.size()) break;
      if (at_line_comment()) {
        tokens.push_back(start_token(TokenKind::LineComment, 3));
        in_line_comment = true;
        continue;
      }
      std::optional<Token> bracket = index_bracket(tokens);
      Expected<Token, QueryError> t = bracket ? Expected<Token, QueryError>(std::move(*bracket)) : next();
      if (!t) return unexpected(t.error());
      const bool names_follow = takes_bare_name(*t);
      tokens.push_back(std::move(t).value());
      if (names_follow) {
        if (std::optional<QueryError> e = skip_blanks()) return unexpected(std::move(*e));
        if (at_ < src_.size() && peek() != '"' && peek() != ')') tokens.push_back(bare_name());
      }
    }
    Token end;
    end.range = {line_, col_, line_, col_ + 1};
    tokens.push_back(end);
    for (Token& t : tokens) t.text = in_source(t.text);
    return tokens;
  }

private:
  std::string_view source_;
  AsciiSpelling ascii_;
  std::string_view src_;  // the ASCII spelling, read by the lexer

  // The text of the source that a piece of the ASCII spelling comes from ("♕" for "Q").
  [[nodiscard]] std::string_view in_source(std::string_view piece) const {
    if (piece.empty()) {  // the end of the query, or an EndLine: where it stands
      const bool inside = piece.data() >= src_.data() && piece.data() < src_.data() + src_.size();
      if (!inside) return source_.substr(source_.size());
      return source_.substr(ascii_.from[static_cast<size_t>(piece.data() - src_.data())], 0);
    }
    const auto first = static_cast<size_t>(piece.data() - src_.data());
    const size_t last = first + piece.size() - 1;
    return source_.substr(ascii_.from[first], ascii_.to[last] - ascii_.from[first]);
  }
  size_t at_ = 0;
  int line_ = 1;
  int col_ = 1;

  [[nodiscard]] char peek(size_t ahead = 0) const {
    return at_ + ahead < src_.size() ? src_[at_ + ahead] : '\0';
  }

  // Moves n bytes on; a column is a character, so the continuation bytes of UTF-8 count none.
  void advance(size_t n = 1) {
    for (size_t i = 0; i < n && at_ < src_.size(); ++i, ++at_) {
      if (src_[at_] == '\n') {
        ++line_;
        col_ = 1;
      } else if (ascii_.column[at_]) {
        ++col_;
      }
    }
  }

  [[nodiscard]] SourceRange here(size_t length = 1) const {
    return {line_, col_, line_, col_ + static_cast<int>(length)};
  }

  std::optional<QueryError> skip_blanks() {
    while (at_ < src_.size()) {
      const char c = peek();
      if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
        advance();
      } else if (c == '/' && peek(1) == '/' && !at_line_comment()) {
        while (at_ < src_.size() && peek() != '\n') advance();
      } else if (c == '/' && peek(1) == '*') {
        const SourceRange open = here(2);
        const size_t close = src_.find("*/", at_ + 2);
        if (close == std::string_view::npos) return QueryError{open, "unterminated comment: expected '*/'"};
        advance(close + 2 - at_);
      } else {
        break;
      }
    }
    return std::nullopt;
  }

  // At CQL's "///" comment filter (four slashes or more begin an ordinary comment).
  [[nodiscard]] bool at_line_comment() const {
    return peek() == '/' && peek(1) == '/' && peek(2) == '/' && peek(3) != '/';
  }

  Token start_token(TokenKind kind, size_t length) {
    Token t;
    t.kind = kind;
    t.text = src_.substr(at_, length);
    t.range = here();
    advance(length);
    t.range.end_line = line_;
    t.range.end_column = col_;
    return t;
  }

  int brackets_ = 0;  // index brackets open

  // "[" right after a value that may be a string (a name, a string, ')', ']', \1, player white) opens an
  // index (x[0], player white[-3:]); "]" closes it. Elsewhere "[" begins a piece designator.
  std::optional<Token> index_bracket(const Tokens& before) {
    if (peek() == ']' && brackets_ > 0) {
      --brackets_;
      return start_token(TokenKind::RBracket, 1);
    }
    if (peek() != '[' || before.empty() || position_comparison() ||
        before.back().text.data() + before.back().text.size() != src_.data() + at_)
      return std::nullopt;
    const Token& last = before.back();
    const bool value = last.kind == TokenKind::Identifier || last.kind == TokenKind::String ||
                       last.kind == TokenKind::RParen || last.kind == TokenKind::RBracket ||
                       last.kind == TokenKind::GroupRef ||
                       (last.kind == TokenKind::Keyword &&
                        (keyword_info(last.keyword).kind == FilterKind::String ||
                         last.keyword == Keyword::White || last.keyword == Keyword::Black));
    if (!value) return std::nullopt;
    ++brackets_;
    return start_token(TokenKind::LBracket, 1);
  }

  // At CQL's [<], [<=], [>] or [>=] (≺ ≼ ≻ ≽), which compare positions, never index.
  [[nodiscard]] bool position_comparison() const {
    for (const std::string_view op : {"[<]", "[<=]", "[>]", "[>=]"})
      if (src_.substr(at_, op.size()) == op) return true;
    return false;
  }

  // \N: group N of the last regular expression matched.
  Expected<Token, QueryError> group_ref() {
    size_t n = 1;
    while (peek(n) >= '0' && peek(n) <= '9') ++n;
    if (n == 1 || n > 3)
      return unexpected(QueryError{here(n), "expected a group number from 0 to 99 after '\\'"});
    Token t = start_token(TokenKind::GroupRef, n);
    for (char d : t.text.substr(1)) t.number = t.number * 10 + (d - '0');
    return t;
  }

  Expected<Token, QueryError> next() {
    const char c = peek();
    if (c >= '0' && c <= '9') return number();
    if (c == '\\') return group_ref();
    if (c == '"') return string();
    if (std::optional<Designator> d = scan_designator(src_.substr(at_))) {
      Token t = start_token(TokenKind::PieceDesignator, d->length);
      t.pieces = d->pieces;
      t.squares = d->squares;
      return t;
    }
    if (is_word_char(c) && !(c >= '0' && c <= '9')) return word();
    for (const OperatorSpelling& op : Operators)
      if (src_.substr(at_, op.text.size()) == op.text) return start_token(op.kind, op.text.size());
    size_t n = 1;
    while ((static_cast<unsigned char>(peek(n)) & 0xC0) == 0x80) ++n;
    return unexpected(QueryError{here(), "unexpected character '" + quote_source(src_.substr(at_, n)) + "'"});
  }

  Expected<Token, QueryError> number() {
    size_t n = 0;
    while (peek(n) >= '0' && peek(n) <= '9') ++n;
    if (n > 15) return unexpected(QueryError{here(n), "number too large"});
    Token t = start_token(TokenKind::Number, n);
    for (char d : t.text) t.number = t.number * 10 + (d - '0');
    return t;
  }

  Expected<Token, QueryError> string() {
    std::string value;
    size_t n = 1;
    while (true) {
      const char c = peek(n);
      if (c == '\0' && at_ + n >= src_.size())
        return unexpected(QueryError{here(1), "unterminated string: expected '\"'"});
      if (c == '"') break;
      if (c == '\\' && (peek(n + 1) == '"' || peek(n + 1) == '\\')) ++n;
      value += peek(n);
      ++n;
    }
    Token t = start_token(TokenKind::String, n + 1);
    t.value = std::move(value);
    return t;
  }

  // input and output take a file name, result a result, written without quotes in CQL
  // ("cql(input hhdbvi.pgn result 1-0)").
  static bool takes_bare_name(const Token& t) {
    return t.kind == TokenKind::Keyword &&
           (t.keyword == Keyword::Input || t.keyword == Keyword::Output || t.keyword == Keyword::Result);
  }

  // The text up to a blank, ')' or '}' as a String token: "hhdbvi.pgn", "1-0", "1/2-1/2".
  Token bare_name() {
    size_t n = 0;
    while (at_ + n < src_.size() && std::string_view(") \t\r\n}").find(peek(n)) == std::string_view::npos)
      ++n;
    Token t = start_token(TokenKind::String, n);
    t.value = std::string(t.text);
    return t;
  }

  Token word() {
    size_t n = 0;
    while (is_word_char(peek(n))) ++n;
    // CQL's castling words "o-o" and "o-o-o" are one word.
    while (n % 2 == 1 && n <= 3 && src_.substr(at_, n) == std::string_view("o-o-o").substr(0, n) &&
           peek(n) == '-' && peek(n + 1) == 'o' && !is_word_char(peek(n + 2)))
      n += 2;
    Token t = start_token(TokenKind::Identifier, n);
    t.value = std::string(t.text);  // the name as written in ASCII ("path" for "⊢")
    if (const std::optional<Keyword> k = find_keyword(t.text)) {
      t.kind = TokenKind::Keyword;
      t.keyword = *k;
    }
    return t;
  }
};

}  // namespace

Expected<Tokens, QueryError> lex(std::string_view source) { return Lexer(source).run(); }

std::string_view operator_spelling(TokenKind kind) {
  for (const OperatorSpelling& op : Operators)
    if (op.kind == kind) return op.text;
  if (kind == TokenKind::LBracket) return "[";
  if (kind == TokenKind::RBracket) return "]";
  return {};
}

std::string token_kind_name(TokenKind kind) {
  switch (kind) {
    case TokenKind::End: return "end of query";
    case TokenKind::LineComment: return "'///'";
    case TokenKind::EndLine: return "end of line";
    case TokenKind::Identifier: return "identifier";
    case TokenKind::Keyword: return "keyword";
    case TokenKind::Number: return "number";
    case TokenKind::String: return "string";
    case TokenKind::PieceDesignator: return "piece designator";
    case TokenKind::OpAssign: return "assignment operator";
    default: return "'" + std::string(operator_spelling(kind)) + "'";
  }
}

}  // namespace egtb::query
