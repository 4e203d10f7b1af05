// The CQL lexer: source text to tokens, each with its range; the last token is End.
//
// Words that read entirely as a piece designator are designators ("Ka1", "a", "[Qq]", "a-h1-8");
// other words are keywords (keywords.hpp) or identifiers. Comments are // to the end of the line
// and /* ... */. Example: "A->k // check" lexes to PieceDesignator(A) Arrow PieceDesignator(k) End.
#pragma once

#include <string_view>
#include <vector>

#include "egtb/core/expected.hpp"
#include "query/token.hpp"

namespace egtb::query {

using Tokens = std::vector<Token>;

[[nodiscard]] Expected<Tokens, QueryError> lex(std::string_view source);

}  // namespace egtb::query
