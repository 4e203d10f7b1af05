// Recompressing finished tables for the front ends (`egtb recompress`): which tables a request
// names, each rewritten in turn (egtb/store/recompress.hpp), with where the run is as it goes.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "egtb/core/material.hpp"
#include "egtb/store/recompress.hpp"
#include "egtb/store/rules.hpp"
#include "egtb/store/value_file.hpp"
#include "egtb/store/writer.hpp"

namespace egtb::api {

struct RecompressRequest {
  std::filesystem::path directory = "tables";
  Rules rules = Rules::Lasker;
  std::vector<std::string> signatures;  // as users write them; each table must be present
  std::optional<int> all;               // also every table of 3 to N men present
  WriteOptions options;                 // level, block entries, orders, fill, threads
  // Write each table's value file (egtb/store/value_file.hpp) with this many entries per block
  // instead of rewriting the table, which is left as it is; `options` are then unused.
  std::optional<uint32_t> value_file_block_entries;
};

// Where a run is: table `table` (from 1) of `tables`, `written` of its `entries` written. The
// sizes of the input files tell the share of the work done: `done_bytes` of `total_bytes` are the
// files of the tables finished before this one, `table_bytes` this one's.
struct RecompressStatus {
  Material material;
  size_t table = 0;
  size_t tables = 0;
  uint64_t written = 0;
  uint64_t entries = 0;
  uint64_t table_bytes = 0;
  uint64_t done_bytes = 0;
  uint64_t total_bytes = 0;

  // The share of the whole run done, 0 to 1, by input bytes.
  [[nodiscard]] double share_done() const;
  // The share of this table written, 0 to 1.
  [[nodiscard]] double table_share() const;
};

// One table rewritten.
struct RecompressedTable {
  Material material;
  std::filesystem::path path;  // the file written: the table's, or its value file
  RecompressResult result;     // bytes_after: of the value file when one was written
  double cpu_seconds = 0;      // of the process while it was rewritten
};

// Checks a request's entries per block of value files: a power of two from MinValueBlockEntries
// to 2^20. Throws InputError naming `option`: "--block-entries of value files must be a power of
// two from 1024 to 1048576, not 1000".
inline constexpr uint32_t MinValueBlockEntries = 1024;
void check_value_block_entries(uint64_t entries, std::string_view option);

// Rewrites the tables the request names in the order named (--all's first), calling `progress`
// (one call at a time) when a table begins and as it is written, and `on_table` after each.
// Throws InputError (bad signature, nothing named, value_file_block_entries not what
// check_value_block_entries accepts), MissingTableError (a table not present),
// IoError or FormatError (egtb/store/recompress.hpp): tables rewritten before stay rewritten.
std::vector<RecompressedTable> recompress(const RecompressRequest& request,
                                          const std::function<void(const RecompressStatus&)>& progress = {},
                                          const std::function<void(const RecompressedTable&)>& on_table = {});

}  // namespace egtb::api
