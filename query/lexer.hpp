// The CQL lexer: source text to tokens, each with its range; the last token is End.
//
// Words that read entirely as a piece designator are designators ("Ka1", "a", "[Qq]", "a-h1-8");
// other words are keywords (keywords.hpp) or identifiers. Comments are // to the end of the line
// and /* ... */. Example: "A->k // check" lexes to PieceDesignator(A) Arrow PieceDesignator(k) End.
// The source is UTF-8 (source.hpp): a byte-order mark at the start is skipped, invalid UTF-8
// anywhere is an error, and other characters than ASCII may stand in strings and comments only.
#pragma once

#include <string_view>
#include <vector>

#include "egtb/core/expected.hpp"
#include "query/token.hpp"

namespace egtb::query {

using Tokens = std::vector<Token>;

[[nodiscard]] Expected<Tokens, QueryError> lex(std::string_view source);

}  // namespace egtb::query
