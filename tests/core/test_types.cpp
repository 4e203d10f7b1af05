#include "egtb/core/attacks.hpp"
#include "egtb/core/bitboard.hpp"
#include "egtb/core/types.hpp"
#include "tests/support/catch.hpp"

using namespace egtb;

namespace {

// Slider attacks by walking each ray, the independent reference for the magic tables.
Bitboard walk(Square s, Bitboard occupied, std::initializer_list<std::pair<int, int>> dirs) {
  Bitboard b = 0;
  for (auto [df, dr] : dirs) {
    for (int f = file_of(s) + df, r = rank_of(s) + dr; f >= 0 && f < 8 && r >= 0 && r < 8; f += df, r += dr) {
      b |= square_bb(make_square(f, r));
      if (contains(occupied, make_square(f, r))) break;
    }
  }
  return b;
}

}  // namespace

TEST_CASE("square names and coordinates", "[types]") {
  CHECK(to_index(Square::E4) == 28);
  CHECK(square_name(Square::E4) == "e4");
  CHECK(parse_square("h8") == Square::H8);
  CHECK_FALSE(parse_square("i1").has_value());
  CHECK_FALSE(parse_square("a9").has_value());
  CHECK(flip_rank(Square::A1) == Square::A8);
  CHECK(flip_file(Square::A1) == Square::H1);
  CHECK(flip_diag(Square::B1) == Square::A2);
  CHECK(relative_rank(Color::Black, Square::E7) == 1);
}

TEST_CASE("pieces and letters", "[types]") {
  CHECK(to_index(make_piece(Color::Black, PieceType::Rook)) == 12);
  CHECK(piece_char(make_piece(Color::White, PieceType::Knight)) == 'N');
  CHECK(piece_from_char('q') == make_piece(Color::Black, PieceType::Queen));
  CHECK_FALSE(piece_from_char('x').has_value());
}

TEST_CASE("bitboard flips agree with square flips", "[bitboard]") {
  for (int i = 0; i < SquareCount; ++i) {
    const Square s = square_at(i);
    CHECK(flip_ranks(square_bb(s)) == square_bb(flip_rank(s)));
    CHECK(flip_files(square_bb(s)) == square_bb(flip_file(s)));
    CHECK(flip_diag(square_bb(s)) == square_bb(flip_diag(s)));
  }
}

TEST_CASE("magic slider attacks equal ray walking", "[attacks]") {
  uint64_t x = 0x2545F4914F6CDD1DULL;
  for (int trial = 0; trial < 20000; ++trial) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    const Square s = square_at(static_cast<int>(x % 64));
    const Bitboard occupied = x & (x >> 5) & (x >> 11);
    REQUIRE(rook_attacks(s, occupied) == walk(s, occupied, {{1, 0}, {-1, 0}, {0, 1}, {0, -1}}));
    REQUIRE(bishop_attacks(s, occupied) == walk(s, occupied, {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}));
  }
}

// Every occupancy of every slider's mask: a wrong magic number would show up here.
TEST_CASE("magic slider attacks are exact for every occupancy of the mask", "[attacks]") {
  const std::initializer_list<std::pair<int, int>> straight = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
  const std::initializer_list<std::pair<int, int>> diagonal = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
  for (int i = 0; i < SquareCount; ++i) {
    const Square s = square_at(i);
    const Bitboard edges =
        ((Rank1BB | Rank8BB) & ~rank_bb(rank_of(s))) | ((FileABB | FileHBB) & ~file_bb(file_of(s)));
    for (bool rook : {true, false}) {
      const auto dirs = rook ? straight : diagonal;
      const Bitboard mask = walk(s, 0, dirs) & ~edges;
      Bitboard subset = 0;
      do {
        const Bitboard table = rook ? rook_attacks(s, subset) : bishop_attacks(s, subset);
        REQUIRE(table == walk(s, subset, dirs));
        subset = (subset - mask) & mask;
      } while (subset);
    }
  }
}

TEST_CASE("leaper attacks", "[attacks]") {
  CHECK(popcount(knight_attacks(Square::A1)) == 2);
  CHECK(popcount(knight_attacks(Square::D4)) == 8);
  CHECK(popcount(king_attacks(Square::H8)) == 3);
  CHECK(pawn_attacks(Color::White, Square::E4) == (square_bb(Square::D5) | square_bb(Square::F5)));
  CHECK(pawn_attacks(Color::Black, Square::A7) == square_bb(Square::B6));
}

TEST_CASE("between and line", "[attacks]") {
  CHECK(between(Square::A1, Square::D4) == (square_bb(Square::B2) | square_bb(Square::C3)));
  CHECK(between(Square::A1, Square::B3) == 0);
  CHECK(contains(line(Square::C3, Square::E5), Square::H8));
  CHECK(line(Square::A1, Square::B3) == 0);
}

// The set-wise attacks against the union of the square-wise ones, for every piece, on random sets
// of origins (from one square to dense ones) and occupancies that may overlap them.
TEST_CASE("attacks of a set of squares equal the union of each square's", "[attacks]") {
  uint64_t x = 0x9E3779B97F4A7C15ULL;
  const auto next = [&] {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return x;
  };
  for (int trial = 0; trial < 20000; ++trial) {
    const Bitboard occupied = next() & next();
    Bitboard from = next();
    for (int thin = trial % 6; thin > 0; --thin) from &= next();
    for (PieceType pt :
         {PieceType::Knight, PieceType::Bishop, PieceType::Rook, PieceType::Queen, PieceType::King}) {
      Bitboard expected = 0;
      for (Bitboard f = from; f;) expected |= piece_attacks(pt, pop_lsb(f), occupied);
      REQUIRE(piece_attacks_of_set(pt, from, occupied) == expected);
    }
  }
  const Bitboard corners = square_bb(Square::A1) | square_bb(Square::H8);
  CHECK(piece_attacks_of_set(PieceType::Rook, corners, 0) ==
        ((FileABB | FileHBB | Rank1BB | Rank8BB) & ~corners));
  CHECK(piece_attacks_of_set(PieceType::Rook, corners | square_bb(Square::H1), 0) ==
        (FileABB | FileHBB | Rank1BB | Rank8BB));
}
