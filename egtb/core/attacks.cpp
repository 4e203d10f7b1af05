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
  const Bitboard edges = ((Rank1BB | Rank8BB) & ~rank_bb(rank_of(s))) |
                         ((FileABB | FileHBB) & ~file_bb(file_of(s)));
  return ray_attacks(s, 0, dirs) & ~edges;
}

// A small deterministic generator (xorshift64*); sparse candidates make good magics.
struct Prng {
  uint64_t state;
  uint64_t next() {
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return state * 2685821657736338717ULL;
  }
  uint64_t sparse() { return next() & next() & next(); }
};

class MagicBuilder {
public:
  explicit MagicBuilder(std::vector<Bitboard>& storage) : storage_(storage) {}

  // Finds a magic for square s and fills its slice of the storage; returns the Magic.
  detail::Magic build(Square s, const int (&dirs)[4][2], Prng& prng, size_t offset) {
    detail::Magic m;
    m.mask = relevant_mask(s, dirs);
    const int bits = popcount(m.mask);
    m.shift = static_cast<unsigned>(64 - bits);
    const size_t size = size_t{1} << bits;
    std::vector<Bitboard> occupancy(size), reference(size);
    Bitboard subset = 0;
    for (size_t i = 0; i < size; ++i) {  // Carry-Rippler enumeration of all subsets of the mask.
      occupancy[i] = subset;
      reference[i] = ray_attacks(s, subset, dirs);
      subset = (subset - m.mask) & m.mask;
    }
    std::vector<uint32_t> epoch(size, 0);
    for (uint32_t attempt = 1;; ++attempt) {
      m.magic = prng.sparse();
      if (popcount((m.mask * m.magic) >> 56) < 6) continue;
      if (fits(m, occupancy, reference, epoch, attempt, offset)) break;
    }
    return m;
  }

private:
  bool fits(const detail::Magic& m, const std::vector<Bitboard>& occupancy,
            const std::vector<Bitboard>& reference, std::vector<uint32_t>& epoch, uint32_t attempt,
            size_t offset) {
    for (size_t i = 0; i < occupancy.size(); ++i) {
      const size_t idx = m.index(occupancy[i]);
      if (epoch[idx] != attempt) {
        epoch[idx] = attempt;
        storage_[offset + idx] = reference[i];
      } else if (storage_[offset + idx] != reference[i]) {
        return false;
      }
    }
    return true;
  }

  std::vector<Bitboard>& storage_;
};

struct OwnedSliderTables {
  std::vector<Bitboard> storage;
  detail::SliderTables tables;

  OwnedSliderTables() {
    size_t total = 0;
    for (int i = 0; i < SquareCount; ++i) {
      total += size_t{1} << popcount(relevant_mask(square_at(i), RookDirs));
      total += size_t{1} << popcount(relevant_mask(square_at(i), BishopDirs));
    }
    storage.resize(total);
    MagicBuilder builder(storage);
    Prng prng{0x9E3779B97F4A7C15ULL};
    size_t offset = 0;
    for (int i = 0; i < SquareCount; ++i) {
      offset = place(builder.build(square_at(i), RookDirs, prng, offset), tables.rook[static_cast<size_t>(i)], offset);
      offset = place(builder.build(square_at(i), BishopDirs, prng, offset), tables.bishop[static_cast<size_t>(i)], offset);
    }
  }

  size_t place(const detail::Magic& m, detail::Magic& slot, size_t offset) {
    slot = m;
    slot.table = storage.data() + offset;
    return offset + (size_t{1} << (64 - m.shift));
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
      tables.line[ia][ib] = (ray_attacks(a, 0, *dirs) & ray_attacks(b, 0, *dirs)) | square_bb(a) | square_bb(b);
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
