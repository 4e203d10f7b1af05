// Every row of CQL 6.2's own outputs (../shared/reference/cql): mate, stalemate and the six
// pure/model/ideal (stale)mate filters with their participant sets, through the native
// implementation (mate.hpp) and through compiled queries ("puremate", ...).
#include <iostream>

#include "egtb/core/fen.hpp"
#include "egtb/core/movegen.hpp"
#include "query/eval.hpp"
#include "query/mate.hpp"
#include "query/print.hpp"
#include "tests/query/vectors.hpp"
#include "tests/support/catch.hpp"
#include "tests/support/shared_dir.hpp"

namespace {

using egtb::Bitboard;

std::string set_text(Bitboard b) { return egtb::query::designator_text(egtb::query::AnyMen, b); }
std::string bool_text(bool b) { return b ? "<true>" : "<false>"; }

std::array<std::string, 8> native_values(const egtb::Position& pos) {
  const egtb::query::MateSets m = egtb::query::mate_sets(pos);
  const egtb::query::MateSets s = egtb::query::stalemate_sets(pos);
  return {bool_text(egtb::is_checkmate(pos)),
          bool_text(egtb::is_stalemate(pos)),
          set_text(m.pure),
          set_text(m.model),
          set_text(m.ideal),
          set_text(s.pure),
          set_text(s.model),
          set_text(s.ideal)};
}

// The eight columns as the query language computes them, one compiled query per column.
class QueryColumns {
public:
  QueryColumns() {
    for (const char* column : egtb::test::VectorColumns) {
      auto program = egtb::query::compile(column);
      REQUIRE(program.has_value());
      programs_.push_back(std::move(program).value());
    }
    for (const auto& p : programs_) evaluators_.push_back(std::make_unique<egtb::query::Evaluator>(p));
  }

  std::array<std::string, 8> values(const egtb::Position& pos) {
    std::array<std::string, 8> out;
    for (size_t i = 0; i < 8; ++i) {
      const auto v = evaluators_[i]->evaluate(pos);
      REQUIRE(v.has_value());
      out[i] = v->kind == egtb::query::FilterKind::Set ? set_text(v->squares) : bool_text(v->matched);
    }
    return out;
  }

private:
  std::vector<egtb::query::Program> programs_;
  std::vector<std::unique_ptr<egtb::query::Evaluator>> evaluators_;
};

struct Tally {
  long rows = 0;
  long mismatches = 0;
};

void check_vector_file(const std::string& name) {
  const auto shared = egtb::test::shared_dir();
  if (!shared) {
    std::cout << "SKIPPED: ../shared is absent; the CQL 6.2 vectors (" << name << ") were not checked\n";
    return;
  }
  Tally tally;
  QueryColumns queries;
  const long rows =
      egtb::test::for_each_vector(*shared / "reference/cql" / name, [&](const egtb::test::VectorRow& row) {
        ++tally.rows;
        const auto pos = egtb::parse_fen(row.fen);
        REQUIRE(pos.has_value());
        const std::array<std::string, 8> native = native_values(*pos);
        const std::array<std::string, 8> query = queries.values(*pos);
        for (size_t i = 0; i < 8; ++i) {
          if (native[i] == row.values[i] && query[i] == row.values[i]) continue;
          if (++tally.mismatches <= 20)
            std::cout << row.label << " " << row.fen << " " << egtb::test::VectorColumns[i] << ": expected "
                      << row.values[i] << ", native " << native[i] << ", query " << query[i] << "\n";
        }
      });
  REQUIRE(rows > 0);
  std::cout << name << ": " << tally.rows << " rows, " << tally.mismatches << " mismatching values\n";
  CHECK(tally.mismatches == 0);
}

}  // namespace

TEST_CASE("native (stale)mate filters reproduce CQL 6.2 on the curated vectors", "[mate]") {
  check_vector_file("curated.psv");
}

TEST_CASE("native (stale)mate filters reproduce CQL 6.2 on all 3-4 men btm mates and stalemates",
          "[mate][slow]") {
  check_vector_file("all_3_4_men_btm_mates_stalemates.psv.gz");
}
