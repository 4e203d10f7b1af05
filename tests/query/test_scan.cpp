// The scan driver over real tables, built once into the build tree by retro::generate_tables:
// counts in the three conventions against CQL 6.2's vectors and the article's maxDTS figures,
// listings against a brute force over every physical placement, and dtsend against an
// independent walk of the optimal lines.
#include <algorithm>
#include <atomic>
#include <map>
#include <set>
#include <tuple>

#include "egtb/core/fen.hpp"
#include "egtb/core/movegen.hpp"
#include "egtb/store/tablebase.hpp"
#include "query/mate.hpp"
#include "query/scan.hpp"
#include "query/tablebase_context.hpp"
#include "retro/scheduler.hpp"
#include "tests/query/vectors.hpp"
#include "tests/support/catch.hpp"
#include "tests/support/shared_dir.hpp"

namespace egtb::query {

namespace {

using indexing::Convention;

Material material(std::string_view text) {
  const auto m = Material::parse(text);
  REQUIRE(m.has_value());
  return *m;
}

// Every 3-man table and a few 4-man ones (with their dependencies), built on first use.
const std::filesystem::path& tables_dir() {
  static const std::filesystem::path dir = [] {
    retro::GenerateOptions options;
    options.directory = EGTB_SCAN_TABLES_DIR;
    std::vector<Material> targets;
    for (const char* sig : {"KQk", "KRk", "KBk", "KNk", "KPk", "KBNk", "KRkr", "KRkn", "KQRk"})
      targets.push_back(material(sig));
    retro::generate_tables(targets, options);
    return options.directory;
  }();
  return dir;
}

ScanQuery prepared(const std::string& text) {
  Expected<ScanQuery, QueryError> q = prepare_query(text);
  if (!q) FAIL(format_error(q.error(), text));
  return std::move(*q);
}

ScanOptions options(Convention c, int threads = 0) {
  ScanOptions o;
  o.directory = tables_dir();
  o.convention = c;
  o.threads = threads;
  o.list = false;
  return o;
}

uint64_t count(const std::string& sig, const std::string& query, Convention c) {
  const std::array<Material, 1> tables{material(sig)};
  return scan_tables(prepared(query), tables, options(c)).matches;
}

std::vector<std::string> listing(const std::string& sig, const std::string& query, Convention c,
                                 int threads = 0, uint64_t limit = 0) {
  ScanOptions o = options(c, threads);
  o.list = true;
  o.limit = limit;
  std::vector<std::string> fens;
  const std::array<Material, 1> tables{material(sig)};
  scan_tables(prepared(query), tables, o, [&](const Match& m) { fens.push_back(to_fen(m.position)); });
  return fens;
}

// "KRKr" (the vector files' endgame names) -> "KRkr".
std::string signature_of(const std::string& endgame) {
  const size_t black = endgame.find('K', 1);
  std::string sig = endgame.substr(0, black);
  for (char c : endgame.substr(black)) sig += static_cast<char>(std::tolower(c));
  return sig;
}

// Per endgame, the rows whose column is true or a non-empty set.
std::map<std::string, std::array<uint64_t, 8>> vector_counts(const std::filesystem::path& file) {
  std::map<std::string, std::array<uint64_t, 8>> counts;
  test::for_each_vector(file, [&](const test::VectorRow& row) {
    for (size_t i = 0; i < 8; ++i)
      if (row.values[i] != "<false>" && row.values[i] != "[]") ++counts[signature_of(row.label)][i];
  });
  return counts;
}

}  // namespace

TEST_CASE("Physical counts of KQk's Black-to-move mates and stalemates are CQL 6.2's", "[scan]") {
  const std::array<std::pair<const char*, uint64_t>, 6> expected = {{{"btm mate", 364},
                                                                     {"btm stalemate", 872},
                                                                     {"btm puremate", 204},
                                                                     {"btm purestalemate", 560},
                                                                     {"btm modelstalemate", 560},
                                                                     {"btm idealstalemate", 120}}};
  for (const auto& [query, n] : expected) {
    INFO(query);
    CHECK(count("KQk", query, Convention::Physical) == n);
  }
  CHECK(count("Kkq", "wtm mate", Convention::Physical) == 364);  // the colour flip reads KQk
}

TEST_CASE("Whole-table physical counts reproduce every column of CQL 6.2's 3-4 men vectors", "[scan]") {
  const auto shared = test::shared_dir();
  if (!shared) {
    WARN("SKIPPED: ../shared is absent (set EGTB_SHARED_DIR), no CQL 6.2 vectors to compare with");
    return;
  }
  const auto counts = vector_counts(*shared / "reference/cql/all_3_4_men_btm_mates_stalemates.psv.gz");
  for (const char* sig : {"KQk", "KRk", "KBk", "KNk", "KPk", "KBNk", "KRkr", "KNkr", "KQRk", "KRkn"}) {
    const auto found = counts.find(sig);
    REQUIRE(found != counts.end());
    for (size_t i = 0; i < 8; ++i) {
      INFO(sig << " btm " << test::VectorColumns[i]);
      CHECK(count(sig, std::string("btm ") + test::VectorColumns[i], Convention::Physical) ==
            found->second[i]);
    }
  }
}

TEST_CASE("dts == maxdts gives the article's maxDTS positions in each convention", "[scan]") {
  CHECK(count("KBk", "dts == maxdts", Convention::Index462) == 37);
  CHECK(count("KBk", "dts == maxdts", Convention::Classes) == 36);
  CHECK(count("KBk", "dts == maxdts", Convention::Physical) == 288);
  CHECK(count("KBk", "btm dts == maxdts", Convention::Index462) == 0);
  CHECK(count("KNk", "wtm dts == maxdts", Convention::Index462) == 9);
  CHECK(count("KNk", "dts == maxdts", Convention::Classes) == 9);
  CHECK(count("KNk", "dts == maxdts", Convention::Physical) == 72);
  CHECK(count("KNk", "maxdts == 27 dts == 27", Convention::Index462) == 9);
  CHECK(listing("KBk", "dts == maxdts", Convention::Index462).front() == "8/8/8/8/8/8/8/2K1B1k1 w - - 0 1");
}

TEST_CASE("Listings enumerate the distinct images in a fixed order whatever the threads", "[scan]") {
  const std::vector<std::string> physical = listing("KBk", "dts == maxdts", Convention::Physical, 1);
  CHECK(physical.size() == 288);
  CHECK(std::set<std::string>(physical.begin(), physical.end()).size() == 288);
  CHECK(listing("KBk", "dts == maxdts", Convention::Physical, 2) == physical);
  CHECK(listing("KBk", "dts == maxdts", Convention::Classes).size() == 36);
  const std::vector<std::string> all = listing("KQk", "btm stalemate", Convention::Index462, 2);
  CHECK(listing("KQk", "btm stalemate", Convention::Index462, 1, 7) ==
        std::vector<std::string>(all.begin(), all.begin() + 7));
}

namespace {

// Every legal placement of a 3-man signature, both sides to move, by brute force.
uint64_t brute_force_count(const std::string& sig, const std::string& query) {
  const Material m = material(sig);
  const ScanQuery q = prepared(query);
  Evaluator e(q.program);
  const PieceType third = m.count(Color::White, PieceType::Pawn) ? PieceType::Pawn : PieceType::Bishop;
  uint64_t n = 0;
  for (int wk = 0; wk < SquareCount; ++wk)
    for (int bk = 0; bk < SquareCount; ++bk)
      for (int x = 0; x < SquareCount; ++x) {
        if (wk == bk || wk == x || bk == x) continue;
        for (Color stm : {Color::White, Color::Black}) {
          Position pos;
          pos.put_piece(make_piece(Color::White, PieceType::King), square_at(wk));
          pos.put_piece(make_piece(Color::Black, PieceType::King), square_at(bk));
          pos.put_piece(make_piece(Color::White, third), square_at(x));
          pos.set_side_to_move(stm);
          if (!validate(pos) && e.matches(pos)) ++n;
        }
      }
  return n;
}

}  // namespace

TEST_CASE("Physical counts of asymmetric queries equal a brute force over every placement", "[scan]") {
  for (const char* query :
       {"Ba1", "wtm K[a-d1-4] B[e-h5-8]", "light B btm", "ray up (K B k)", "B attacks k", "stalemate"}) {
    INFO("KBk " << query);
    CHECK(count("KBk", query, Convention::Physical) == brute_force_count("KBk", query));
  }
  for (const char* query : {"P[a-d2-4]", "ray right (K P)", "btm P->k", "wtm dark K"}) {
    INFO("KPk " << query);
    CHECK(count("KPk", query, Convention::Physical) == brute_force_count("KPk", query));
  }
}

namespace {

std::optional<Score> probe(const Tablebase& tb, const Position& pos) {
  if (Material::from(pos).is_bare_kings()) return Score::draw();
  return tb.try_probe(pos);
}

// The final positions of every DTS-optimal line from pos, by probing each legal move.
void optimal_ends(const Tablebase& tb, const Position& pos, Score s, std::set<std::string>& seen,
                  std::vector<Position>& ends) {
  if (!seen.insert(to_fen(pos)).second) return;
  if (s.depth() == 0) {
    ends.push_back(pos);
    return;
  }
  for (const Move m : legal_moves(pos)) {
    const Position child = pos.after(m);
    const std::optional<Score> c = probe(tb, child);
    if (c && c->is_valid() && negate(c->value()) == s.value() && c->depth() == s.depth() - 1)
      optimal_ends(tb, child, *c, seen, ends);
  }
}

// The positions of a table matching `base` (index462 listing) whose DTS-optimal lines end in a
// stalemate of the kind `member` (model, pure or ideal): on some line (any) or on every line (all).
std::pair<std::vector<std::string>, std::vector<std::string>> expected_line_ends(const std::string& sig,
                                                                                 const std::string& base,
                                                                                 Bitboard MateSets::*member) {
  const Tablebase tb(tables_dir());
  std::vector<std::string> any, all;
  ScanOptions o = options(Convention::Index462);
  o.list = true;
  const std::array<Material, 1> tables{material(sig)};
  scan_tables(prepared(base), tables, o, [&](const Match& m) {
    std::set<std::string> seen;
    std::vector<Position> ends;
    optimal_ends(tb, m.position, m.score, seen, ends);
    REQUIRE_FALSE(ends.empty());
    const auto model = [&](const Position& p) { return stalemate_sets(p).*member != 0; };
    if (std::any_of(ends.begin(), ends.end(), model)) any.push_back(to_fen(m.position));
    if (std::all_of(ends.begin(), ends.end(), model)) all.push_back(to_fen(m.position));
  });
  return {any, all};
}

}  // namespace

TEST_CASE("dtsend evaluates at the ends of the DTS-optimal lines, as an independent walk finds them",
          "[scan]") {
  for (const char* sig : {"KBk", "KNk"}) {
    INFO(sig);
    const auto [any, all] = expected_line_ends(sig, "dts == maxdts", &MateSets::model);
    CHECK(listing(sig, "dts == maxdts dtsend any : modelstalemate", Convention::Index462) == any);
    CHECK(listing(sig, "dts == maxdts dtsend all : modelstalemate", Convention::Index462) == all);
    CHECK(any.size() == (sig == std::string("KBk") ? 37 : 0));
  }
  // KBNk: some positions have optimal lines ending both in pure and in impure stalemates.
  const auto [any, all] = expected_line_ends("KBNk", "wtm dts >= 9", &MateSets::pure);
  CHECK(listing("KBNk", "wtm dts >= 9 dtsend any : purestalemate", Convention::Index462) == any);
  CHECK(listing("KBNk", "wtm dts >= 9 dtsend all : purestalemate", Convention::Index462) == all);
  CHECK(any.size() == 335);
  CHECK(all.size() == 331);
  CHECK(count("KQk", "dtsend any : stalemate", Convention::Index462) == 115);
  CHECK(count("KQk", "btm dtm <= 4 dtmend all : mate", Convention::Index462) ==
        count("KQk", "btm dtm <= 4", Convention::Index462));
  CHECK(count("KQk", "dtm <= 6 dtmend any : stalemate", Convention::Index462) == 0);
}

TEST_CASE("dtmend and dtsend share their walks between positions: the ends a walk from each alone finds",
          "[scan]") {
  // One context walks the positions of KQk up to DTM 10 and every decided one of KBk in index
  // order, keeping the ends of every position walked; a second keeps few (KBk only), dropping them
  // every few walks. Both give each position the ends, in order and with their move counters,
  // that optimal_ends finds from that position alone (checked on a sample).
  const Tablebase tb(tables_dir());
  const TablebaseContext shared(tb);
  const TablebaseContext forgetful(tb, 500);
  const auto fens = [](const std::vector<Position>& ps) {
    std::vector<std::string> out;
    for (const Position& p : ps) out.push_back(to_fen(p));
    return out;
  };
  size_t walked = 0, compared = 0;
  size_t expected = 0;
  for (const auto& [sig, query, sample] :
       {std::tuple{"KQk", "dtm <= 10", size_t{97}}, std::tuple{"KBk", "dts >= 0", size_t{7}}}) {
    expected += count(sig, query, Convention::Index462);
    INFO(sig);
    ScanOptions o = options(Convention::Index462, 1);
    o.list = true;
    const std::array<Material, 1> tables{material(sig)};
    scan_tables(prepared(query), tables, o, [&](const Match& m) {
      const Metric metric = metric_of(tb.rules(), m.score.value());
      std::vector<Position> ends;
      shared.line_ends(m.position, metric, ends);
      INFO(to_fen(m.position));
      REQUIRE_FALSE(ends.empty());
      if (sig == std::string("KBk")) {
        std::vector<Position> again;
        forgetful.line_ends(m.position, metric, again);
        REQUIRE(fens(again) == fens(ends));
      }
      if (walked++ % sample == 0) {
        std::set<std::string> seen;
        std::vector<Position> alone;
        optimal_ends(tb, m.position, m.score, seen, alone);
        CHECK(fens(alone) == fens(ends));
        ++compared;
      }
    });
  }
  CHECK(walked == expected);
  CHECK(expected > 15'000);
  CHECK(compared > 250);
}

TEST_CASE("Table values of other positions are probed: move legal and maxdts", "[scan]") {
  // A maxDTS position of KNk has a DTS-optimal move to DTS 26, and no move to a better depth.
  CHECK(count("KNk", "dts == 27 move legal : {dts == 26}", Convention::Index462) == 9);
  CHECK(count("KNk", "dts == 27 move legal : {dts < 26}", Convention::Index462) == 0);
  CHECK(count("KQk", "btm move legal : maxdts == 17", Convention::Index462) == 0);
}

TEST_CASE("A list of positions is evaluated with or without tables", "[scan]") {
  const std::vector<Position> positions = {*parse_fen("k7/1Q6/2K5/8/8/8/8/8 b - - 0 1"),
                                           *parse_fen("k7/3N4/1K6/8/8/8/8/8 b - - 0 1"),
                                           *parse_fen("8/8/8/8/8/1N6/8/1k1K4 w - - 0 1")};
  ScanOptions o;
  o.directory.clear();
  std::vector<Match> matches;
  const ScanSummary s = scan_positions(prepared("idealmate | idealstalemate"), positions, o,
                                       [&](const Match& m) { matches.push_back(m); });
  CHECK(s.matches == 2);
  REQUIRE(matches.size() == 2);
  CHECK(matches[1].value.squares != 0);
  CHECK(matches[0].score.is_unknown());

  o.directory = tables_dir();
  matches.clear();
  scan_positions(prepared("dts == maxdts"), positions, o, [&](const Match& m) { matches.push_back(m); });
  REQUIRE(matches.size() == 1);
  CHECK(matches[0].score == Score(Lasker::Stalemates, 27));
}

}  // namespace egtb::query

namespace egtb::query {

TEST_CASE("ScanOptions::stop ends a scan early and says so", "[scan]") {
  const std::array<Material, 2> tables{material("KQRk"), material("KRkr")};
  ScanOptions o = options(Convention::Index462, 2);
  const ScanSummary whole = scan_tables(prepared("wtm"), tables, o);
  CHECK_FALSE(whole.stopped);

  // Stopped after a few polls: fewer entries read, no second table, the flag set.
  std::atomic<int> polls = 0;
  o.stop = [&] { return ++polls > 3; };
  const ScanSummary part = scan_tables(prepared("wtm"), tables, o);
  CHECK(part.stopped);
  CHECK(part.entries < whole.entries);
  CHECK(part.tables.size() == 1);

  // A list of positions stops at once.
  const std::vector<Position> positions(5, *parse_fen("8/8/8/8/8/1N6/8/1k1K4 w - - 0 1"));
  o.stop = [] { return true; };
  const ScanSummary none = scan_positions(prepared("wtm"), positions, o);
  CHECK(none.stopped);
  CHECK(none.evaluated == 0);
}

}  // namespace egtb::query

namespace egtb::query {

TEST_CASE("A listing limit stops the scan within its first block however slow the query", "[scan]") {
  // Before: a listing with a limit evaluated a whole wave (4 blocks of 32,768 entries a thread)
  // before looking at the limit; 'dtmend any : mate' walks a line per position, minutes in all.
  // Now a block stops at the limit and the blocks after it stop too.
  const std::array<Material, 1> tables{material("KQRk")};
  for (int threads : {1, 2}) {
    ScanOptions o = options(Convention::Index462, threads);
    o.list = true;
    o.limit = 5;
    std::vector<Match> found;
    const ScanSummary s =
        scan_tables(prepared("dtmend any : mate"), tables, o, [&](const Match& m) { found.push_back(m); });
    CHECK(found.size() == 5);
    CHECK(s.matches == 5);
    CHECK(s.evaluated < 1000);  // before: every accepted entry of the wave (6 minutes on two cores)
    // The same first five as a listing without a limit.
    o.limit = 0;
    std::vector<std::string> all;
    scan_tables(prepared("dtm > 0"), tables, o, [&](const Match& m) {
      if (all.size() < 5) all.push_back(to_fen(m.position));
    });
    o.limit = 5;
    std::vector<std::string> first;
    scan_tables(prepared("dtm > 0"), tables, o, [&](const Match& m) { first.push_back(to_fen(m.position)); });
    CHECK(first == all);
  }
}

}  // namespace egtb::query
