#include "tests/retro/solved_tables.hpp"

#include <algorithm>
#include <string>

#include "indexing/index.hpp"
#include "retro/solver.hpp"
#include "tests/support/catch.hpp"
#include "tests/support/shared_dir.hpp"

namespace egtb::test {

namespace {

retro::Subtables& subtables() {
  static retro::Subtables solved;
  return solved;
}

}  // namespace

Material parse_material(std::string_view text) {
  const auto m = Material::parse(text);
  REQUIRE(m.has_value());
  return *m;
}

const retro::Subtables& solved_tables() { return subtables(); }

std::shared_ptr<Table> solve_fresh(const Material& m, bool dts) {
  retro::SolveConfig config;
  config.metrics = dts ? MetricSet{Metric::Dtm, Metric::Dts} : MetricSet{Metric::Dtm};
  return retro::solve(m, subtables(), config);
}

const Table& solved(const Material& m) {
  const std::array<Material, 1> target{m};
  for (const Material& dep : dependency_closure(target))
    if (!subtables().contains(dep)) subtables().add(solve_fresh(dep, true));
  return *subtables().find(m);
}

const Table& solved(std::string_view text) { return solved(parse_material(text)); }

bool same_scores(const Table& a, const Table& b) {
  for (Color c : {Color::White, Color::Black})
    if (!std::ranges::equal(a.raw(c), b.raw(c))) return false;
  return true;
}

uint64_t ValueCounts::positions() const {
  uint64_t n = 0;
  for (uint64_t v : values) n += v;
  return n;
}

std::pair<int, uint64_t> ValueCounts::max_depth(Lasker value) const {
  std::pair<int, uint64_t> best{-1, 0};
  for (const auto& [key, n] : depths)
    if (key.first == to_index(value) && key.second > best.first) best = {key.second, n};
  return best;
}

ValueCounts count_values(const Table& table, Color stm) {
  ValueCounts counts;
  Position pos;
  for (indexing::Index i = 0; i < table.scheme().size(); ++i) {
    if (!table.scheme().decode(i, stm, pos)) continue;
    const Score s = table.at(stm, i);
    if (!s.is_valid()) continue;
    ++counts.values[static_cast<size_t>(to_index(s.value()))];
    ++counts.depths[{to_index(s.value()), s.depth()}];
  }
  return counts;
}

std::optional<std::filesystem::path> gaviota_dir_or_skip() {
#ifndef EGTB_HAVE_GAVIOTA
  WARN("SKIPPED: built without libgaviotatb-dev (apt-get install libgaviotatb-dev), no Gaviota oracle");
  return std::nullopt;
#else
  const auto shared = shared_dir();
  if (!shared) {
    WARN("SKIPPED: ../shared is absent (set EGTB_SHARED_DIR), no Gaviota tables");
    return std::nullopt;
  }
  const auto dir = *shared / "data" / "gaviota";
  if (!std::filesystem::is_directory(dir)) {
    WARN("SKIPPED: " + dir.string() + " is absent, no Gaviota tables");
    return std::nullopt;
  }
  return dir;
#endif
}

}  // namespace egtb::test
