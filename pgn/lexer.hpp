// The PGN lexer: bytes of a stream to tokens, each with the location of its first byte, read
// through a fixed buffer so that a file of any size takes constant memory.
//
//   [Event "Study"]            TagOpen  Symbol(Event)  String(Study)  TagClose
//   1. e4 $1 {best} (1. d4?)   MoveNumber(1.)  Symbol(e4)  Nag(1)  Comment(best)  VariationOpen
//                              MoveNumber(1.)  Symbol(d4)  Nag(2)  VariationClose
//   1-0                        Result(1-0)
//
// Tolerated beyond the PGN standard: "!", "?", "!!", "??", "!?", "?!" (NAGs 1-6) and the textual
// assessments "=", "+=", "=+", "+/-", "-/+", "+-", "-+" (NAGs 10, 14-19) after a move; a UTF-8
// byte-order mark at the start; CR before LF; "12" without a period as a move number. A ';'
// comment runs to the end of its line; a line starting with '%' is skipped. Comment text has its
// whitespace runs collapsed to one space and is trimmed (pgn/game.hpp).
//
// An error (an unexpected byte, a tag value not closed on its line, a comment not closed before
// the end of the input, a token longer than MaxTokenBytes) is an Error token whose text is the
// message; lexing goes on after it.
#pragma once

#include <array>
#include <cstdint>
#include <istream>
#include <string>

#include "pgn/game.hpp"

namespace egtb::pgn {

// The longest comment, tag value or symbol read; longer ones are errors (a file without a
// closing brace cannot exhaust memory).
inline constexpr size_t MaxTokenBytes = size_t{1} << 20;

enum class TokenKind : uint8_t {
  End,             // the end of the input
  TagOpen,         // [
  TagClose,        // ]
  String,          // "..." (text without quotes and escapes)
  Symbol,          // a move or a tag name: Nf3, e8=Q+, O-O, Event
  MoveNumber,      // 12. or 12...
  Nag,             // $14, or a textual annotation (nag holds the number)
  Comment,         // {...} or ; to the end of the line (text without the delimiters)
  VariationOpen,   // (
  VariationClose,  // )
  Result,          // 1-0, 0-1, 1/2-1/2, *
  Error,           // text is the message
};

struct Token {
  TokenKind kind = TokenKind::End;
  std::string text;
  Location location;
  uint8_t nag = 0;
};

// "'['", "tag value", "move", ...: how messages name a token kind.
[[nodiscard]] std::string_view token_kind_name(TokenKind kind);

class Lexer {
public:
  explicit Lexer(std::istream& in) : in_(in) {}

  // Reads the next token into `token` (its text buffer is reused).
  void next(Token& token);

  // Bytes consumed so far (for progress reports).
  [[nodiscard]] uint64_t offset() const { return consumed_ + pos_; }

private:
  static constexpr size_t BufferBytes = 64 * 1024;
  static constexpr int EndOfInput = -1;

  std::istream& in_;
  std::array<char, BufferBytes> buffer_{};
  size_t pos_ = 0;
  size_t size_ = 0;
  uint64_t consumed_ = 0;  // bytes of the buffers before this one
  uint64_t line_ = 1;
  uint32_t column_ = 1;
  bool started_ = false;

  int peek();
  int get();
  bool refill();
  [[nodiscard]] Location here() const { return {line_, column_}; }

  void skip_space();
  void read_string(Token& token);
  bool read_comment_text(Token& token, int end);
  void read_symbol(Token& token);
  void read_annotation(Token& token);
  void append(Token& token, char c, const char* what);
};

}  // namespace egtb::pgn
