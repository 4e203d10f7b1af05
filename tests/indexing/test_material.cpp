#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "egtb/core/fen.hpp"
#include "egtb/core/material.hpp"
#include "tests/indexing/support.hpp"
#include "tests/support/catch.hpp"

using namespace egtb;
using egtb::test::material;

namespace {

std::string parse_error(std::string_view text) {
  const auto m = Material::parse(text);
  REQUIRE_FALSE(m.has_value());
  return m.error();
}

std::vector<std::string> names(const std::vector<Material>& list) {
  std::vector<std::string> out;
  for (const Material& m : list) out.push_back(m.str());
  return out;
}

}  // namespace

TEST_CASE("material signatures parse in both forms", "[material]") {
  const Material m = material("KQPkq");
  CHECK(m.str() == "KQPkq");
  CHECK(m.syzygy_name() == "KQPvKQ");
  CHECK(m.men() == 5);
  CHECK(m.count(Color::White) == 3);
  CHECK(m.count(Color::Black, PieceType::Queen) == 1);
  CHECK(m.count(Color::Black, PieceType::Pawn) == 0);
  CHECK(m.has_pawns());
  CHECK(m.has_pawns(Color::White));
  CHECK_FALSE(m.has_pawns(Color::Black));
  CHECK(material("KQPvKQ") == m);
  CHECK(material("kqPvkq") == m);
  CHECK(material("KPQkq") == m);
  CHECK(material("KvK").is_bare_kings());
  CHECK(material("Kk") == Material());
  CHECK(material("KBNk").str() == "KBNk");
}

TEST_CASE("invalid material signatures name the problem", "[material]") {
  CHECK(parse_error("") == "empty material signature");
  CHECK(parse_error("Qk") == "White has no king in \"Qk\"");
  CHECK(parse_error("KQ") == "Black has no king in \"KQ\"");
  CHECK(parse_error("KKk") == "White has 2 kings in \"KKk\"");
  CHECK(parse_error("KvKK") == "Black has 2 kings in \"KvKK\"");
  CHECK(parse_error("KXk") ==
        "unknown piece letter 'X' in \"KXk\" (expected K Q R B N P, Black in lower case, or the form KQvK)");
  CHECK(parse_error("Kk ").find("unknown piece letter ' '") == 0);
  CHECK(parse_error("KvKvK") == "more than one 'v' in \"KvKvK\"");
  CHECK(parse_error("KPPPPPPPPPk") == "White has 9 pawns in \"KPPPPPPPPPk\" (at most 8)");
  CHECK(parse_error("KQRkqrb") == "\"KQRkqrb\" has 7 men; this build supports at most 6");
}

TEST_CASE("colour flip and the canonical side", "[material]") {
  CHECK(material("Kkq").mirrored() == material("KQk"));
  CHECK(material("KQk").mirrored().str() == "Kkq");
  CHECK(material("Kkq").normalized().str() == "KQk");
  CHECK_FALSE(material("Kkq").is_canonical());
  CHECK(material("KQk").is_canonical());
  // Equal sides: the signature is its own flip.
  CHECK(material("KQkq").mirrored() == material("KQkq"));
  CHECK(material("KQkq").is_canonical());
  CHECK(material("KPkp").is_canonical());
  // Material value first (R 5 < B + N 6, Q 9 < R + R 10, B 3 > P + P 2) ...
  CHECK(material("KRkbn").normalized().str() == "KBNkr");
  CHECK(material("KQkrr").normalized().str() == "KRRkq");
  CHECK(material("KPPkb").normalized().str() == "KBkpp");
  CHECK(material("KRPkr").normalized().str() == "KRPkr");
  // ... then the counts of Q, R, B, N, P: a bishop ranks above a knight of equal value.
  CHECK(material("KNkb").normalized().str() == "KBkn");
  CHECK(material("KBkn").is_canonical());
}

TEST_CASE("material of a position", "[material]") {
  const auto pos = parse_fen("8/8/8/3pP3/8/8/8/K6k w - d6 0 1");
  REQUIRE(pos.has_value());
  CHECK(Material::from(*pos).str() == "KPkp");
  CHECK(Material::from(*parse_fen(std::string(StartFen))).men() == 32);
}

TEST_CASE("successors: captures, promotions and capturing promotions", "[material]") {
  CHECK(names(material("KQk").successors()) == std::vector<std::string>{"Kk"});
  CHECK(names(material("KPk").successors()) == std::vector<std::string>{"Kk", "KBk", "KNk", "KQk", "KRk"});
  CHECK(names(material("KPkp").successors()) ==
        std::vector<std::string>{"KPk", "KBkp", "KNkp", "KQkp", "KRkp"});
  // KQPkq: captures (KQkp = KPkq flipped, KQkq, KQPk), promotions (KQQkq ...), and promotions that
  // capture the black queen (KQQk ...).
  CHECK(names(material("KQPkq").successors()) == std::vector<std::string>{"KQBk", "KQNk", "KQQk", "KQRk",
                                                                          "KQkq", "KQPk", "KQkp", "KQBkq",
                                                                          "KQNkq", "KQQkq", "KQRkq"});
  // Successors of a non-canonical signature are canonical.
  CHECK(material("Kkp").successors() == material("KPk").successors());
}

TEST_CASE("dependency closure in build order", "[material]") {
  const std::vector<Material> kpk = {material("KPk")};
  CHECK(names(dependency_closure(kpk)) == std::vector<std::string>{"KBk", "KNk", "KQk", "KRk", "KPk"});
  const std::vector<Material> targets = {material("Kkqp"), material("KRPkr")};
  const std::vector<Material> order = dependency_closure(targets);
  CHECK(order.back().str() == "KRPkr");
  std::set<Material> built;
  for (const Material& m : order) {
    INFO(m.str());
    CHECK(m.is_canonical());
    CHECK_FALSE(m.is_bare_kings());
    for (const Material& s : m.successors()) CHECK((s.is_bare_kings() || built.count(s) == 1));
    CHECK(built.insert(m).second);
  }
  CHECK(built.count(material("KQPk")) == 1);
  CHECK(dependency_closure(targets) == order);
}

TEST_CASE("all signatures: 35 tables up to 4 men, 145 up to 5", "[material]") {
  CHECK(all_signatures(3).size() == 5);
  CHECK(all_signatures(4).size() == 35);
  const std::vector<Material> all = all_signatures(5);
  CHECK(all.size() == 145);
  CHECK(std::is_sorted(all.begin(), all.end(), build_order_less));
  CHECK(std::set<Material>(all.begin(), all.end()).size() == all.size());
  CHECK(std::all_of(all.begin(), all.end(),
                    [](const Material& m) { return m.is_canonical() && m.men() >= 3; }));
  CHECK(dependency_closure(all) == all);
  CHECK(all_signatures(6).size() == 510);
}
