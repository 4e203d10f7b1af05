// Syntax tree to S-expression, for golden tests and `--dump-ast`.
//
// Operators print prefix, keywords and names bare, designators canonically (men in the order
// KQRBNP kqrbnp _, A/a for all of a colour, squares as a list):
//   "btm A->k==1"       ->  (query btm (== (-> A k) 1))
//   "square all x in _ attackedby k  x attackedby A == 1"
//                        ->  (query (square all x (attackedby _ k) (== (attackedby x A) 1)))
#pragma once

#include <string>

#include "query/ast.hpp"

namespace egtb::query {

[[nodiscard]] std::string to_sexpr(const Node& node);

// "K", "[Qq]", "[a1,b2]", "K[a1]", "." : the canonical text of a piece designator.
[[nodiscard]] std::string designator_text(PieceMask pieces, Bitboard squares);

}  // namespace egtb::query
