// The games a CQL program reads, as its header cql(...) says (CQL 6.2's features), and the test
// of a game against them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pgn/game.hpp"

namespace egtb::query {

// A sort filter of the program, as CQL 6.2 sorts the games by it: its label ("sort "Checks" #[Qq]"
// -> "Checks"; CQL's own "<sort-id-N>" for the Nth one without a label), and whether the least
// value comes first (sort min) rather than the greatest.
struct SortKey {
  std::string label;
  bool min = false;
};

// A value the sort filter `key` (an index into GameSelection::sorts) took at one evaluation.
struct SortValue {
  size_t key = 0;
  int64_t value = 0;
};

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
  std::vector<SortKey> sorts;    // the sort filters of the body (not the header), in source order
  std::string result;            // "1-0", "0-1", "1/2-1/2", or empty: any
  bool quiet = false;            // no comments but {CQL}
  bool silent = false;           // no comments at all
  // The query reads lastgamenumber: the games of the input are counted before the run.
  bool last_game_number = false;
  std::string input;  // file names as written
  std::string output;
};

// Whether the game's number and result are those the header asks for (the number of matching
// positions, matchcount, is tested once they are known).
[[nodiscard]] bool selects_game(const GameSelection& selection, const pgn::Game& game);

// How CQL 6.2 orders and labels the matching games when the program sorts (checked against CQL
// 6.2 itself, tests/query/cql62_sort.sh). A game's value for a sort filter is the greatest (sort min:
// the least) it took anywhere in the game, at matching positions or not; none if it was never
// evaluated. Games are ordered by the first sort's value, then the next's, ..., then (sort
// matchcount) by the number of matching positions, greatest first; a game without a value comes
// after those with one; ties keep the order of the input. Example: "sort "A" #[Qq]  sort min "B"
// #[Rr]" puts A 4 B 0 before A 3 B 0 before A 3 B 1, and labels the games "A: 4 B: 0", ...
class GameSort {
public:
  explicit GameSort(const GameSelection& selection);
  [[nodiscard]] bool active() const { return !keys_.empty() || matchcount_; }

  struct Values {
    std::vector<std::optional<int64_t>> best;  // by key
    int64_t matchcount = 0;
  };
  [[nodiscard]] Values start() const { return {std::vector<std::optional<int64_t>>(keys_.size()), 0}; }
  // Adds the values of one evaluation.
  void add(Values& game, const std::vector<SortValue>& values) const;
  [[nodiscard]] bool before(const Values& a, const Values& b) const;
  // The label comment CQL 6.2 writes into the game: "A: 4 B: 0", "A: none matchcount: 3".
  [[nodiscard]] std::string label(const Values& game) const;

private:
  std::vector<SortKey> keys_;
  bool matchcount_;
};

}  // namespace egtb::query
