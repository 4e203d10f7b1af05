// The tables the stats tests read: KQk, KBk, KNk and KPk with their dependencies, built once per
// test process into a scratch directory that is removed at exit.
#pragma once

#include <string_view>

#include "egtb/store/tablebase.hpp"
#include "stats/statistics.hpp"

namespace egtb::test {

// The tablebase over the scratch directory, built on first use.
const Tablebase& stats_tablebase();

// The statistics of one of the fixture's tables in a convention.
stats::TableStatistics table_stats(std::string_view signature, stats::Convention convention);

}  // namespace egtb::test
