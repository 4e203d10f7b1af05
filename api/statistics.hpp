// The statistics of finished tables for the front ends (`egtb stats`, the Python module's
// egtb.stats): which tables a request names, their statistics (stats/statistics.hpp) and the note
// a table built without DTS deserves. The JSON of each table is api/json.hpp's.
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "egtb/store/error.hpp"
#include "stats/statistics.hpp"

namespace egtb::api {

struct StatsRequest {
  std::filesystem::path directory = "tables";
  std::vector<std::string> signatures;  // as users write them ("KBk", "KBvK")
  std::optional<int> all;               // also every table of 3 to N men present
  stats::StatsOptions options;
  Rules rules = Rules::Lasker;  // the rules of the tables read
};

// The statistics of every table the request names (present_tables, signatures.hpp), in order.
// Throws InputError for a bad signature or a request naming nothing, MissingTableError for a
// table not in the directory, StoreError for a damaged one.
// With `on_unreadable`, a table found by `all` (not named) that cannot be read (truncated,
// damaged) goes there and is left out, and the others are counted.
[[nodiscard]] std::vector<stats::TableStatistics> table_statistics(
    const StatsRequest& request, const std::function<void(const StoreError&)>& on_unreadable = {});

// Statistics computed once per table file, counting convention and rules, then kept (`egtb
// serve`'s /api/stats): a table file replaced or rewritten has its statistics computed again
// (file_identity, reader.hpp). Safe from many threads; two first requests for one table may both
// compute it.
class StatisticsCache {
public:
  // The statistics of the table `signature` names, which must be present in the tablebase's
  // directory, in options.convention. Throws InputError (bad signature), MissingTableError,
  // StoreError, and Cancelled when options.cancellation ends the computation (nothing is kept).
  [[nodiscard]] std::shared_ptr<const stats::TableStatistics> get(const Tablebase& tablebase,
                                                                  std::string_view signature,
                                                                  const stats::StatsOptions& options);

private:
  std::mutex mutex_;
  // By statistics_key (statistics.cpp).
  std::map<std::string, std::shared_ptr<const stats::TableStatistics>> tables_;
};

// The warning for statistics of a table built without all the metrics of its rules (a Lasker
// table without DTS: its values 3 and 1 count as draws; a stalemate-only one: its values 4 and 0
// count as 2, and it has no DTM), or nothing.
[[nodiscard]] std::optional<std::string> incomplete_table_warning(const stats::TableStatistics& table);
// The same warning for the tables a probe or query read (Tablebase::incomplete_tables), which
// show stalemate wins and losses (3 and 1) as draws; nothing when `tables` is empty.
[[nodiscard]] std::optional<std::string> incomplete_table_warning(const std::vector<Material>& tables);

// Every maxDTS and maxDTM example of the tables as a PGN game (pgn/writer.hpp): its position as
// [FEN], the optimal line as the mainline, the value and depth left after each move as a comment
// for the side to move then ("Black: stalemate-loss, DTS 16"), the row it illustrates as the first
// comment ("KBk maxDTS: White stalemates, 17 plies, 37 positions (index462)"), Site the
// signature, Round the row's number and Result what the line ends in (a stalemate 1/2-1/2 under
// Lasker). The scores follow from the row (its depth, winner and side to move): nothing is probed.
[[nodiscard]] std::string examples_pgn(const std::vector<stats::TableStatistics>& tables);

}  // namespace egtb::api
