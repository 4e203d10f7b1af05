// Tokens of the CQL language: kind, source text, range, and the decoded payload of numbers,
// strings and piece designators.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "egtb/core/bitboard.hpp"
#include "query/keywords.hpp"
#include "query/source.hpp"

namespace egtb::query {

enum class TokenKind : uint8_t {
  End,
  Identifier,
  Keyword,
  Number,
  String,
  PieceDesignator,  // K, [Qq]d4, A, a, _, ., a1, a-h3, [b-h2,d5]
  Arrow,            // ->
  BackArrow,        // <-
  LongArrow,        // --> (imagine piece placement; line)
  LongBackArrow,    // <-- (line <--)
  Amp,              // &
  Bar,              // |
  Tilde,            // ~
  Eq,               // ==
  Ne,               // !=
  Lt,
  Le,
  Gt,
  Ge,
  Assign,    // =
  OpAssign,  // += -= *= /= %= |= &=: x op= e is x = x op e
  Plus,
  Minus,
  Star,
  Slash,
  Percent,
  Hash,
  Colon,
  LParen,
  RParen,
  LBrace,
  RBrace,
  Comma,
  Element,      // [element], CQL's ∊: "x ∊ S" loops over the squares of S, "◭ x ∊ S" over its men
  Match,        // ~~ (a string matched against a regular expression)
  GroupRef,     // \1: a group of the last match (number: the group)
  LBracket,     // [ right after a value (x[1], x[2:4]): indexing a string
  RBracket,     // ] closing it
  Dash,         // -- (CQL's ――): a move, in path
  CaptureDash,  // [x] (CQL's ×): a capture, in path
  Question,     // ?: a path constituent at most once
  // Position comparisons (CQL's ≺ ≼ ≻ ≽): an ancestor of, an ancestor of or the same, a descendant
  // of, a descendant of (CQL's [>=] is its [>], kept so)
  Precedes,    // [<]
  PrecedesEq,  // [<=]
  Succeeds,    // [>]
  SucceedsEq,  // [>=]
  // CQL's "///" (not "////"): a comment filter whose arguments run to the end of the line, where
  // the lexer puts an EndLine after them ("/// \"x is \" x" is comment("x is " x)).
  LineComment,
  EndLine
};

// The men a piece designator admits, one bit per Piece value (bit 0 = an empty square).
// Example: [Qq] is (1 << 5) | (1 << 13) = 0x2020; "." admits everything (AnyMen).
using PieceMask = uint16_t;
inline constexpr PieceMask EmptyBit = 1;
inline constexpr PieceMask WhiteMen = 0x7e;    // bits 1..6: P N B R Q K
inline constexpr PieceMask BlackMen = 0x7e00;  // bits 9..14
inline constexpr PieceMask AnyMen = EmptyBit | WhiteMen | BlackMen;
inline constexpr Bitboard AllSquares = ~Bitboard{0};

struct Token {
  TokenKind kind = TokenKind::End;
  std::string_view text;  // as written in the source
  SourceRange range;
  Keyword keyword = Keyword::None;  // Keyword
  int64_t number = 0;               // Number
  std::string value;                // String, without quotes and escapes; Identifier: the name
  PieceMask pieces = 0;             // PieceDesignator
  Bitboard squares = 0;             // PieceDesignator
};

// "identifier", "'->'", "number" ...: how error messages name a token kind.
[[nodiscard]] std::string token_kind_name(TokenKind kind);
// "->", "==", "(": how an operator or punctuation token is spelled ("" for the other kinds).
[[nodiscard]] std::string_view operator_spelling(TokenKind kind);

}  // namespace egtb::query
