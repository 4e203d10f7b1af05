#include <string>
#include <string_view>

#include "egtb/core/fen.hpp"
#include "egtb/core/movegen.hpp"
#include "egtb/core/notation.hpp"
#include "tests/core/random_play.hpp"
#include "tests/support/catch.hpp"

using namespace egtb;

namespace {

Position position(std::string_view fen) {
  const auto pos = parse_fen(fen);
  INFO(fen);
  REQUIRE(pos.has_value());
  return *pos;
}

// The SAN of the legal move written `uci`, which must exist.
std::string san_of(const Position& pos, std::string_view uci) {
  const auto m = parse_uci(pos, uci);
  INFO(uci);
  REQUIRE(m.has_value());
  return to_san(pos, *m);
}

// The UCI of the legal move written `san`, which must exist.
std::string uci_of(const Position& pos, std::string_view san) {
  const auto m = parse_san(pos, san);
  INFO(san);
  REQUIRE(m.has_value());
  return to_uci(*m);
}

std::string san_error(const Position& pos, std::string_view san) {
  const auto m = parse_san(pos, san);
  INFO(san);
  REQUIRE_FALSE(m.has_value());
  return m.error();
}

}  // namespace

TEST_CASE("SAN and UCI of ordinary moves", "[notation]") {
  const Position start = position(StartFen);
  CHECK(san_of(start, "e2e4") == "e4");
  CHECK(san_of(start, "g1f3") == "Nf3");
  CHECK(uci_of(start, "Nc3") == "b1c3");
  CHECK(uci_of(start, "d4") == "d2d4");
  const Position pos = position("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1");
  CHECK(san_of(pos, "e4d5") == "exd5");
  CHECK(uci_of(pos, "exd5") == "e4d5");
  CHECK(uci_of(pos, "ed5") == "e4d5");
  CHECK(san_of(pos, "e1d2") == "Kd2");
}

TEST_CASE("SAN disambiguation by file, rank and both", "[notation]") {
  const Position by_file = position("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
  CHECK(san_of(by_file, "b1d2") == "Nbd2");
  CHECK(san_of(by_file, "f3d2") == "Nfd2");
  CHECK(san_of(by_file, "f3d4") == "Nd4");
  CHECK(uci_of(by_file, "Nbd2") == "b1d2");
  CHECK(uci_of(by_file, "Nb1d2") == "b1d2");
  CHECK(uci_of(by_file, "N1d2") == "b1d2");

  const Position by_rank = position("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1");
  CHECK(san_of(by_rank, "a1a3") == "R1a3");
  CHECK(san_of(by_rank, "a5a3") == "R5a3");
  CHECK(san_of(by_rank, "a1b1") == "Rb1");
  CHECK(uci_of(by_rank, "R5a3") == "a5a3");

  const Position by_both = position("1k6/8/K7/8/4Q2Q/8/8/7Q w - - 0 1");
  CHECK(san_of(by_both, "h4e1") == "Qh4e1");
  CHECK(san_of(by_both, "e4e1") == "Qee1");
  CHECK(san_of(by_both, "h1e1") == "Q1e1");
  CHECK(uci_of(by_both, "Qh4e1") == "h4e1");
  CHECK(uci_of(by_both, "Qh4xe1") == "h4e1");
}

TEST_CASE("SAN and UCI of promotions", "[notation]") {
  const Position pos = position("3r3k/4P3/8/8/8/8/8/K7 w - - 0 1");
  CHECK(san_of(pos, "e7e8q") == "e8=Q+");
  CHECK(san_of(pos, "e7e8n") == "e8=N");
  CHECK(san_of(pos, "e7d8r") == "exd8=R+");
  CHECK(san_of(pos, "e7d8b") == "exd8=B");
  CHECK(uci_of(pos, "e8=Q") == "e7e8q");
  CHECK(uci_of(pos, "e8Q") == "e7e8q");
  CHECK(uci_of(pos, "exd8=N") == "e7d8n");
  const Position black = position("4k3/8/8/8/8/8/1p6/R3K3 b - - 0 1");
  CHECK(san_of(black, "b2a1q") == "bxa1=Q+");
  CHECK(san_of(black, "b2a1n") == "bxa1=N");
  CHECK(san_of(black, "b2b1q") == "b1=Q+");
  CHECK(uci_of(black, "b1=R+") == "b2b1r");
  CHECK(san_error(pos, "e8").find("not a legal move") != std::string::npos);
}

TEST_CASE("SAN and UCI of castling", "[notation]") {
  const Position pos = position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  CHECK(san_of(pos, "e1g1") == "O-O");
  CHECK(san_of(pos, "e1c1") == "O-O-O");
  CHECK(uci_of(pos, "O-O") == "e1g1");
  CHECK(uci_of(pos, "0-0-0") == "e1c1");
  const auto castle = parse_san(pos, "O-O");
  REQUIRE(castle.has_value());
  CHECK(castle->kind() == MoveKind::Castling);
  const Position black = position("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
  CHECK(uci_of(black, "O-O-O") == "e8c8");
  const Position mate = position("8/8/8/8/8/8/R7/R3K2k w Q - 0 1");
  CHECK(san_of(mate, "e1c1") == "O-O-O#");
  const Position check = position("3k4/8/8/8/8/8/8/R3K3 w Q - 0 1");
  CHECK(san_of(check, "e1c1") == "O-O-O+");
}

TEST_CASE("SAN check and mate suffixes", "[notation]") {
  const Position mate = position("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
  CHECK(san_of(mate, "a1a8") == "Ra8#");
  CHECK(uci_of(mate, "Ra8#") == "a1a8");
  CHECK(uci_of(mate, "Ra8") == "a1a8");
  CHECK(uci_of(mate, "Ra8+!?") == "a1a8");
  const Position check = position("6k1/8/8/8/8/8/8/R5K1 w - - 0 1");
  CHECK(san_of(check, "a1a8") == "Ra8+");
  CHECK(san_of(check, "a1a7") == "Ra7");
  const Position promote_mate = position("7k/5P2/6K1/8/8/8/8/8 w - - 0 1");
  CHECK(san_of(promote_mate, "f7f8q") == "f8=Q#");
  CHECK(san_of(promote_mate, "f7f8n") == "f8=N");
}

TEST_CASE("SAN and UCI of en passant", "[notation]") {
  const Position pos = position("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
  CHECK(san_of(pos, "e5d6") == "exd6");
  const auto ep = parse_san(pos, "exd6");
  REQUIRE(ep.has_value());
  CHECK(ep->kind() == MoveKind::EnPassant);
  CHECK(to_uci(*ep) == "e5d6");
  const Position check = position("8/8/8/8/4Pp2/8/8/4K2k b - e3 0 1");
  CHECK(san_of(check, "f4e3") == "fxe3");
  const Position gives_check = position("4k3/8/8/4Pp2/8/8/8/4RK2 w - f6 0 1");
  CHECK(san_of(gives_check, "e5f6") == "exf6+");
}

TEST_CASE("SAN and UCI parse errors", "[notation]") {
  const Position pos = position("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
  CHECK(san_error(pos, "Nd2").find("ambiguous") != std::string::npos);
  CHECK(san_error(pos, "Nd5").find("not a legal move") != std::string::npos);
  CHECK(san_error(pos, "Ke3x").find("not SAN") != std::string::npos);
  CHECK(san_error(pos, "hello").find("not SAN") != std::string::npos);
  CHECK(san_error(pos, "").find("not SAN") != std::string::npos);
  CHECK(san_error(pos, "Qd1").find("not a legal move") != std::string::npos);
  CHECK(san_error(pos, "O-O").find("not a legal move") != std::string::npos);
  CHECK(san_error(pos, "e9").find("not SAN") != std::string::npos);
  for (std::string_view bad : {"e1e3", "b1d2q", "e1", "", "z9z8", "e1g1"}) {
    const auto m = parse_uci(pos, bad);
    INFO(bad);
    REQUIRE_FALSE(m.has_value());
    CHECK(m.error().find("not a legal move") != std::string::npos);
  }
}

TEST_CASE("SAN and UCI round trip every legal move of random positions", "[notation]") {
  size_t moves_checked = 0;
  for (const Position& pos : test::random_positions(7, 300, 80)) {
    for (Move m : legal_moves(pos)) {
      const std::string san = to_san(pos, m);
      INFO(to_fen(pos) << "  " << san);
      const auto from_san = parse_san(pos, san);
      REQUIRE(from_san.has_value());
      CHECK(*from_san == m);
      const auto from_uci = parse_uci(pos, to_uci(m));
      REQUIRE(from_uci.has_value());
      CHECK(*from_uci == m);
      ++moves_checked;
    }
  }
  CHECK(moves_checked > 3000);
}
