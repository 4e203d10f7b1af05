// Which tables a request names: signatures as users write them ("KQk", "KQvK", "Kkq") and the
// `--all N` expansion, each checked with a message that says what is wrong.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "egtb/core/material.hpp"
#include "egtb/store/tablebase.hpp"

namespace egtb::api {

// The canonical signature of a text of at most max_men men. Throws InputError for a bad signature
// or bare kings.
[[nodiscard]] Material parse_signature(std::string_view text, int max_men = Material::MaxMen);
// The same, keeping the orientation written ("Kkq" stays Kkq: a query scans it colour-flipped).
[[nodiscard]] Material parse_oriented_signature(std::string_view text, int max_men = Material::MaxMen);

// The canonical signatures of `texts`, after every signature of 3 to `all` men when `all` is set.
// Throws InputError for a bad signature or `all` outside 3..max_men (more than Material::MaxMen
// only for plans: api/plan.hpp).
[[nodiscard]] std::vector<Material> signatures(const std::vector<std::string>& texts, std::optional<int> all,
                                               int max_men = Material::MaxMen);

// The signatures of `texts`, after every table of 3 to `all` men present in the tablebase's
// directory; each named table must be present. Throws InputError (bad signature, nothing named,
// `--all` finding nothing) or MissingTableError.
[[nodiscard]] std::vector<Material> present_tables(const Tablebase& tablebase,
                                                   const std::vector<std::string>& texts,
                                                   std::optional<int> all);

// The tables a query scans (`egtb query`, the Python module's query and count, the HTTP API's
// /api/query): every table of 3 to `all` men present when `all` is set, then the signatures of
// `texts` in the orientation written (a query scans "Kkq" colour-flipped), where the one word "all"
// stands for every table present. Throws InputError for a bad signature, MissingTableError when
// "all" or `all` finds no table.
[[nodiscard]] std::vector<Material> scan_tables(const Tablebase& tablebase,
                                                const std::vector<std::string>& texts,
                                                std::optional<int> all);

// Every canonical signature of 3 to `max_men` men whose table file is in the tablebase's directory,
// fewest men first (the order of all_signatures). Throws InputError for `max_men` outside
// 3..Material::MaxMen.
[[nodiscard]] std::vector<Material> available_tables(const Tablebase& tablebase,
                                                     int max_men = Material::MaxMen);

// The number of `--all N`, checked: 3 to max_men. Throws InputError.
int check_men(int men, int max_men = Material::MaxMen);

}  // namespace egtb::api
