// A table verified in parts (egtb verify SIG --part K/N --json, one run a part: on different days,
// or as a cluster's array job), added up: the reports saved as JSON files in one directory are
// checked to be every part of one split of this table, exactly once, each covering the entries
// VerifyPart::range gives it, and their counts added up are compared with the table file's own
// counts per side and Lasker value (the header's, written by the solver). The table passes when
// every part passed and everything adds up.
//
// Example: KRkr in three parts (1,775,928 entries a side, 3,551,856 end to end): part 2 of 3 covers
// entries 1,183,952-2,367,903, White's 1,183,952-1,775,927 and Black's 0-591,975, and its report's
// "sides" say so ({"w": {"first": 1183952, "entries": 591976, ...}, "b": {"first": 0, ...}}). A
// report of part 2 of 4 beside it, a part missing or given twice, a side that covers other entries
// (a report of another table file, or of another build's split), or counts that do not add up to
// the header's are each named with the file that says so.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "api/tables.hpp"
#include "retro/verify.hpp"

namespace egtb::api {

struct CombinedVerification {
  retro::VerifyReport total;                 // the parts' counts added up
  std::vector<std::string> problems;         // what does not add up, naming the files; empty when all do
  uint64_t part_count = 0;                   // N of the first part K/N
  std::vector<std::filesystem::path> files;  // the reports read, in part order
  std::string text;                          // the outcome as text, ready to print

  [[nodiscard]] bool ok() const { return problems.empty() && total.ok(); }
};

// Adds up the reports of `table` among the JSON files of `parts` (a directory; every *.json file
// in it is read, and those of other tables are passed over), for the table file in
// request.directory under request.rules. Throws InputError when `parts` is no directory, a file is
// not the JSON of `egtb verify --json` (naming the file and the field), or no file reports the
// table; IoError or FormatError for the table file.
[[nodiscard]] CombinedVerification combine_verify_parts(const Material& table, const VerifyRequest& request,
                                                        const std::filesystem::path& parts);

}  // namespace egtb::api
