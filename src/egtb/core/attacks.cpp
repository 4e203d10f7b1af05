#include "egtb/core/attacks.hpp"

#include <vector>

namespace egtb {

namespace {

constexpr int RookDirs[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
constexpr int BishopDirs[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

// Attacks by walking rays square by square: the slow reference the magic tables are built from.
Bitboard ray_attacks(Square s, Bitboard occupied, const int (&dirs)[4][2]) {
  Bitboard b = 0;
  for (const auto& d : dirs) {
    int f = file_of(s) + d[0];
    int r = rank_of(s) + d[1];
    while (f >= 0 && f < 8 && r >= 0 && r < 8) {
      const Square t = make_square(f, r);
      b |= square_bb(t);
      if (contains(occupied, t)) break;
      f += d[0];
      r += d[1];
    }
  }
  return b;
}

// The relevant occupancy mask: the rays without their last square on the board edge.
Bitboard relevant_mask(Square s, const int (&dirs)[4][2]) {
  const Bitboard edges =
      ((Rank1BB | Rank8BB) & ~rank_bb(rank_of(s))) | ((FileABB | FileHBB) & ~file_bb(file_of(s)));
  return ray_attacks(s, 0, dirs) & ~edges;
}

// The magic numbers, a1 ... h8. They were found once by a random search over sparse 64-bit
// numbers (xorshift64*, seed 0x9E3779B97F4A7C15, candidates x & y & z, keeping the first that
// maps every occupancy of the mask without a destructive collision). A wrong magic would leave a
// wrong attack set in the table: fill_magic asserts against it in debug builds, and
// tests/core/test_types.cpp compares every table entry with ray walking.
constexpr std::array<Bitboard, SquareCount> RookMagics = {
    0x1080004008801020ULL, 0x0840092002c03000ULL, 0x1900200010400900ULL, 0x0880100008000480ULL,
    0x4200100420080200ULL, 0x8100020100080400ULL, 0x0200040110886200ULL, 0x0200008040220411ULL,
    0x0404800084400220ULL, 0x0000401000402000ULL, 0x0086001081220440ULL, 0x0408800800100280ULL,
    0x000a001201040820ULL, 0x8848800200840080ULL, 0x4001000100040200ULL, 0x0442000102105084ULL,
    0x9080010020804100ULL, 0x0040404000201009ULL, 0x0000808010002009ULL, 0x2200090021d00100ULL,
    0x0008008008040080ULL, 0x0004004002010040ULL, 0x0011040008015042ULL, 0x00000a0001768104ULL,
    0x0000800080204009ULL, 0x2010004140002001ULL, 0x9800200280100080ULL, 0x1000100080080080ULL,
    0x0050500500080100ULL, 0x0000020080040080ULL, 0x0c10010400420810ULL, 0x1040008200005104ULL,
    0x01808240088004a0ULL, 0x0882804004802000ULL, 0x0880402001001100ULL, 0x2000210409001000ULL,
    0x2000480131001500ULL, 0x0000800400800200ULL, 0x000002380c001003ULL, 0x4600084882000431ULL,
    0x0080002000504000ULL, 0x0300500020004002ULL, 0x0040408200220011ULL, 0x0010040008004040ULL,
    0x0000080004008080ULL, 0x0010040002008080ULL, 0x2012004881020004ULL, 0x8300842444820011ULL,
    0x0088403882010200ULL, 0x0820400080210100ULL, 0x0110910040a00300ULL, 0x0801100280080480ULL,
    0x0242009008200600ULL, 0x1002000489500200ULL, 0x0040800200010080ULL, 0x0091800041000080ULL,
    0x0000209300488001ULL, 0x04c1002414824001ULL, 0x020020000b001041ULL, 0x7000100004200901ULL,
    0x8002002004100802ULL, 0x30010002084c0007ULL, 0x0888221800813004ULL, 0x4000002840840112ULL};
constexpr std::array<Bitboard, SquareCount> BishopMagics = {
    0x20c0090901061081ULL, 0x0024040094030104ULL, 0x8210810200290200ULL, 0x0011040484620000ULL,
    0x0081104002221000ULL, 0x0009012011001350ULL, 0x0081010802400380ULL, 0x0000420210010408ULL,
    0x0008105002280050ULL, 0x0001028484040044ULL, 0x2a00880810408804ULL, 0x7020022282000100ULL,
    0x0084040420100a50ULL, 0x000401010840e000ULL, 0x2020020210420888ULL, 0x0008084202012010ULL,
    0x2010400810018800ULL, 0x0445122008020840ULL, 0x0804100808002008ULL, 0x0008002104110100ULL,
    0x0061005820080800ULL, 0x2001000200820100ULL, 0x480c210084010800ULL, 0x3004442500480420ULL,
    0x1010102240048100ULL, 0x00182009084220a3ULL, 0x8803090a10004205ULL, 0x0208080040202020ULL,
    0x000c044084010040ULL, 0x00a1010002004106ULL, 0x6008210020640202ULL, 0x1600902112860801ULL,
    0x00042008c1220200ULL, 0x010c042002440140ULL, 0x5022080200040820ULL, 0x0402004042940100ULL,
    0x0860108400008020ULL, 0x000c080022021000ULL, 0x0264080652822100ULL, 0x4005031221010401ULL,
    0x0004502410008400ULL, 0x000500b010a20400ULL, 0x0415094050080800ULL, 0x080000201800a104ULL,
    0x4022a80304000110ULL, 0x4012140802028020ULL, 0x40200104010100a0ULL, 0x12810806008b0c41ULL,
    0x0020441008080000ULL, 0x2002120084045420ULL, 0x0704020062080002ULL, 0x0000001084040001ULL,
    0x0322200891240200ULL, 0xf040200210024800ULL, 0x0140824832008042ULL, 0x000210020a004602ULL,
    0x0083042805141020ULL, 0x002c12009a011000ULL, 0x0041a00044140400ULL, 0x00004004020a0202ULL,
    0x0000140010020210ULL, 0x2864160811012200ULL, 0x2060080841082a17ULL, 0xa010041108003100ULL};

// Fills the attack table of one slider on one square; returns the Magic pointing into `table`.
detail::Magic fill_magic(Square s, const int (&dirs)[4][2], Bitboard magic, Bitboard* table) {
  detail::Magic m;
  m.mask = relevant_mask(s, dirs);
  m.magic = magic;
  m.shift = static_cast<unsigned>(64 - popcount(m.mask));
  m.table = table;
  Bitboard subset = 0;
  do {  // Carry-Rippler enumeration of all subsets of the mask.
    const Bitboard attacks = ray_attacks(s, subset, dirs);
    Bitboard& slot = table[m.index(subset)];
    assert(slot == 0 || slot == attacks);
    slot = attacks;
    subset = (subset - m.mask) & m.mask;
  } while (subset);
  return m;
}

size_t table_size(Square s, const int (&dirs)[4][2]) { return size_t{1} << popcount(relevant_mask(s, dirs)); }

struct OwnedSliderTables {
  std::vector<Bitboard> storage;
  detail::SliderTables tables;

  OwnedSliderTables() {
    size_t total = 0;
    for (int i = 0; i < SquareCount; ++i)
      total += table_size(square_at(i), RookDirs) + table_size(square_at(i), BishopDirs);
    storage.assign(total, 0);
    size_t offset = 0;
    for (int i = 0; i < SquareCount; ++i) {
      const auto at = static_cast<size_t>(i);
      tables.rook[at] = fill_magic(square_at(i), RookDirs, RookMagics[at], storage.data() + offset);
      offset += table_size(square_at(i), RookDirs);
      tables.bishop[at] = fill_magic(square_at(i), BishopDirs, BishopMagics[at], storage.data() + offset);
      offset += table_size(square_at(i), BishopDirs);
    }
  }
};

const OwnedSliderTables& owned_slider_tables() {
  static const OwnedSliderTables owned;
  return owned;
}

struct OwnedLineTables {
  detail::LineTables tables;

  OwnedLineTables() {
    for (int a = 0; a < SquareCount; ++a) {
      for (int b = 0; b < SquareCount; ++b) fill(square_at(a), square_at(b));
    }
  }

  void fill(Square a, Square b) {
    const auto ia = static_cast<size_t>(to_index(a));
    const auto ib = static_cast<size_t>(to_index(b));
    if (a == b) return;
    for (const auto* dirs : {&RookDirs, &BishopDirs}) {
      if (!contains(ray_attacks(a, 0, *dirs), b)) continue;
      tables.between[ia][ib] = ray_attacks(a, square_bb(b), *dirs) & ray_attacks(b, square_bb(a), *dirs);
      tables.line[ia][ib] =
          (ray_attacks(a, 0, *dirs) & ray_attacks(b, 0, *dirs)) | square_bb(a) | square_bb(b);
    }
  }
};

const OwnedLineTables& owned_line_tables() {
  static const OwnedLineTables owned;
  return owned;
}

}  // namespace

namespace detail {
const SliderTables& Sliders = owned_slider_tables().tables;
const LineTables& Lines = owned_line_tables().tables;
}  // namespace detail

namespace {

// b moved `step` places along the board's index (negative: down); wrapping round the board's
// edge is the callers' to mask.
constexpr Bitboard slide(Bitboard b, int step) { return step > 0 ? b << step : b >> -step; }

// The squares attacked along one direction (`step`) from the squares of `from` through the
// `empty` squares; `arrive` holds the squares a move in that direction may land on (the file it
// would wrap into left out). The occluded fill doubles its reach each step (1, 2, then 4
// squares), then one more step takes in the first blocker or the edge. Example, step +1 (east), from = {a1},
// empty all but d1: a1-c1 filled, attacks b1, c1, d1.
Bitboard fill_attacks(Bitboard from, Bitboard empty, int step, Bitboard arrive) {
  Bitboard pass = empty & arrive;
  Bitboard reach = from;
  reach |= pass & slide(reach, step);
  pass &= slide(pass, step);
  reach |= pass & slide(reach, 2 * step);
  pass &= slide(pass, 2 * step);
  reach |= pass & slide(reach, 4 * step);
  return slide(reach, step) & arrive;
}

constexpr Bitboard NotA = ~FileABB;
constexpr Bitboard NotH = ~FileHBB;

Bitboard straight_attacks(Bitboard from, Bitboard empty) {
  return fill_attacks(from, empty, 8, ~Bitboard{0}) | fill_attacks(from, empty, -8, ~Bitboard{0}) |
         fill_attacks(from, empty, 1, NotA) | fill_attacks(from, empty, -1, NotH);
}
Bitboard diagonal_attacks(Bitboard from, Bitboard empty) {
  return fill_attacks(from, empty, 9, NotA) | fill_attacks(from, empty, 7, NotH) |
         fill_attacks(from, empty, -7, NotA) | fill_attacks(from, empty, -9, NotH);
}
// One file sideways, then two ranks; two files sideways (the two files it would wrap into left
// out), then one rank.
Bitboard knight_attacks_of_set(Bitboard b) {
  const Bitboard one_file = shift<Direction::East>(b) | shift<Direction::West>(b);
  const Bitboard two_files = ((b << 2) & ~(FileABB | FileABB << 1)) | ((b >> 2) & ~(FileHBB | FileHBB >> 1));
  return (one_file << 16) | (one_file >> 16) | shift<Direction::North>(two_files) |
         shift<Direction::South>(two_files);
}
// A square of b is attacked only when a neighbour of it is in b too.
Bitboard king_attacks_of_set(Bitboard b) {
  const Bitboard sideways = shift<Direction::East>(b) | shift<Direction::West>(b);
  const Bitboard row = b | sideways;
  return sideways | shift<Direction::North>(row) | shift<Direction::South>(row);
}

}  // namespace

Bitboard piece_attacks_of_set(PieceType pt, Bitboard from, Bitboard occupied) {
  if (popcount(from) < 3) {
    Bitboard b = 0;
    for (Bitboard f = from; f;) b |= piece_attacks(pt, pop_lsb(f), occupied);
    return b;
  }
  const Bitboard empty = ~occupied;
  switch (pt) {
    case PieceType::Knight: return knight_attacks_of_set(from);
    case PieceType::Bishop: return diagonal_attacks(from, empty);
    case PieceType::Rook: return straight_attacks(from, empty);
    case PieceType::Queen: return straight_attacks(from, empty) | diagonal_attacks(from, empty);
    case PieceType::King: return king_attacks_of_set(from);
    default: return 0;
  }
}

Bitboard piece_attacks(PieceType pt, Square s, Bitboard occupied) {
  switch (pt) {
    case PieceType::Knight: return knight_attacks(s);
    case PieceType::Bishop: return bishop_attacks(s, occupied);
    case PieceType::Rook: return rook_attacks(s, occupied);
    case PieceType::Queen: return queen_attacks(s, occupied);
    case PieceType::King: return king_attacks(s);
    default: return 0;
  }
}

}  // namespace egtb
