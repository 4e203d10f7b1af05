// CQL 6.2's `hhdb` words over the tags and comments of Harold van der Heijden's study database
// (HHdb), as CQL defines them: most keys stand for a CQL filter written in CQL (hhdb_filter_text),
// which the parser reads in place of `hhdb KEY`; the award keys make an award filter that reads the
// Event tag (hhdb_award, filters_text.cpp).
//
// Examples: `hhdb MC` ("too many composers") is `notransform "MC" in player black`; `hhdb
// diagram` is `notransform {event ~~ "#([^ ]+)" \1}`, the diagram number of "The Problemist#1169";
// `hhdb prize` is the prize's rank in the Event "3.p Moscow ty" (3), `hhdb prize max` the last of
// a shared rank ("9/10.p ...": 9, max 10).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace egtb::query {

// The award keys: award, commendation, hm, max, prize, sort, special.
[[nodiscard]] bool is_hhdb_award_key(std::string_view key);
// award, commendation, hm, prize (award: any of the others).
[[nodiscard]] bool is_hhdb_award_type(std::string_view key);
// The keys that may follow gbr: kings, material, pawns, pieces.
[[nodiscard]] bool is_hhdb_gbr_key(std::string_view key);
// Whether `key` is any key of hhdb (an abbreviation such as colors_reversed included).
[[nodiscard]] bool is_hhdb_key(std::string_view key);
// A key must be quoted when it has a character other than a letter, a digit or '_': "(c)", "<eg>".
[[nodiscard]] bool hhdb_key_quoted(std::string_view key);

struct HhdbText {
  std::string cql;         // the filter, in CQL; empty when egtb lacks what it needs
  std::string_view needs;  // then what is missing
};
// The CQL text `hhdb key` stands for (gbr followed by a gbr key is "gbrkings" ...); the key is
// one of is_hhdb_key but not an award key.
[[nodiscard]] HhdbText hhdb_filter_text(std::string_view key);

// The award of a game whose Event tag is `event`, as CQL reads it: "[rank[/rank]][sp].p|.hm|.c ...",
// e.g. "2/3.p ...", "sp.hm ...", "4.hm ...". `type` is award, prize, hm or commendation (award:
// any); `special`: only special awards; `max`: the last rank of a shared one. Nothing when the game
// has no such award; 0 for a special award that `special` did not ask for; a prize without a rank
// ranks 1 (max: 10000).
[[nodiscard]] std::optional<int> hhdb_award(std::string_view event, std::string_view type, bool special,
                                            bool max);

}  // namespace egtb::query
