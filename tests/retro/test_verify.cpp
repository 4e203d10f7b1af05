// The forward verifier: solved 3-man tables pass, DTM-only tables pass, and a corrupted table fails
// at the corrupted entry.
#include <algorithm>
#include <string>

#include "egtb/core/fen.hpp"
#include "retro/verify.hpp"
#include "tests/retro/solved_tables.hpp"
#include "tests/support/catch.hpp"

namespace egtb::test {
namespace {

using indexing::Index;

// Keeps every error, so that a corrupted entry is found among errors elsewhere.
retro::VerifyReport verify(const Table& table) {
  retro::VerifyOptions options;
  options.threads = TestThreads;
  options.max_errors = 1'000'000;
  return retro::verify_table(table, solved_tables(), options);
}

// The reported error of entry i of side c, or nullptr.
const retro::VerifyError* error_at(const retro::VerifyReport& report, Color c, Index i) {
  const auto it = std::find_if(report.errors.begin(), report.errors.end(), [&](const retro::VerifyError& e) {
    return e.side_to_move == c && e.index == i;
  });
  return it == report.errors.end() ? nullptr : &*it;
}

// The first entry of side c with its own position, a score satisfying `pred`, and no error in
// `baseline` (the table's report before the corruption), so that its moves give its stored score.
template <class Pred>
Index find_entry(const Table& table, const retro::VerifyReport& baseline, Color c, Pred pred) {
  Position pos;
  for (Index i = 0; i < table.scheme().size(); ++i)
    if (table.scheme().decode(i, c, pos) && table.scheme().index_of(pos) == i && pred(table.at(c, i)) &&
        !error_at(baseline, c, i))
      return i;
  FAIL("no entry found");
  return 0;
}

void set_score(Table& table, Color c, Index i, Score s) { table.set(c, i, s); }

}  // namespace

TEST_CASE("3-man tables pass the forward verification", "[verify]") {
  for (const char* name : {"KQk", "KRk", "KBk", "KNk", "KPk"}) {
    const Table& table = solved(name);
    const retro::VerifyReport report = verify(table);
    INFO(retro::format_report(report));
    CHECK(report.ok());
    CHECK(report.entries_checked == 2 * table.scheme().size());
    CHECK(report.sides[0].positions == count_values(table, Color::White).positions());
    CHECK(report.sides[1].positions == count_values(table, Color::Black).positions());
  }
}

TEST_CASE("the verifier counts positions per side and value", "[verify]") {
  const retro::VerifyReport report = verify(solved("KQk"));
  INFO(retro::format_report(report));
  CHECK(report.sides[0].positions == 18'492);
  CHECK(report.sides[0].values[4] == 18'492);
  CHECK(report.sides[1].positions == 28'644);
  CHECK(report.sides[1].values == std::array<uint64_t, 5>{25'691, 115, 2'838, 0, 0});
}

TEST_CASE("DTM-only tables pass with stalemates read as draws", "[verify]") {
  for (const char* name : {"KQk", "KBk", "KNk"}) {
    const auto table = solve_fresh(parse_material(name), false);
    REQUIRE_FALSE(table->metrics().contains(Metric::Dts));
    const retro::VerifyReport report = verify(*table);
    INFO(retro::format_report(report));
    CHECK(report.ok());
    for (const auto& side : report.sides) {
      CHECK(side.values[1] == 0);
      CHECK(side.values[3] == 0);
    }
  }
}

TEST_CASE("a corrupted depth is found at its entry", "[verify][mutation]") {
  Table table = solved("KQk");
  const Index i = find_entry(table, verify(table), Color::White,
                             [](Score s) { return s.value() == Lasker::Mates && s.depth() == 9; });
  set_score(table, Color::White, i, Score(Lasker::Mates, 11));
  const retro::VerifyReport report = verify(table);
  INFO(retro::format_report(report));
  CHECK_FALSE(report.ok());
  const retro::VerifyError* e = error_at(report, Color::White, i);
  REQUIRE(e != nullptr);
  CHECK(e->expected == Score(Lasker::Mates, 9));
  CHECK(e->stored == Score(Lasker::Mates, 11));
  CHECK(parse_fen(e->fen).has_value());
}

TEST_CASE("a corrupted value is found at its entry", "[verify][mutation]") {
  Table table = solved("KBk");
  const Index i =
      find_entry(table, verify(table), Color::Black, [](Score s) { return s.value() == Lasker::Draw; });
  set_score(table, Color::Black, i, Score(Lasker::Stalemated, 4));
  const retro::VerifyReport report = verify(table);
  const retro::VerifyError* e = error_at(report, Color::Black, i);
  REQUIRE(e != nullptr);
  CHECK(e->expected == Score::draw());
}

TEST_CASE("a wrong parity is reported even where the moves would agree", "[verify][mutation]") {
  Table table = solved("KNk");
  const Index i =
      find_entry(table, verify(table), Color::White, [](Score s) { return s.value() == Lasker::Stalemates; });
  const Score original = table.at(Color::White, i);
  set_score(table, Color::White, i, Score(Lasker::Stalemates, original.depth() + 1));
  const retro::VerifyReport report = verify(table);
  INFO(retro::format_report(report));
  const retro::VerifyError* e = error_at(report, Color::White, i);
  REQUIRE(e != nullptr);
  CHECK(e->problem.find("odd DTS") != std::string::npos);
}

TEST_CASE("a score in an entry that holds no position is reported", "[verify][mutation]") {
  Table table = solved("KRk");
  const uint64_t errors_before = verify(table).error_count;
  Position pos;
  Index i = 0;
  while (table.scheme().decode(i, Color::White, pos)) ++i;
  set_score(table, Color::White, i, Score::draw());
  const retro::VerifyReport report = verify(table);
  CHECK(report.error_count == errors_before + 1);
  CHECK(error_at(report, Color::White, i) != nullptr);
}

TEST_CASE("a stalemate value in a DTM-only table is reported", "[verify][mutation]") {
  const auto table = solve_fresh(parse_material("KBk"), false);
  const Index i =
      find_entry(*table, verify(*table), Color::White, [](Score s) { return s.value() == Lasker::Draw; });
  set_score(*table, Color::White, i, Score(Lasker::Stalemates, 1));
  const retro::VerifyReport report = verify(*table);
  CHECK(error_at(report, Color::White, i) != nullptr);
}

TEST_CASE("the report keeps the first errors in index order", "[verify][mutation]") {
  Table table = solved("KQk");
  const auto black = table.raw(Color::Black);
  std::fill(black.begin(), black.end(), Score::draw().raw());
  retro::VerifyOptions options;
  options.threads = TestThreads;
  options.max_errors = 5;
  const retro::VerifyReport report = retro::verify_table(table, solved_tables(), options);
  REQUIRE(report.errors.size() == 5);
  CHECK(report.error_count > 1000);
  CHECK(std::is_sorted(report.errors.begin(), report.errors.end(),
                       [](const retro::VerifyError& a, const retro::VerifyError& b) {
                         return std::pair(to_index(a.side_to_move), a.index) <
                                std::pair(to_index(b.side_to_move), b.index);
                       }));
  CHECK(report.error_count == report.sides[0].errors + report.sides[1].errors);
}

TEST_CASE("a missing subtable is an error, not a silent pass", "[verify]") {
  const Table& table = solved("KQk");
  const retro::Subtables empty;
  CHECK_NOTHROW(retro::verify_table(table, empty, TestThreads));
  const Table& krkn = solved("KRkn");
  CHECK_THROWS_AS(retro::verify_table(krkn, empty, TestThreads), std::invalid_argument);
}

}  // namespace egtb::test

namespace egtb::test {

TEST_CASE("verification parts tile both sides' entries end to end", "[verify][part]") {
  // KQRBkr's worked example in verify.hpp: 4 parts of 6,826,667,232 entries a side.
  const Index kqrbkr = 6'826'667'232;
  const retro::VerifyPart second{2, 4};
  CHECK(second.range(Color::White, kqrbkr) == std::pair<Index, Index>(3'413'333'616, kqrbkr));
  CHECK(second.range(Color::Black, kqrbkr) == std::pair<Index, Index>(0, 0));
  CHECK(retro::VerifyPart{3, 4}.range(Color::Black, kqrbkr) == std::pair<Index, Index>(0, 3'413'333'616));
  const auto middle = retro::VerifyPart{2, 3};
  CHECK(middle.range(Color::White, kqrbkr).second - middle.range(Color::White, kqrbkr).first ==
        middle.range(Color::Black, kqrbkr).second);
  for (const Index size : {Index{1}, Index{7}, Index{86'688}, kqrbkr})
    for (const uint64_t count : std::array<uint64_t, 5>{1, 2, 3, 5, 16}) {
      // Each side's ranges follow one another from 0 to size, and every entry is in one part.
      std::array<Index, 2> next{};
      for (uint64_t k = 1; k <= count; ++k)
        for (Color c : {Color::White, Color::Black}) {
          const auto [first, end] = retro::VerifyPart{k, count}.range(c, size);
          if (first == end) continue;
          CHECK(first == next[static_cast<size_t>(to_index(c))]);
          next[static_cast<size_t>(to_index(c))] = end;
        }
      CHECK(next == std::array<Index, 2>{size, size});
    }
}

TEST_CASE("a table verified in parts gives the whole table's counts and errors", "[verify][part][mutation]") {
  // KRk with a wrong depth on each side: three parts, the middle one across both sides.
  Table table = solved("KRk");
  for (Color c : {Color::White, Color::Black}) {
    Index i = 0;
    while (!table.at(c, i).is_valid() || table.at(c, i).depth() == 0) ++i;
    i += table.scheme().size() / 2;
    while (!table.at(c, i).is_valid() || table.at(c, i).depth() == 0) ++i;
    table.set(c, i, Score(table.at(c, i).value(), table.at(c, i).depth() + 2));
  }
  retro::VerifyOptions options;
  options.threads = TestThreads;
  options.max_errors = 1'000'000;
  const retro::VerifyReport whole = retro::verify_table(table, solved_tables(), options);
  REQUIRE(whole.error_count > 0);
  retro::VerifyReport sum;
  std::vector<std::pair<int, Index>> errors;
  for (uint64_t k = 1; k <= 3; ++k) {
    options.part = {k, 3};
    int loaded = 0;  // the sides table_for was asked for: only those the part reaches
    const retro::VerifyReport part = retro::verify_table_by_side(
        table.scheme().size(),
        [&](Color) -> const Table& {
          ++loaded;
          return table;
        },
        solved_tables(), options);
    CHECK(loaded == (k == 2 ? 2 : 1));
    CHECK(part.part.number == k);
    sum.entries_checked += part.entries_checked;
    sum.error_count += part.error_count;
    for (size_t s = 0; s < 2; ++s) {
      sum.sides[s].positions += part.sides[s].positions;
      for (size_t v = 0; v < 5; ++v) sum.sides[s].values[v] += part.sides[s].values[v];
    }
    for (const retro::VerifyError& e : part.errors) errors.emplace_back(to_index(e.side_to_move), e.index);
  }
  CHECK(sum.entries_checked == whole.entries_checked);
  CHECK(sum.error_count == whole.error_count);
  for (size_t s = 0; s < 2; ++s) {
    CHECK(sum.sides[s].positions == whole.sides[s].positions);
    CHECK(sum.sides[s].values == whole.sides[s].values);
  }
  std::vector<std::pair<int, Index>> expected;
  for (const retro::VerifyError& e : whole.errors) expected.emplace_back(to_index(e.side_to_move), e.index);
  CHECK(errors == expected);
  options.part = {4, 3};
  CHECK_THROWS_AS(retro::verify_table(table, solved_tables(), options), std::invalid_argument);
}

}  // namespace egtb::test
