// Throughput of compiled queries over the positions of CQL 6.2's 3-4 men vector file (every
// black-to-move mate and stalemate, 1.48 M positions): positions per second on one core.
// Usage: bench_query [query ...]; without arguments a standard set of queries is timed.
#include <chrono>
#include <cstdio>
#include <iostream>
#include <vector>

#include "egtb/core/fen.hpp"
#include "query/eval.hpp"
#include "tests/query/vectors.hpp"
#include "tests/support/shared_dir.hpp"

namespace {

std::vector<egtb::Position> load_positions() {
  std::vector<egtb::Position> positions;
  const auto shared = egtb::test::shared_dir();
  if (!shared) return positions;
  egtb::test::for_each_vector(
      *shared / "reference/cql/all_3_4_men_btm_mates_stalemates.psv.gz",
      [&](const egtb::test::VectorRow& row) { positions.push_back(*egtb::parse_fen(row.fen)); });
  return positions;
}

void time_query(const std::string& query, const std::vector<egtb::Position>& positions) {
  const auto program = egtb::query::compile(query);
  if (!program) {
    std::cout << egtb::query::format_error(program.error(), query);
    return;
  }
  egtb::query::Evaluator evaluator(*program);
  const auto start = std::chrono::steady_clock::now();
  size_t matches = 0;
  for (const egtb::Position& pos : positions) matches += evaluator.matches(pos) ? size_t{1} : size_t{0};
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%-45s %9zu matches  %8.3f s  %12.0f positions/s\n", query.c_str(), matches, seconds,
              static_cast<double>(positions.size()) / seconds);
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<egtb::Position> positions = load_positions();
  if (positions.empty()) {
    std::cout << "SKIPPED: ../shared/reference/cql is absent; nothing to time\n";
    return 0;
  }
  std::cout << positions.size() << " positions (btm mates and stalemates of all 3-4 men endgames)\n";
  std::vector<std::string> queries(argv + 1, argv + argc);
  if (queries.empty())
    queries = {"btm",
               "btm purestalemate",
               "btm puremate",
               "modelstalemate",
               "idealmate",
               "stalemate",
               "A -> k",
               "flipcolor {btm mate A->k==1}",
               "square all x in . <- k  A -> x < 2"};
  for (const std::string& q : queries) time_query(q, positions);
  return 0;
}
