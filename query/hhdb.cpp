#include "query/hhdb.hpp"

#include <algorithm>
#include <array>
#include <utility>

namespace egtb::query {

namespace {

template <class Keys>
bool among(const Keys& keys, std::string_view key) {
  return std::find(std::begin(keys), std::end(keys), key) != std::end(keys);
}
bool among(std::initializer_list<std::string_view> keys, std::string_view key) {
  return std::find(keys.begin(), keys.end(), key) != keys.end();
}

// The keys that search the Black tag, where HHdb writes its codes: `hhdb MC` is "MC" in player black.
constexpr std::array<std::string_view, 16> PlayerBlackKeys = {
    "(c)", "(m)", "(s)", "(v)", "AN", "CR", "MC", "PH", "TE", "TT", "TW", "U1", "U2", "U3", "U4", "U5"};
// Longer names of some of them.
constexpr std::array<std::pair<std::string_view, std::string_view>, 17> Abbreviations = {{
    {"anticipation", "AN"},
    {"colors_reversed", "CR"},
    {"corrected_solution", "(s)"},
    {"correction", "(c)"},
    {"dual_after_move_1", "U2"},
    {"dual_at_move_1", "U1"},
    {"modification", "(m)"},
    {"posthumous", "PH"},
    {"theme_tournament", "TT"},
    {"theme_tourney", "TT"},
    {"theoretical_ending", "TE"},
    {"too_many_composers", "MC"},
    {"twin", "TW"},
    {"unreachable", "U5"},
    {"version", "(v)"},
    {"white_fails", "U3"},
    {"white_wins_in_draw", "U4"},
}};

// The GBR code in the Black tag, "+0010.21a3g1": material (4 digits), pawns (2), the kings.
constexpr std::string_view Gbr = R"Q(player black ~~ "[+-=]\d{4}\.\d{2}[a-h][1-8][a-h][1-8]")Q";
constexpr std::string_view CookNeeds = "CQL's cql_hhdbhascook (\"<cook\" anywhere in the game's PGN text)";

// The other keys and the CQL they stand for (CQL's hhdb-cql.cpp, written with egtb's words: CQL's
// `originalcomment "x"` is `"x" in originalcomment`; CQL's check that variations are read, which
// it makes for <main>, <or>, mainline and variation, is left out).
const std::array<std::pair<std::string_view, HhdbText>, 22> OtherKeys = {{
    {"<cook>", {R"Q("<cook" in originalcomment)Q", {}}},
    {"<eg>", {R"Q("<eg>" in originalcomment)Q", {}}},
    {"<main>", {R"Q("<main>" in originalcomment)Q", {}}},
    {"<minor_dual>", {R"Q("<minor_dual" in originalcomment)Q", {}}},
    {"<or>", {R"Q("<or>" in originalcomment)Q", {}}},
    {"composer",
     {R"Q({if player black "MC" position 0: {originalcomment ~~ "^([^.]+)\." \1}
         else {if player white[-3:] == " NN" player white[:-3] else player white}})Q",
      {}}},
    {"cooked", {{}, CookNeeds}},
    {"diagram", {R"Q({event ~~ "#([^ ]+)" \1})Q", {}}},
    {"dual", {R"Q(player black ~~ "U[12]" or false)Q", {}}},
    {"egdiagram", {R"Q(position 0 : {originalcomment ~~ "EG#(\d+)" int \1})Q", {}}},
    {"firstcomment", {"position 0 : originalcomment", {}}},
    {"gbr", {std::string(Gbr), {}}},
    {"gbrkings", {std::string(Gbr) + "[-4:]", {}}},
    {"gbrmaterial", {std::string(Gbr) + "[1:-4]", {}}},
    {"gbrpawns", {std::string(Gbr) + "[6:8]", {}}},
    {"gbrpieces", {std::string(Gbr) + "[1:5]", {}}},
    {"mainline", {R"Q(not find <- {move previous secondary and not "<main>" in originalcomment})Q", {}}},
    {"search", {{}, "CQL's \\n (a line break between the texts it joins)"}},
    {"sound", {{}, CookNeeds}},
    {"stipulation", {R"Q({position 0 : originalcomment ~~ "stipulation: ([^.]+)\." \1})Q", {}}},
    {"unsound", {{}, CookNeeds}},
    {"variation", {R"Q(find <- {move previous secondary and not "<main>" in originalcomment})Q", {}}},
}};

std::string_view unabbreviated(std::string_view key) {
  for (const auto& [name, code] : Abbreviations)
    if (name == key) return code;
  return key;
}

// Reads a number from 1 to 100000000 at the start of `s` (CQL's readPositiveInt).
bool read_rank(std::string_view& s, int& rank) {
  int value = 0;
  size_t i = 0;
  for (; i < s.size() && s[i] >= '0' && s[i] <= '9' && value <= 100000000; ++i)
    value = 10 * value + (s[i] - '0');
  if (value <= 0 || value > 100000000) return false;
  s.remove_prefix(i);
  rank = value;
  return true;
}

bool read_text(std::string_view& s, std::string_view text) {
  if (!s.starts_with(text)) return false;
  s.remove_prefix(text.size());
  return true;
}

}  // namespace

bool is_hhdb_award_key(std::string_view key) {
  return among({"award", "commendation", "hm", "max", "prize", "sort", "special"}, key);
}
bool is_hhdb_award_type(std::string_view key) { return among({"award", "commendation", "hm", "prize"}, key); }
bool is_hhdb_gbr_key(std::string_view key) { return among({"kings", "material", "pawns", "pieces"}, key); }

bool is_hhdb_key(std::string_view key) {
  if (among(PlayerBlackKeys, key) || is_hhdb_award_key(key) || is_hhdb_gbr_key(key)) return true;
  if (unabbreviated(key) != key) return true;
  return std::any_of(OtherKeys.begin(), OtherKeys.end(), [&](const auto& k) { return k.first == key; });
}

bool hhdb_key_quoted(std::string_view key) {
  return std::any_of(key.begin(), key.end(), [](char c) {
    return !((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_');
  });
}

HhdbText hhdb_filter_text(std::string_view key) {
  key = unabbreviated(key);
  if (among(PlayerBlackKeys, key)) return {"notransform \"" + std::string(key) + "\" in player black", {}};
  for (const auto& [name, text] : OtherKeys)
    if (name == key) return text.cql.empty() ? text : HhdbText{"notransform " + text.cql, {}};
  return {};
}

std::optional<int> hhdb_award(std::string_view event, std::string_view type, bool special, bool max) {
  std::string_view s = event;
  int first = 0;
  int last = 0;
  if (read_rank(s, first)) {
    last = first;
    if (read_text(s, "/") && (!read_rank(s, last) || last <= first)) return std::nullopt;
  }
  const bool ranked = first > 0;
  const bool is_special = read_text(s, ranked ? ".sp" : "sp");
  std::string_view kind;
  if (read_text(s, ".p"))
    kind = "prize";
  else if (read_text(s, ".hm"))
    kind = "hm";
  else if (read_text(s, ".c"))
    kind = "commendation";
  else
    return std::nullopt;
  if ((type != "award" && type != kind) || (special && !is_special)) return std::nullopt;
  if (!ranked) {
    first = 1;
    last = 10000;
  }
  if (is_special && !special) return 0;
  return max ? last : first;
}

}  // namespace egtb::query
