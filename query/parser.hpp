// The CQL parser: tokens to a syntax tree, by recursive descent with CQL 6.2's precedence.
//
// From the loosest binding to the tightest:
//   or  <  and  <  in  <  == != < <= > >= (right-associative)  <  + -  <  * / %
//   <  -> <- (chains: a -> b -> c)  <  |  <  &  <  attacks attackedby  <  prefix filters
// So "A | B -> k" is (-> (| A B) k), "check or not mate and Q" is (or check (and (not mate) Q)).
// Prefix filters take their argument at fixed levels, as CQL does: "not" at the level of "in",
// "~" at the level of "attacks", "#", "power", "in" and loop sets at the level of "->", "abs" and
// assignments at the level of "+", and the parameters of "pin", "light", "dark" and the body
// after ':' at the prefix level ("pin from R|B" is (| (pin from R) B)). Loop and transform bodies,
// "if" parts and function arguments are whole filters.
//
// Chains of and, or, | and & are one node each, whatever their length. Every other nesting counts
// one level against MaxParseDepth: each operand or filter inside another (a parenthesis, a brace,
// a prefix filter and its argument, a loop body), and each further operand of a chain that nests
// ("1 + 2 + 3" is (+ (+ 1 2) 3)); so "((A))" is three levels deep, and 199 parentheses around A
// are the most. Deeper input is rejected ("query nested too deeply"), so hostile input cannot
// exhaust the stack here or in any later pass.
#pragma once

#include <string_view>

#include "egtb/core/expected.hpp"
#include "query/ast.hpp"
#include "query/lexer.hpp"

namespace egtb::query {

inline constexpr int MaxParseDepth = 200;

[[nodiscard]] Expected<NodePtr, QueryError> parse(const Tokens& tokens);
// lex() then parse().
[[nodiscard]] Expected<NodePtr, QueryError> parse(std::string_view source);

}  // namespace egtb::query
