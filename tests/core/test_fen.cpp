#include <initializer_list>
#include <string>
#include <string_view>

#include "egtb/core/fen.hpp"
#include "tests/core/random_play.hpp"
#include "tests/support/catch.hpp"

using namespace egtb;

namespace {

// Checks that fen is rejected for `field` (0: the position as a whole) with a message that
// names the field and contains every one of `words`.
void check_rejected(std::string_view fen, int field, std::initializer_list<std::string_view> words) {
  const auto pos = parse_fen(fen);
  INFO("FEN: " << fen);
  REQUIRE_FALSE(pos.has_value());
  const std::string& message = pos.error().message;
  INFO("message: " << message);
  CHECK(pos.error().field == field);
  const std::string where = field == 0 ? "FEN position: " : "FEN field " + std::to_string(field) + " (";
  CHECK(message.rfind(where, 0) == 0);
  for (std::string_view w : words) CHECK(message.find(w) != std::string::npos);
}

}  // namespace

TEST_CASE("FEN round trips", "[fen]") {
  for (std::string_view fen : {
           "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
           "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
           "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w Kq - 12 40",
           "8/8/8/KPp4r/8/8/8/6k1 w - c6 0 57",
           "8/8/8/8/8/8/8/K6k b - - 99 1000",
           "4k2r/8/8/8/8/8/8/R3K3 b Qk - 3 9",
       }) {
    const auto pos = parse_fen(fen);
    REQUIRE(pos.has_value());
    CHECK(to_fen(*pos) == fen);
  }
}

TEST_CASE("FEN without counters and with extra blanks", "[fen]") {
  const auto pos = parse_fen("  8/8/8/8/8/8/8/K6k   b  -  - ");
  REQUIRE(pos.has_value());
  CHECK(to_fen(*pos) == "8/8/8/8/8/8/8/K6k b - - 0 1");
  CHECK(placement_fen(*pos) == "8/8/8/8/8/8/8/K6k b");
}

TEST_CASE("FEN round trips of positions reached by play", "[fen]") {
  for (const Position& pos : test::random_positions(11, 400, 60)) {
    const std::string fen = to_fen(pos);
    const auto back = parse_fen(fen);
    INFO(fen);
    REQUIRE(back.has_value());
    CHECK(to_fen(*back) == fen);
    CHECK(back->same_position(pos));
  }
}

TEST_CASE("FEN error: wrong number of fields", "[fen][fen-error]") {
  check_rejected("8/8/8/8/8/8/8/K6k w - - 0", 0, {"expected 6 fields", "found 5"});
  check_rejected("8/8/8/8/8/8/8/K6k w -", 0, {"found 3"});
  check_rejected("8/8/8/8/8/8/8/K6k w - - 0 1 extra", 0, {"found 7"});
  check_rejected("", 0, {"found 0"});
}

TEST_CASE("FEN error: wrong number of ranks", "[fen][fen-error]") {
  check_rejected("8/8/8/8/8/8/K6k w - - 0 1", 1, {"piece placement", "7 ranks", "expected 8"});
  check_rejected("8/8/8/8/8/8/8/8/K6k w - - 0 1", 1, {"piece placement", "more than 8 ranks"});
}

TEST_CASE("FEN error: wrong number of files", "[fen][fen-error]") {
  check_rejected("8/8/8/8/8/8/8/K5k w - - 0 1", 1, {"piece placement", "rank 1 has 7 files"});
  check_rejected("8/8/8/8/8/8/8/K7k w - - 0 1", 1, {"rank 1 has more than 8 files"});
  check_rejected("8/8/8/8/8/8/8/K6k1 w - - 0 1", 1, {"rank 1 has more than 8 files"});
  check_rejected("8/7/8/8/8/8/8/K6k w - - 0 1", 1, {"rank 7 has 7 files"});
}

TEST_CASE("FEN error: unknown piece letter", "[fen][fen-error]") {
  check_rejected("8/8/8/8/3X4/8/8/K6k w - - 0 1", 1, {"piece placement", "unknown piece letter 'X'"});
  check_rejected("8/8/8/8/9/8/8/K6k w - - 0 1", 1, {"unknown piece letter '9'"});
}

TEST_CASE("FEN error: missing king", "[fen][fen-error]") {
  check_rejected("8/8/8/8/8/8/8/7k w - - 0 1", 0, {"White has no king"});
  check_rejected("8/8/8/8/8/8/8/K7 b - - 0 1", 0, {"Black has no king"});
}

TEST_CASE("FEN error: extra king", "[fen][fen-error]") {
  check_rejected("8/8/8/8/8/8/8/KK5k w - - 0 1", 0, {"White has 2 kings"});
  check_rejected("k7/8/8/8/8/8/8/K5kk w - - 0 1", 0, {"Black has 3 kings"});
}

TEST_CASE("FEN error: pawn on rank 1 or 8", "[fen][fen-error]") {
  check_rejected("P7/8/8/8/8/8/8/K6k w - - 0 1", 0, {"pawn on rank 1 or 8", "a8"});
  check_rejected("8/8/8/8/8/8/8/K5pk w - - 0 1", 0, {"pawn on rank 1 or 8", "g1"});
}

TEST_CASE("FEN error: too many pawns or men", "[fen][fen-error]") {
  check_rejected("8/8/8/8/8/PPPPPPPP/P7/K6k w - - 0 1", 0, {"White has more than 8 pawns"});
  check_rejected("k7/pppppppp/p7/8/8/8/8/7K w - - 0 1", 0, {"Black has more than 8 pawns"});
  check_rejected("QQQQQQQQ/QQQQQQQQ/8/8/8/8/8/K6k w - - 0 1", 0, {"White has more than 16 men"});
}

TEST_CASE("FEN error: side not to move in check", "[fen][fen-error]") {
  check_rejected("8/8/8/8/8/8/8/K5Rk w - - 0 1", 0, {"Black (not to move) is in check"});
  check_rejected("8/8/8/8/8/8/1q6/K6k b - - 0 1", 0, {"White (not to move) is in check"});
}

TEST_CASE("FEN error: side to move in check by three men", "[fen][fen-error]") {
  check_rejected("k3r3/8/3n4/3p4/4K3/8/8/8 w - - 0 1", 0, {"in check by more than two men"});
}

TEST_CASE("FEN error: e.p. square not a square", "[fen][fen-error]") {
  check_rejected("8/8/8/8/8/8/8/K6k w - e9 0 1", 4, {"en passant square", "'e9' is not a square"});
}

TEST_CASE("FEN error: e.p. square on the wrong rank", "[fen][fen-error]") {
  check_rejected("8/8/8/8/4P3/8/8/K6k w - e3 0 1", 4, {"en passant square", "e3", "not on rank 6"});
  check_rejected("8/8/8/4p3/8/8/8/K6k b - e6 0 1", 4, {"e6", "not on rank 3"});
}

TEST_CASE("FEN error: e.p. square without the pawn that made the double step", "[fen][fen-error]") {
  check_rejected("8/8/8/8/8/8/8/K6k w - e6 0 1", 4, {"e.p. square e6", "without a pawn on e5"});
  check_rejected("8/8/8/4P3/8/8/8/K6k w - e6 0 1", 4, {"without a pawn on e5"});
  check_rejected("8/8/8/8/4p3/8/8/K6k b - e3 0 1", 4, {"without a pawn on e4"});
}

TEST_CASE("FEN error: e.p. square with occupied squares", "[fen][fen-error]") {
  check_rejected("8/8/4n3/4p3/8/8/8/K6k w - e6 0 1", 4, {"e6 and e7 must be empty"});
  check_rejected("8/4r3/8/4p3/8/8/8/4K2k w - e6 0 1", 4, {"e6 and e7 must be empty"});
  check_rejected("8/8/8/8/4P3/4N3/8/K6k b - e3 0 1", 4, {"e3 and e2 must be empty"});
}

TEST_CASE("FEN error: e.p. square with a check no double step can give", "[fen][fen-error]") {
  // The rook on a5 checks the king on a4: the pawn's step e7-e5 cannot have caused it.
  check_rejected("8/8/8/r3p3/K7/8/8/7k w - e6 0 1", 4, {"e.p. square e6 is impossible", "check from a5"});
  // Checks that a double step can give are accepted: by the pawn, or discovered through e7.
  CHECK(parse_fen("7k/8/8/4p3/3K4/8/8/8 w - e6 0 1").has_value());
  CHECK(parse_fen("5b1k/8/8/3Pp3/1K6/8/8/8 w - e6 0 1").has_value());
}

TEST_CASE("FEN error: bad side to move", "[fen][fen-error]") {
  check_rejected("8/8/8/8/8/8/8/K6k x - - 0 1", 2, {"side to move", "expected 'w' or 'b', found 'x'"});
  check_rejected("8/8/8/8/8/8/8/K6k W - - 0 1", 2, {"found 'W'"});
}

TEST_CASE("FEN error: bad castling letter", "[fen][fen-error]") {
  check_rejected("8/8/8/8/8/8/8/K6k w X - 0 1", 3, {"castling rights", "unknown castling letter 'X'"});
  check_rejected("r3k2r/8/8/8/8/8/8/R3K2R w KK - 0 1", 3, {"castling letter 'K' repeated"});
}

TEST_CASE("FEN error: castling without king and rook at home", "[fen][fen-error]") {
  check_rejected("8/8/8/8/8/8/8/K6k w K - 0 1", 3, {"castling right 'K'", "king on e1", "rook on h1"});
  check_rejected("4k3/8/8/8/8/8/8/4K3 b q - 0 1", 3,
                 {"castling rights", "castling right 'q'", "king on e8", "rook on a8"});
  check_rejected("r3k2r/8/8/8/8/8/8/R3K1R1 w K - 0 1", 3, {"rook on h1"});
}

TEST_CASE("FEN error: malformed counters", "[fen][fen-error]") {
  check_rejected("8/8/8/8/8/8/8/K6k w - - x 1", 5, {"halfmove clock", "'x' is not a number >= 0"});
  check_rejected("8/8/8/8/8/8/8/K6k w - - -1 1", 5, {"halfmove clock", "'-1'"});
  check_rejected("8/8/8/8/8/8/8/K6k w - - 0 0", 6, {"fullmove number", "'0' is not a number >= 1"});
  check_rejected("8/8/8/8/8/8/8/K6k w - - 0 1x", 6, {"fullmove number", "'1x'"});
  check_rejected("8/8/8/8/8/8/8/K6k w - - 0 99999999999", 6, {"fullmove number"});
}

TEST_CASE("FEN keeps an e.p. square without a capture, play records only capturable ones", "[fen]") {
  const auto pos = parse_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
  REQUIRE(pos.has_value());
  CHECK(pos->ep_square() == Square::E3);
  CHECK_FALSE(pos->has_ep_capture());
  Position normalized = *pos;
  normalized.normalize_ep_square();
  CHECK(to_fen(normalized) == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
  CHECK(normalized.same_position(*pos));

  const auto start = parse_fen("4k3/8/8/8/5p2/8/4P3/4K3 w - - 0 1");
  REQUIRE(start.has_value());
  CHECK(to_fen(start->after(Move(Square::E2, Square::E4))) == "4k3/8/8/8/4Pp2/8/8/4K3 b - e3 0 1");
  CHECK(to_fen(start->after(Move(Square::E2, Square::E3))) == "4k3/8/8/8/5p2/4P3/8/4K3 b - - 0 1");
}
