// The retrograde solver: Lasker values with DTM and DTS for every position of one table.
//
// The phases of the table's rules (rules.hpp) are solved in order. Under Lasker rules mates come
// first, exactly as in ordinary chess (values 4 and 0 with DTM); then, among the positions left,
// stalemates (values 3 and 1 with DTS); what remains is drawn (value 2). The
// solver works on sets of positions, a bit each in the words of the generation layout
// (indexing/word_layout.hpp), and moves 64 of them at a time (retro/word_moves.hpp). Each phase
// seeds its terminal positions and the moves that leave the table (captures, promotions, e.p.
// captures: their values come from the solved subtables), then decides depth after depth:
//   odd depth d   the predecessors of the positions lost at d - 1 that are still undecided win
//                 at d, and so do those whose best move out of the table wins at d;
//   even depth d  the predecessors of the positions won at d - 1 whose every move inside the
//                 table reaches a won position, and that have no move out of it that escapes,
//                 lose at d, or later when a move out of the table loses more slowly.
// A lost position's depth is thus the longest of its moves' (the loser delays), a won one's the
// shortest (the winner hurries), as docs/design.md §2 has it for DTM and DTS. No move counts are
// kept: a candidate loss is checked by looking at its moves forward, one word at a time.
// Positions with an e.p. right are handled one by one: each follows from the same men without the
// right and from its e.p. captures. A pawn table may be solved one slice at a time
// (indexing/word_layout.hpp): by the files of its pawns besides the innermost man, which no move
// inside the table changes but the kings' mirror, or by their squares in pawn-move order, a
// slice's pawn steps then being moves out of it into slices solved before, scored like captures.
// Every solved slice is packed into a scratch file before the next one is set up, so that the
// solver's sets are held for one slice only: KRPkr's 24 placement slices need a 24th of the memory
// the whole table did. The moves of file slices into paged subtables are scored for all slices in
// one pass before the first (retro/paged_exits.hpp), so that their blocks are read once. The
// result is turned into the storage index (index.hpp) only when the table is written
// (Solution::fill).
#pragma once

#include <array>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "egtb/core/material.hpp"
#include "egtb/store/rules.hpp"
#include "indexing/word_layout.hpp"
#include "retro/subtables.hpp"

namespace egtb::retro {

// Where the solver is: setting up, solving the phase of a metric (rules.hpp), or finishing.
enum class Stage : uint8_t { Setup, Solving, Finish };

struct Progress {
  Stage stage = Stage::Setup;
  Metric metric = Metric::Dtm;  // the phase being solved (Stage::Solving)
  int ply = 0;
  uint64_t resolved = 0;  // positions resolved so far in this phase
  double seconds = 0;     // since the solver started
  // The slice whose plies these are, of the table's slices (SolveConfig::slicing; 1 of 1 for a
  // table solved whole): the first before the slices start, the last when they are done. Example:
  // KRPkr by 21 placement slices, the plies of its seventh are slice 7 of 21.
  size_t slice = 1;
  size_t slices = 1;
};

// The file slices solved at once, side by side (SolveConfig::slicing, indexing::Slicing::Files):
// the solve holds as many slices in memory (retro/cost_model.hpp counts them).
inline constexpr size_t FileSlicesAtOnce = 2;

struct SolveConfig {
  int threads = 0;  // 0: every core
  Rules rules = Rules::Lasker;
  // The metrics to solve: the phases of the rules in order, up to the first one left out. Lasker
  // with {DTM} solves mates only: values 3 and 1 are then stored as draws.
  MetricSet metrics = all_metrics(Rules::Lasker);
  // Called after each ply, from the thread that solves the table; of file slices solved side by
  // side, the plies of the one that thread solves, and the positions resolved of all.
  std::function<void(const Progress&)> progress;
  // Solve a pawn table one slice at a time (indexing/word_layout.hpp), by the files of its digit
  // pawns or by their squares in pawn-move order; the finished slices are packed. Whole: the
  // whole table at once.
  indexing::Slicing slicing = indexing::Slicing::Whole;
  // Where a table solved in slices keeps its finished slices, packed in an unnamed file, until it
  // is written (retro/scratch_file.hpp), and the lean path its decided plies; empty: the system's
  // temporary directory.
  std::filesystem::path scratch_directory;
  // The lean path: no depth byte per position during the solve (retro/depths.hpp) but the loss
  // bounds and the wins through moves out of the table in due lists,
  // and each ply's decided positions appended to a scratch file (retro/depth_records.hpp), from
  // which each slice's scores are rebuilt a king pair at a time and packed as a finished slice's
  // are. About 7.5 bits per layout position and side instead of 15.5; the same table.
  bool lean = false;
};

// A solved table as the solver leaves it, in its own layout: it hands out the scores of the
// storage index (indexing/index.hpp) a range at a time, so that a table is written without
// holding every score of it at once.
class Solution {
public:
  struct Sets;  // what the solver keeps of a solved table (solved_slice.hpp)
  explicit Solution(std::unique_ptr<Sets> sets);
  ~Solution();
  Solution(const Solution&) = delete;
  Solution& operator=(const Solution&) = delete;

  [[nodiscard]] const indexing::IndexScheme& scheme() const;
  [[nodiscard]] Rules rules() const;
  // The metrics solved: the rules' phases that ran.
  [[nodiscard]] MetricSet metrics() const;
  // The slices it was solved in: 1 for a table solved whole.
  [[nodiscard]] size_t slices() const;
  // Fills out[k] with the raw score of entry first + k of side c in `storage`, a scheme of the
  // table in any order of its digits. Safe from many threads.
  void fill(const indexing::IndexScheme& storage, Color c, indexing::Index first,
            std::span<uint16_t> out) const;
  // Readies fill() for reading the whole table out in `storage`, as the writer does, where it
  // would locate the entries one at a time in packed slices: a table of several slices in an order
  // without a run man (IndexScheme::run_man). Each side's scores are then gathered into the order
  // in one pass over the slices' chunks, each chunk unpacked once, when both sides' take at most
  // `max_bytes` (2 bytes an entry). Example: KPPPk in "PPP Kk" (the king pair innermost) by 20 file
  // slices: consecutive entries move the kings, so nearly every entry lay in another chunk than
  // the one before, and its writing took 38-42 s against 0.9 s solved whole; gathered, its two
  // sides' 31.2 million entries take 125 MB. Returns whether it gathered; fill() reads out in
  // other orders as before.
  bool gather(const indexing::IndexScheme& storage, uint64_t max_bytes, int threads);

private:
  std::unique_ptr<Sets> sets_;
  std::optional<indexing::IndexOrder> gathered_order_;  // the order gathered into, if any
  std::array<std::vector<uint16_t>, 2> gathered_;       // its normal entries' raw scores, by side
};

// Solves `material` (canonical) whose successor tables are all in `subtables`.
[[nodiscard]] std::unique_ptr<Solution> solve_table(const Material& material, const Subtables& subtables,
                                                    const SolveConfig& config);
// The same with every score in memory (for tests and benchmarks of small tables).
[[nodiscard]] std::shared_ptr<Table> solve(const Material& material, const Subtables& subtables,
                                           const SolveConfig& config);
// Every score of a solution in memory, in the index order of Table (what solve returns).
[[nodiscard]] std::shared_ptr<Table> to_table(const Solution& solution);

}  // namespace egtb::retro
