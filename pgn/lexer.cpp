#include "pgn/lexer.hpp"

#include <algorithm>
#include <cstdio>
#include <string_view>

namespace egtb::pgn {

namespace {

struct Annotation {
  std::string_view text;
  uint8_t nag;
};

// The annotations written as text, with their NAG numbers (PGN standard, section 10).
constexpr Annotation Annotations[] = {
    {"!", 1},    {"?", 2},   {"!!", 3},   {"??", 4},   {"!?", 5},   {"?!", 6},  {"=", 10},  {"+=", 14},
    {"+/=", 14}, {"=+", 15}, {"=/+", 15}, {"+/-", 16}, {"-/+", 17}, {"+-", 18}, {"-+", 19},
};

bool is_space(int c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
bool is_alnum(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }
bool is_digit(int c) { return c >= '0' && c <= '9'; }
// Characters that continue a symbol after its first letter or digit.
bool is_symbol_char(int c) {
  return is_alnum(c) || c == '_' || c == '+' || c == '#' || c == '=' || c == ':' || c == '-' || c == '/';
}

std::string byte_text(int c) {
  if (c >= 0x20 && c < 0x7f) return std::string("'") + static_cast<char>(c) + "'";
  char hex[8];
  std::snprintf(hex, sizeof hex, "0x%02x", static_cast<unsigned>(c));
  return std::string("byte ") + hex;
}

void error(Token& token, std::string message) {
  token.kind = TokenKind::Error;
  token.text = std::move(message);
}

const std::string TooLong = "longer than " + std::to_string(MaxTokenBytes) + " bytes";

}  // namespace

std::string_view token_kind_name(TokenKind kind) {
  switch (kind) {
    case TokenKind::End: return "the end of the input";
    case TokenKind::TagOpen: return "'['";
    case TokenKind::TagClose: return "']'";
    case TokenKind::String: return "a tag value";
    case TokenKind::Symbol: return "a move";
    case TokenKind::MoveNumber: return "a move number";
    case TokenKind::Nag: return "a NAG";
    case TokenKind::Comment: return "a comment";
    case TokenKind::VariationOpen: return "'('";
    case TokenKind::VariationClose: return "')'";
    case TokenKind::Result: return "a result";
    case TokenKind::Error: return "an error";
  }
  return "?";
}

bool Lexer::refill() {
  consumed_ += size_;
  pos_ = size_ = 0;
  if (!in_) return false;
  in_.read(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
  size_ = static_cast<size_t>(in_.gcount());
  return size_ > 0;
}

int Lexer::peek() {
  if (pos_ == size_ && !refill()) return EndOfInput;
  return static_cast<unsigned char>(buffer_[pos_]);
}

int Lexer::get() {
  const int c = peek();
  if (c == EndOfInput) return c;
  ++pos_;
  if (c == '\n') {
    ++line_;
    column_ = 1;
  } else {
    ++column_;
  }
  return c;
}

void Lexer::skip_space() {
  if (!started_) {
    started_ = true;
    if (peek() == 0xef) {  // a UTF-8 byte-order mark
      get();
      if (peek() == 0xbb) get();
      if (peek() == 0xbf) get();
      column_ = 1;
    }
  }
  for (int c = peek(); c != EndOfInput; c = peek()) {
    if (c == '%' && column_ == 1) {
      while (c != EndOfInput && c != '\n') c = get();
    } else if (is_space(c)) {
      get();
    } else {
      return;
    }
  }
}

// Adds a byte to the token's text; past MaxTokenBytes the token becomes an error, and the rest of
// it is read and dropped. A NUL byte (never text: a binary file, a damaged disk) is an error
// located at itself, and ends a comment or tag value there.
void Lexer::append(Token& token, char c, const char* what) {
  if (token.kind == TokenKind::Error) return;
  if (c == '\0') {
    error(token, "byte 0x00 (NUL) in a " + std::string(what) + ": this is not text");
    token.location = {line_, column_ - 1};
  } else if (token.text.size() < MaxTokenBytes)
    token.text += c;
  else
    error(token, std::string(what) + " " + TooLong);
}

void Lexer::next(Token& token) {
  token.text.clear();
  token.nag = 0;
  skip_space();
  token.location = here();
  const int c = get();
  switch (c) {
    case EndOfInput: token.kind = TokenKind::End; return;
    case '[': token.kind = TokenKind::TagOpen; return;
    case ']': token.kind = TokenKind::TagClose; return;
    case '(': token.kind = TokenKind::VariationOpen; return;
    case ')': token.kind = TokenKind::VariationClose; return;
    case '"': return read_string(token);
    case '{':
      if (!read_comment_text(token, '}'))
        error(token, "the comment opened here is not closed by '}' before the end of the input");
      return;
    case ';': read_comment_text(token, '\n'); return;
    case '*':
      token.kind = TokenKind::Result;
      token.text = "*";
      return;
    case '.':  // periods standing alone ("1. ... e5")
      while (peek() == '.') get();
      return next(token);
    default: break;
  }
  token.text += static_cast<char>(c);
  if (c == '$' || c == '!' || c == '?' || c == '+' || c == '-' || c == '=') return read_annotation(token);
  if (is_alnum(c)) return read_symbol(token);
  error(token, "unexpected " + byte_text(c));
}

void Lexer::read_string(Token& token) {
  token.kind = TokenKind::String;
  for (int c = get();; c = get()) {
    if (c == EndOfInput || c == '\n') return error(token, "the tag value is not closed by '\"' on its line");
    if (c == '"') return;
    if (c == '\\' && (peek() == '"' || peek() == '\\')) c = get();
    append(token, static_cast<char>(c), "tag value");
    if (c == '\0') return;  // not text: reported at once
  }
}

// The text of a comment up to `end` ('}', or '\n' for a ';' comment), its whitespace runs made
// one space and trimmed; false when the input ends first.
bool Lexer::read_comment_text(Token& token, int end) {
  token.kind = TokenKind::Comment;
  bool space = false;
  for (int c = get(); c != end; c = get()) {
    if (c == EndOfInput) return false;
    if (is_space(c)) {
      space = !token.text.empty();
      continue;
    }
    if (space) append(token, ' ', "comment");
    space = false;
    append(token, static_cast<char>(c), "comment");
    if (c == '\0') return true;  // not text: reported at once
  }
  return true;
}

void Lexer::read_symbol(Token& token) {
  token.kind = TokenKind::Symbol;
  while (is_symbol_char(peek())) append(token, static_cast<char>(get()), "symbol");
  if (token.kind == TokenKind::Error) return;
  if (std::all_of(token.text.begin(), token.text.end(), is_digit)) {
    token.kind = TokenKind::MoveNumber;
    while (peek() == '.') token.text += static_cast<char>(get());
  } else if ((token.text[0] == '0' || token.text[0] == '1') &&
             (token.text == "1-0" || token.text == "0-1" || token.text == "1/2-1/2")) {
    token.kind = TokenKind::Result;
  }
}

// "$14", "!?", "+-", or "--" (a null move, a symbol).
void Lexer::read_annotation(Token& token) {
  if (token.text == "$") {
    while (is_digit(peek()) && token.text.size() < 5) token.text += static_cast<char>(get());
    const int number = token.text.size() > 1 ? std::stoi(token.text.substr(1)) : -1;
    if (number < 0 || number > 255) return error(token, "'" + token.text + "' is not a NAG ($0 to $255)");
    token.kind = TokenKind::Nag;
    token.nag = static_cast<uint8_t>(number);
    return;
  }
  const std::string_view chars = token.text[0] == '!' || token.text[0] == '?' ? "!?" : "+-=/";
  while (chars.find(static_cast<char>(peek())) != std::string_view::npos && token.text.size() < 4)
    token.text += static_cast<char>(get());
  if (token.text == "--") {
    token.kind = TokenKind::Symbol;
    return;
  }
  for (const Annotation& a : Annotations)
    if (a.text == token.text) {
      token.kind = TokenKind::Nag;
      token.nag = a.nag;
      return;
    }
  error(token, "unknown annotation '" + token.text + "'");
}

}  // namespace egtb::pgn
