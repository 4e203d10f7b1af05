// The statistics count runs of entries by their king pair's weight (IndexScheme::weight_run) and
// decode positions only where entries weigh differently; here every count, histogram and example
// is checked against the straightforward count: every entry of the table read, each valid one
// decoded and weighed by IndexScheme::weights. Over every 3-4-man table of the fixture tables_34
// in the three conventions, and (slow) over a 5-man table built here, KNNNk, whose three
// identical knights stand in symmetric placements with both kings on the diagonal.
#include <unistd.h>

#include <array>
#include <filesystem>
#include <map>
#include <string>

#include "egtb/core/fen.hpp"
#include "egtb/store/format.hpp"
#include "egtb/store/reader.hpp"
#include "retro/scheduler.hpp"
#include "stats/statistics.hpp"
#include "tests/support/catch.hpp"

namespace egtb::test {

namespace {

using indexing::Convention;
using indexing::Index;

// Per side to move and raw score: the summed weights, and the entry of non-zero weight whose
// position has the smallest index with the king pair leading (that index, then the entry).
struct Straightforward {
  std::array<std::map<uint16_t, uint64_t>, 2> weight;
  std::array<std::map<uint16_t, std::pair<Index, Index>>, 2> first;
};

// The straightforward count in each convention (indexed like AllConventions), in one pass. The
// index with the king pair leading of a table laid out otherwise is that of its position, found by
// such a scheme (IndexScheme::index_of), not by moving digits as the statistics do.
std::array<Straightforward, 3> count_every_entry(const TableReader& reader) {
  const indexing::IndexScheme kings_first(reader.material());
  const bool same = reader.scheme().same_layout(kings_first);
  std::array<Straightforward, 3> out;
  std::vector<uint16_t> block;
  Position pos;
  for (uint64_t b = 0; b < reader.header().block_count; ++b) {
    const BlockSpan span = block_span(reader.header(), b);
    const Color stm = span.side == 0 ? Color::White : Color::Black;
    const auto side = static_cast<size_t>(span.side);
    reader.read_block(b, block);
    for (uint64_t j = 0; j < span.count; ++j) {
      const uint16_t raw = block[j];
      const Index i = span.first + j;
      if (!Score::from_raw(raw).is_valid()) continue;
      REQUIRE(reader.scheme().decode(i, stm, pos));
      const indexing::EntryWeights w = reader.scheme().weights(i, pos);
      const Index key = same ? i : kings_first.index_of(pos).value();
      for (size_t c = 0; c < out.size(); ++c) {
        const uint32_t weight = w.get(indexing::AllConventions[c]);
        if (weight == 0) continue;
        out[c].weight[side][raw] += weight;
        auto [at, added] = out[c].first[side].try_emplace(raw, key, i);
        if (!added && key < at->second.first) at->second = {key, i};
      }
    }
  }
  return out;
}

// compute_statistics in every convention against the straightforward count of the same table.
void check_table(const Tablebase& tablebase, const Material& m) {
  const TableReader reader(tablebase.table_path(m), {m, tablebase.rules(), {}});
  const std::array<Straightforward, 3> counts = count_every_entry(reader);
  for (size_t ci = 0; ci < counts.size(); ++ci) {
    const Convention c = indexing::AllConventions[ci];
    const Straightforward& expected = counts[ci];
    INFO(m.str() << " " << indexing::convention_name(c));
    const stats::TableStatistics t = stats::compute_statistics(tablebase, m, {c, 0});
    for (size_t side = 0; side < 2; ++side) {
      stats::SideSummary s;
      for (const auto& [raw, w] : expected.weight[side]) {
        const Score score = Score::from_raw(raw);
        const auto v = static_cast<size_t>(to_index(score.value()));
        s.lasker[v] += w;
        if (score.value() != Lasker::Draw) s.depths[v][score.depth()] += w;
      }
      CHECK(t.sides[side].lasker == s.lasker);
      CHECK(t.sides[side].depths == s.depths);
    }
    for (Metric metric : rule_metrics(t.rules))
      for (Color winner : {Color::White, Color::Black}) {
        const std::optional<stats::Deepest>& d = t.deepest_of(metric, winner);
        if (!d) continue;
        const SolvePhase phase = *phase_of(t.rules, metric);
        const Lasker value = d->side_to_move == winner ? phase.win : phase.loss;
        const auto side = static_cast<size_t>(to_index(d->side_to_move));
        const Index first = expected.first[side].at(Score(value, d->plies).raw()).second;
        CHECK(to_fen(d->example) == to_fen(*reader.scheme().position_at(first, d->side_to_move)));
      }
  }
}

}  // namespace

TEST_CASE("statistics count every 3-4-man table as the straightforward count does", "[stats][counting]") {
  const Tablebase tablebase(EGTB_TEST_TABLES_DIR);
  for (const Material& m : all_signatures(4)) check_table(tablebase, m);
}

TEST_CASE("statistics count the 5-man KNNNk as the straightforward count does", "[stats][counting][slow]") {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("egtb-counting-test-" + std::to_string(getpid()));
  const Material knnnk = *Material::parse("KNNNk");
  retro::GenerateOptions options;
  options.directory = dir;
  const std::array targets = {knnnk};
  retro::generate_tables(targets, options);
  {
    const Tablebase tablebase(dir);
    check_table(tablebase, knnnk);
  }
  std::filesystem::remove_all(dir);
}

}  // namespace egtb::test
