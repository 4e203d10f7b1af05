// The games a CQL program reads, as its header cql(...) says (CQL 6.2's features), and the test
// of a game against them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "pgn/game.hpp"

namespace egtb::query {

// What the header cql(...) of a CQL program says about the games to read: CQL 6.2's features
// (input and output name files, which the command line gives egtb; matchstring is CQL's own output
// marker, ignored). Example: "cql(input hhdbvi.pgn result 1-0 variations matchcount 2 100)" reads
// the positions of variations too, and keeps the games won by White with 2 to 100 matching
// positions.
struct GameSelection {
  struct Range {
    int64_t low = 0;
    int64_t high = INT64_MAX;
    [[nodiscard]] bool contains(int64_t v) const { return low <= v && v <= high; }
  };
  bool header = false;      // the query has a cql(...) header
  bool variations = false;  // evaluate the positions of variations too
  std::optional<Range> gamenumber;
  std::optional<Range> matchcount;
  bool sort_matchcount = false;  // sort matchcount: the games by the number of matching positions
  std::string result;            // "1-0", "0-1", "1/2-1/2", or empty: any
  bool quiet = false;            // no comments but {CQL}
  bool silent = false;           // no comments at all
  std::string input;             // file names as written
  std::string output;
};

// Whether the game's number and result are those the header asks for (the number of matching
// positions, matchcount, is tested once they are known).
[[nodiscard]] bool selects_game(const GameSelection& selection, const pgn::Game& game);

}  // namespace egtb::query
