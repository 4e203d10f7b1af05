// The reserved words of CQL 6.2, as its source lists them (keywords.cpp of the distribution, build
// 9.493: 206 words, "o-o" and "o-o-o" among them), so that a word of CQL's that egtb does not
// implement is reported as such ("CQL filter 'player' is not supported by egtb") at its place,
// never taken for a variable name. Whether egtb implements a word is not recorded here: it is a
// keyword of egtb's table (keywords.hpp) or it is not. docs/cql-words.md lists every word with
// its status, and a test keeps that page and this list in step.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace egtb::query {

// Every reserved word of CQL 6.2, in CQL's (alphabetical) order.
[[nodiscard]] std::span<const std::string_view> cql_reserved_words();

// True for a reserved word of CQL 6.2.
[[nodiscard]] bool is_cql_reserved(std::string_view word);

// "CQL filter 'player' is not supported by egtb": the message for a reserved word of CQL that is
// not a keyword of egtb.
[[nodiscard]] std::string unsupported_word_message(std::string_view word);

}  // namespace egtb::query
