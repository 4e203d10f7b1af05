// The language against CQL 6.2: pure and model stalemate written as CQL functions (from the
// definitions in ../shared/spec/cql-purestalemate.txt; loops, arrows, pins, flipcolor and
// functions together) must give CQL 6.2's values on the vector files, like the native filters.
#include <iostream>

#include "egtb/core/fen.hpp"
#include "query/eval.hpp"
#include "query/print.hpp"
#include "tests/query/vectors.hpp"
#include "tests/support/catch.hpp"
#include "tests/support/shared_dir.hpp"

namespace {

constexpr const char* Definitions = R"(
  function KingField() { . <- k }
  function StalematedPurely() {
    btm stalemate
    square all f in KingField() & [A_]  A -> f == 1      // each flight attacked once
    square all s in KingField() & a & pin  A -> s == 1   // a pinned blocker only by its pinner
    square all s in KingField() & a & ~pin  not A -> s   // other blockers not at all
  }
  function Helpers() { pin through A | pin from A | (A -> KingField()) }
)";

std::string run(egtb::query::Evaluator& e, const egtb::Position& pos) {
  const auto v = e.evaluate(pos);
  REQUIRE(v.has_value());
  return egtb::query::designator_text(egtb::query::AnyMen, v->squares);
}

void check_stalemate_file(const std::string& name) {
  const auto shared = egtb::test::shared_dir();
  if (!shared) {
    std::cout << "SKIPPED: ../shared is absent; " << name << " was not checked\n";
    return;
  }
  const auto pure =
      egtb::query::compile(std::string(Definitions) + "flipcolor { StalematedPurely() Helpers() | a }");
  const auto model = egtb::query::compile(
      std::string(Definitions) + "flipcolor { StalematedPurely() [RBNQ] in Helpers() Helpers() | a }");
  REQUIRE(pure.has_value());
  REQUIRE(model.has_value());
  egtb::query::Evaluator pure_eval(*pure), model_eval(*model);
  long mismatches = 0;
  const long rows =
      egtb::test::for_each_vector(*shared / "reference/cql" / name, [&](const egtb::test::VectorRow& row) {
        const egtb::Position pos = *egtb::parse_fen(row.fen);
        const std::string p = run(pure_eval, pos), m = run(model_eval, pos);
        if (p == row.values[5] && m == row.values[6]) return;
        if (++mismatches <= 10)
          std::cout << row.fen << ": pure " << p << " model " << m << ", expected " << row.values[5] << " "
                    << row.values[6] << "\n";
      });
  REQUIRE(rows > 0);
  CHECK(mismatches == 0);
}

}  // namespace

TEST_CASE("pure and model stalemate written in CQL match CQL 6.2 (curated)", "[language]") {
  check_stalemate_file("curated.psv");
}

TEST_CASE("pure and model stalemate written in CQL match CQL 6.2 (all 3-4 men)", "[language][slow]") {
  check_stalemate_file("all_3_4_men_btm_mates_stalemates.psv.gz");
}
