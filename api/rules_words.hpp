// How the front ends name the values and depths of each rule set in words: the one home of the
// wording the web page shows (served as GET /api/rules, api/json.hpp rules_json) beside the words
// of the rules themselves (egtb/store/rules.hpp: category, value_verb, metric_end, metric_winner).
#pragma once

#include <string_view>

#include "egtb/store/rules.hpp"

namespace egtb::api {

// The words of one value of a rule set, for its side to move (or the mover of a move).
// Example, Lasker's Stalemates: goal "stalemate the opponent", title "Winning: stalemate the
// opponent", verb "forces stalemate", ends "stalemate in".
struct ValueWords {
  std::string_view goal;   // what the side reaches: the legend ("mate" > "stalemate the opponent" ...)
  std::string_view title;  // a group of moves leading there: "Winning: mate"
  std::string_view verb;   // the position's side to move: "White to move forces stalemate: ..."
  std::string_view ends;   // before a number of moves: "mate in 3 moves"; empty for a draw
};

// The words of a rule set as a whole.
struct RulesWords {
  std::string_view summary;     // the rule in a few words: "stalemate is a lesser win"
  std::string_view metrics;     // what the depths count: "DTM = plies to mate, DTS = plies to stalemate"
  std::string_view stalemated;  // a stalemated side to move: "is stalemated", "is stalemated: loses"
};

[[nodiscard]] ValueWords value_words_of(Rules r, Lasker v);
[[nodiscard]] RulesWords rules_words(Rules r);

}  // namespace egtb::api
