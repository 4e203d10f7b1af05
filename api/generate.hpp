// Generating tables for the front ends: one request holding every option of `egtb generate`, of
// the Python module's egtb.generate and of a plan's jobs (api/plan.hpp), checked in one place
// before anything is built, and run by the scheduler (retro/scheduler.hpp).
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "egtb/core/material.hpp"
#include "egtb/store/format.hpp"
#include "egtb/store/rules.hpp"
#include "retro/scheduler.hpp"

namespace egtb::api {

// The most worker threads a request may ask for.
inline constexpr int MaxThreads = 1024;

struct GenerateRequest {
  std::vector<std::string> signatures;  // as users write them ("KQk", "KQvK")
  std::optional<int> all;               // also every signature of 3 to N men
  std::filesystem::path directory = "tables";
  int threads = 0;  // 0 (every core) to MaxThreads
  Rules rules = Rules::Lasker;
  // The metrics to solve, Lasker tables only ({DTM}: mates only; {DTS}: stalemate-only files, see
  // full_directory); none: every metric of the rules.
  std::optional<MetricSet> metrics;
  // With metrics {DTS} (StalemateOnly) alone, and then required: the directory of the full tables the
  // stalemate-only ones are written from (built there first when missing, kept when present; the
  // solve needs every metric), not `directory`. Example: --metrics dts --dir lean --full-dir tables.
  std::optional<std::filesystem::path> full_directory;
  bool force = false;   // rebuild the named tables even when present (retro::GenerateOptions::force)
  bool closure = true;  // false: the named tables alone, their subtables present (--no-closure)
  int compression_level = DefaultCompressionLevel;  // 1 to MaxCompressionLevel
  uint64_t max_memory = 0;                          // bytes a table's solve may take; 0: the machine's
};

// What a run reports as it goes (retro::GenerateOptions); any may be empty.
struct GenerateCallbacks {
  std::function<void(const Material&, const retro::Progress&)> progress;
  std::function<void(const std::vector<Material>& held)> waiting;
  std::function<void(const Material&, const std::string& message)> warning;
  std::function<void(const retro::GenerateRecord&)> on_table;  // after each table, built or kept
};

// How a message names an option: "--compression-level" (the command line) or "compression_level"
// (a Python keyword).
enum class OptionSpelling { CommandLine, Keyword };
[[nodiscard]] std::string option_name(std::string_view option, OptionSpelling spelling);

// Checks every option of the request but its signatures. Throws InputError as check() does.
void check_options(const GenerateRequest& request, OptionSpelling spelling);
// The canonical targets of the request, every option checked. Throws InputError naming the
// option as `spelling` says: "--compression-level must be a whole number from 1 to 22, not '23'",
// "metrics applies to lasker tables only", a bad signature, or no signature at all.
[[nodiscard]] std::vector<Material> check(const GenerateRequest& request, OptionSpelling spelling);

// Checks the request, then builds its targets and everything they depend on, in build order. A
// stalemate-only request builds or keeps the full tables in full_directory (at compression_level),
// then writes each of them stalemate-only into `directory` (write_metric_subset, invalid entries
// filled: format.hpp, at StalemateOnlyCompressionLevel on StalemateOnlyBlockEntries: writer.hpp),
// keeping a valid stalemate-only file whose full table this run kept; its records are those of
// `directory`.
std::vector<retro::GenerateRecord> generate(const GenerateRequest& request,
                                            const GenerateCallbacks& callbacks, OptionSpelling spelling);

// The arguments of `egtb generate` that make the same request (after the word "generate"): the
// signatures, then the options, those at their defaults left out but for --dir and --rules.
// Example: {"KQk", "--no-closure", "--dir", "tables", "--rules", "lasker", "--metrics", "dtm"}.
[[nodiscard]] std::vector<std::string> generate_arguments(const GenerateRequest& request);

}  // namespace egtb::api
