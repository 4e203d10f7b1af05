#include "tests/stats/stats_fixture.hpp"

#include <unistd.h>

#include <array>
#include <filesystem>
#include <string>

#include "retro/scheduler.hpp"
#include "tests/support/catch.hpp"

namespace egtb::test {

namespace {

Material parse(std::string_view text) {
  const auto m = Material::parse(text);
  REQUIRE(m.has_value());
  return *m;
}

// The scratch directory with the tables, removed when the process ends.
class FixtureTables {
public:
  FixtureTables()
      : directory_(std::filesystem::temp_directory_path() / ("egtb-stats-test-" + std::to_string(getpid()))) {
    const std::array targets = {parse("KQk"), parse("KBk"), parse("KNk"), parse("KPk")};
    retro::GenerateOptions options;
    options.directory = directory_;
    retro::generate_tables(targets, options);
    tablebase_ = std::make_unique<Tablebase>(directory_);
  }
  ~FixtureTables() {
    tablebase_.reset();
    std::error_code ignored;
    std::filesystem::remove_all(directory_, ignored);
  }
  FixtureTables(const FixtureTables&) = delete;
  FixtureTables& operator=(const FixtureTables&) = delete;

  [[nodiscard]] const Tablebase& tablebase() const { return *tablebase_; }

private:
  std::filesystem::path directory_;
  std::unique_ptr<Tablebase> tablebase_;
};

}  // namespace

const Tablebase& stats_tablebase() {
  static const FixtureTables tables;
  return tables.tablebase();
}

stats::TableStatistics table_stats(std::string_view signature, stats::Convention convention) {
  return stats::compute_statistics(stats_tablebase(), parse(signature), {convention, 0});
}

}  // namespace egtb::test
