// Solved tables shared by the retro tests: each signature and its dependency closure is solved
// once per test process and kept in one Subtables.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string_view>
#include <utility>

#include "egtb/core/material.hpp"
#include "retro/solver.hpp"
#include "retro/subtables.hpp"

namespace egtb::test {

// The threads the retro tests solve and verify with.
inline constexpr int TestThreads = 2;

// TestThreads, scratch files in `dir`, slices as `slicing` says.
inline retro::SolveConfig sliced_config(const std::filesystem::path& dir, indexing::Slicing slicing) {
  retro::SolveConfig config;
  config.threads = TestThreads;
  config.scratch_directory = dir;
  config.slicing = slicing;
  return config;
}

// The signature `text`; the test fails when it does not parse.
Material parse_material(std::string_view text);

// The tables solved so far (DTM and DTS), every successor of each included.
const retro::Subtables& solved_tables();

// Solves `m` (canonical) after its dependency closure, with DTM and DTS, unless already done.
const Table& solved(const Material& m);
const Table& solved(std::string_view text);

// A fresh solution of `m` with the given metrics; its successors come from solved_tables().
std::shared_ptr<Table> solve_fresh(const Material& m, bool dts);

// True when two in-memory tables hold the same scores.
bool same_scores(const Table& a, const Table& b);

// Valid entries of one side to move per stored Lasker value, and per (value, depth).
struct ValueCounts {
  std::array<uint64_t, 5> values{};
  std::map<std::pair<int, int>, uint64_t> depths;  // (value, depth) -> entries

  [[nodiscard]] uint64_t positions() const;
  // The largest depth stored with `value`, and how many entries have it.
  [[nodiscard]] std::pair<int, uint64_t> max_depth(Lasker value) const;
};
ValueCounts count_values(const Table& table, Color stm);

// The Gaviota directory of ../shared, or nothing (with a Catch2 WARN "SKIPPED: ...") when this
// build has no Gaviota support or the files are absent.
std::optional<std::filesystem::path> gaviota_dir_or_skip();

}  // namespace egtb::test
