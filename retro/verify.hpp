// An independent check of a solved table, one ply forward (the idea of syzygy1/tb's rtbver).
//
// The solver works backwards from terminal positions; the verifier knows nothing of that. For every
// entry of both sides to move it decodes the position, plays every legal move and looks the child
// up (in the table itself through index_of, or in the subtables when the move captures or
// promotes), and recomputes the entry's score from its children (docs/design.md §2). A move that
// stays in the table and leaves no e.p. capture is looked up from the entry's men with the mover's
// square changed (IndexScheme::index_of(Men), no position built); every lookup, of a position or
// of men, is checked to land on an entry that decodes to an image of what was looked up. Then:
//
//   value  = max over moves of 4 - child value; no move: the rules' terminal score (Lasker:
//            checkmated 0, DTM 0; stalemated 1, DTS 0); under stalemate-passes a stalemated side's
//            one move is the pass (line.hpp, rule_moves), checked like any move
//   depth  value 4: 1 + the smallest DTM of a child of value 0 (the winner mates as fast as it can)
//          value 0: 1 + the largest DTM of the children, all of value 4 (the loser resists longest)
//          value 3: 1 + the smallest DTS of a child of value 1
//          value 1: 1 + the largest DTS of a child of value 3 (moves to value 4 lose more, and are
//                   not taken)
//          value 2: 0
//
// Equality with the stored score is exactly the rtbver condition: a win in n has a move to a loss
// in n - 1 and none to a faster loss; a loss in n has only moves to wins in at most n - 1 and one in
// exactly n - 1; a draw has no move to a child of value 0 or 1 and one to a draw; the same for the
// stalemate values. Because every depth is derived from strictly smaller depths down to the
// terminal positions, a table that passes everywhere is the unique correct one.
//
// Besides, each entry is checked for: a score only where a legal position decodes (Invalid
// elsewhere); the parity of its depth (DTM of 4 and DTS of 3 odd, of 0 and 1 even, draws 0); the
// same score as the entry index_of gives its position (a duplicate entry of a symmetric position
// holds its twin's score) and as its mirror image (a1-h8 without pawns, a-h with pawns; without
// pawns a position whose kings both stand on the a1-h8 diagonal and its mirror image can have
// entries of their own).
//
// Rules decide the terminal scores (rules.hpp, terminal_score). Tables built without DTS (--metrics
// dtm) store values 1 and 3 as draws: their stalemates and children of value 1 or 3 are read as 2
// (as_stored), so only values 4 and 0 and their DTM are checked, and that everything else is a
// draw.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "egtb/core/material.hpp"
#include "egtb/store/score.hpp"
#include "indexing/index.hpp"
#include "retro/subtables.hpp"

namespace egtb::retro {

// One entry that failed a check.
struct VerifyError {
  Color side_to_move = Color::White;
  indexing::Index index = 0;
  std::string fen;                    // empty when the entry decodes to no position
  Score stored;                       // the table's score
  Score expected = Score::unknown();  // the score its moves give, unknown when not derived
  std::string problem;                // what is wrong, ready to print
};

// Collects errors from many threads and keeps the first `capacity` by side to move and index,
// whatever order the threads find them in.
class VerifyErrorLog {
public:
  explicit VerifyErrorLog(size_t capacity) : capacity_(capacity) {}

  void add(VerifyError error);
  // The kept errors, sorted, and how many were added in all.
  [[nodiscard]] std::vector<VerifyError> take();
  [[nodiscard]] uint64_t count() const { return count_; }

private:
  std::mutex mutex_;
  size_t capacity_;
  uint64_t count_ = 0;
  std::vector<VerifyError> errors_;

  void trim();
};

// A share of a table's entries to check: part `number` of `count` equal parts of the entries of
// both sides to move laid end to end, White's first. Parts split one verification among jobs (a
// cluster's array job, or runs on different days): their counts add up to the whole table's, and
// the table passes when every part passes. Example: KQRBkr, 6,826,667,232 entries a side, 4 parts:
// part 2 checks White's entries 3,413,333,616 to 6,826,667,231, part 3 Black's 0 to 3,413,333,615;
// with 3 parts, part 2 checks White's last 2,275,555,744 entries and Black's first as many.
struct VerifyPart {
  uint64_t number = 1;  // 1 to count
  uint64_t count = 1;

  // The entries [first, end) of side c this part checks in a table of `size` entries a side
  // (first == end when it checks none).
  [[nodiscard]] std::pair<indexing::Index, indexing::Index> range(Color c, indexing::Index size) const;
  [[nodiscard]] bool whole() const { return count == 1; }
};

// Totals of one side to move.
struct VerifySideCounts {
  indexing::Index first = 0;         // the entries checked: [first, first + entries)
  uint64_t entries = 0;              // every entry of the range
  uint64_t positions = 0;            // entries that decode to a legal position
  uint64_t duplicates = 0;           // of these, entries whose position index_of maps elsewhere
  std::array<uint64_t, 5> values{};  // positions per stored Lasker value
  uint64_t errors = 0;

  // Adds the counts of other entries (another thread's, or another part's); `first` stays.
  void add(const VerifySideCounts& other);
};

struct VerifyReport {
  Material material;
  VerifyPart part;                          // the share of the entries checked
  uint64_t entries_checked = 0;             // both sides to move
  uint64_t error_count = 0;                 // failed checks (one entry can fail several)
  std::array<VerifySideCounts, 2> sides{};  // indexed by to_index(Color)
  std::vector<VerifyError> errors;          // the first few, ordered by side to move and index

  [[nodiscard]] bool ok() const { return error_count == 0; }
};

// Options of verify_table and compare_with_gaviota.
struct VerifyOptions {
  int threads = 0;         // 0: every core
  size_t max_errors = 20;  // how many errors the report keeps in full
  VerifyPart part;         // the share of the entries to check (default: all)
  // Called now and then with the side being checked and its entries checked so far (of size()),
  // by one worker thread at a time; may be empty.
  std::function<void(Color side, uint64_t done)> progress;
};

// Checks every entry of `table` (of options.part) against its moves. `subtables` must hold every successor
// table (with DTS when the table has DTS); throws std::invalid_argument when one is missing.
[[nodiscard]] VerifyReport verify_table(const Table& table, const Subtables& subtables,
                                        const VerifyOptions& options);
[[nodiscard]] VerifyReport verify_table(const Table& table, const Subtables& subtables, int threads);
// verify_table with the table of each side to move asked for when that side is checked, White
// first, and only of the sides options.part reaches: `table_for(c)` may hold in memory only the entries of
// the other side (Table::load_side), which the moves of c's positions reach at random, and page c's own, read
// in order. A table too large to hold whole is checked so (a 6-man KQRBkr: 13.6 GB a side, each side's
// entries its children). The reference it returns must stay valid until the next call. `size` is the table's
// entries a side.
[[nodiscard]] VerifyReport verify_table_by_side(indexing::Index size,
                                                const std::function<const Table&(Color)>& table_for,
                                                const Subtables& subtables, const VerifyOptions& options);

// Checks a table storing fewer metrics than its full table (a stalemate-only one, `egtb generate
// --metrics dts`) against that full table, verified itself: every entry of `subset` must be the
// full table's score of the same position as `subset` stores it (as_stored), and an entry that
// decodes to no position must be invalid, or its block's fill (format.hpp) in a filled file. The
// counts are those of `subset`. Throws std::invalid_argument when the tables are of other
// materials or rules, or `full` lacks a metric of `subset`.
[[nodiscard]] VerifyReport compare_with_full(const Table& subset, const Table& full,
                                             const VerifyOptions& options);

// A few lines: the table, the counts, the first errors with their FEN.
[[nodiscard]] std::string format_report(const VerifyReport& report);

}  // namespace egtb::retro
