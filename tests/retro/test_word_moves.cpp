// The solver's word kernels (retro/word_moves.hpp) against the general code, position by
// position: validity against the storage index's rules, un-moves against un-move generation,
// forward escapes against legal move generation, and exit candidates covering every capture and
// promotion. Positions are compared through their storage entries, which fold symmetric images,
// twin entries and the order of identical men.
#include <random>
#include <set>
#include <string>
#include <vector>

#include "egtb/core/fen.hpp"
#include "egtb/core/movegen.hpp"
#include "egtb/core/unmovegen.hpp"
#include "retro/word_moves.hpp"
#include "tests/support/catch.hpp"

namespace egtb::test {
namespace {

using indexing::Index;
using indexing::IndexScheme;
using indexing::WordLayout;
using retro::WordMen;
using retro::WordMoves;

// A table's scheme, layout and kernels.
struct Layouts {
  explicit Layouts(const char* signature)
      : scheme(*Material::parse(signature)), layout(scheme), moves(layout) {}
  IndexScheme scheme;
  WordLayout layout;
  WordMoves moves;

  // The storage entry of layout position p, or nothing for no legal position.
  [[nodiscard]] std::optional<Index> entry(uint64_t p, Color stm) const {
    const auto pos = layout.placement(p, stm);
    return pos ? scheme.index_of(*pos) : std::nullopt;
  }
};

// Words to look at: all of a small table, a sample of a large one.
std::vector<uint64_t> words_of(const Layouts& t, uint64_t sample) {
  std::vector<uint64_t> words;
  if (t.layout.words() <= sample) {
    for (uint64_t w = 0; w < t.layout.words(); ++w) words.push_back(w);
    return words;
  }
  std::mt19937_64 rng(3);
  std::uniform_int_distribution<uint64_t> word(0, t.layout.words() - 1);
  for (uint64_t n = 0; n < sample; ++n) words.push_back(word(rng));
  return words;
}

// Calls f(w, c, bit, pos) for every legal position pos (side c to move, innermost man on bit) of
// the words words_of(t, sample) gives.
template <class F>
void for_each_position(const Layouts& t, uint64_t sample, F&& f) {
  WordMen w;
  for (uint64_t word : words_of(t, sample)) {
    t.moves.decode(word, w);
    for (Color c : {Color::White, Color::Black})
      for (Bitboard v = t.moves.valid(w, c); v;) {
        const Square bit = pop_lsb(v);
        f(w, c, bit, *t.layout.placement(word * 64 + static_cast<uint64_t>(to_index(bit)), c));
      }
  }
}

// The storage entries of the predecessors of position `bit` of word w (side c to move) that the
// kernels list, double steps that may have left an e.p. capture included when none was left.
std::set<Index> kernel_predecessors(const Layouts& t, const WordMen& w, Color c, Square bit) {
  std::set<Index> out;
  const auto add = [&](uint64_t word, Bitboard bits) {
    for (; bits; bits &= bits - 1)
      if (const auto e = t.entry(word * 64 + static_cast<uint64_t>(std::countr_zero(bits)), ~c))
        out.insert(*e);
  };
  const Position child = *t.layout.placement(w.word * 64 + static_cast<uint64_t>(to_index(bit)), c);
  t.moves.unmoves(w, ~c, square_bb(bit), add, [&](int man, Square from, Bitboard bits) {
    REQUIRE(bits == square_bb(bit));
    const Square to = man == t.layout.inner() ? bit : w.men.squares[static_cast<size_t>(man)];
    Position with_ep = child;
    with_ep.set_ep_square(square_at((to_index(from) + to_index(to)) / 2));
    if (with_ep.has_ep_capture()) return;  // the double step led to the e.p. position
    Position before = child;
    before.remove_piece(to);
    before.put_piece(make_piece(~c, PieceType::Pawn), from);
    before.set_side_to_move(~c);
    if (const auto e = t.scheme.index_of(before)) out.insert(*e);
  });
  // The king's un-moves in two parts, as the solver makes them: those to the plain steps land at
  // the word's own offset in another pair, its bit unmoved (the solver pulls them that way).
  const auto pair =
      static_cast<size_t>(t.layout.slot_of(w.word) % static_cast<uint64_t>(t.layout.kings().size));
  const Bitboard plain = t.moves.plain_king_steps(pair, ~c);
  t.moves.king_unmoves(w, ~c, square_bb(bit), plain, [&](uint64_t word, Bitboard bits) {
    REQUIRE(word % t.layout.pair_words() == w.word % t.layout.pair_words());
    REQUIRE(bits == square_bb(bit));
    add(word, bits);
  });
  t.moves.king_unmoves(w, ~c, square_bb(bit), t.moves.imaged_king_steps(pair, ~c), add);
  return out;
}

std::set<Index> general_predecessors(const Layouts& t, const Position& pos) {
  std::vector<Unmove> unmoves;
  UnmoveOptions options;
  options.triple_checks = true;
  generate_unmoves(pos, options, unmoves);
  std::set<Index> out;
  for (const Unmove& u : unmoves) out.insert(*t.scheme.index_of(u.before));
  return out;
}

TEST_CASE("a decoded word's sets are those of its men", "[retro][word-moves]") {
  // Whole layouts and every fifth slice of KRPkr (by placements) and KPPkp (by files), every
  // word: the sets kept per placement of the digits' men must be the ones the decoded men give,
  // kings added.
  const auto check = [](const WordLayout& layout) {
    const WordMoves moves(layout);
    WordMen w;
    for (uint64_t word = 0; word < layout.words(); ++word) {
      moves.decode(word, w);
      Bitboard occupied = 0;
      std::array<Bitboard, 2> pawns{};
      bool overlap = false;
      for (int j = 0; j < layout.man_count(); ++j) {
        if (j == layout.inner()) continue;
        const Bitboard b = square_bb(w.men.squares[static_cast<size_t>(j)]);
        overlap |= (occupied & b) != 0;
        occupied |= b;
        if (type_of(layout.man_piece(j)) == PieceType::Pawn)
          pawns[static_cast<size_t>(to_index(color_of(layout.man_piece(j))))] |= b;
      }
      REQUIRE(w.word == word);
      REQUIRE(w.occupied == occupied);
      REQUIRE(w.pawns == pawns);
      REQUIRE(w.overlap == overlap);
    }
  };
  for (const char* sig : {"KQk", "KRkn", "KPkp", "KBBk"}) {
    CAPTURE(sig);
    const IndexScheme scheme(*Material::parse(sig));
    check(WordLayout(scheme));
  }
  for (const auto& [sig, slicing] :
       {std::pair{"KRPkr", indexing::Slicing::Placements}, std::pair{"KPPkp", indexing::Slicing::Files}}) {
    CAPTURE(sig);
    const IndexScheme scheme(*Material::parse(sig));
    const indexing::PawnSlices slices(scheme, slicing);
    for (size_t s = 0; s < slices.size(); s += 5) check(WordLayout(scheme, slices[s]));
  }
}

TEST_CASE("word validity is the storage index's", "[retro][word-moves]") {
  for (const char* sig : {"KQk", "KPk", "KRkr", "KRRk", "KBNk", "KPkp", "KRkp", "KPPk", "KQRkr", "KRPkr"}) {
    const Layouts t(sig);
    WordMen w;
    uint64_t wrong = 0, valid = 0;
    for (uint64_t word : words_of(t, 100'000)) {
      t.moves.decode(word, w);
      for (Color c : {Color::White, Color::Black}) {
        const Bitboard v = t.moves.valid(w, c);
        valid += static_cast<uint64_t>(popcount(v));
        for (int b = 0; b < 64; ++b)
          wrong += t.entry(word * 64 + static_cast<uint64_t>(b), c).has_value() != ((v >> b) & 1);
      }
    }
    INFO(sig);
    CHECK(wrong == 0);
    CHECK(valid > 0);
  }
}

TEST_CASE("word un-moves are the general un-moves", "[retro][word-moves]") {
  for (const char* sig : {"KQk", "KPk", "KRkr", "KRRk", "KBNk", "KPkp", "KRkp", "KPPk", "KQRBk", "KPPkp"}) {
    const Layouts t(sig);
    uint64_t compared = 0;
    for_each_position(t, 3000, [&](const WordMen& w, Color c, Square bit, const Position& pos) {
      if (validate(pos)) return;  // a triple check: no predecessor
      ++compared;
      if (kernel_predecessors(t, w, c, bit) != general_predecessors(t, pos))
        FAIL_CHECK(sig << " " << to_fen(pos));
    });
    INFO(sig);
    CHECK(compared > 1000);
  }
}

TEST_CASE("plain king steps keep the king pair canonical", "[retro][word-moves]") {
  // Against is_canonical_kings, for every pair and mover of a pawnless and a pawn layout: a step
  // of the mover's king that does not touch the other king is plain exactly when the new pair is
  // canonical as it stands, and imaged otherwise.
  for (const char* sig : {"KRk", "KPk"}) {
    const Layouts t(sig);
    const indexing::KkMap& kings = t.layout.kings();
    int plain = 0, imaged = 0;
    for (size_t pair = 0; pair < static_cast<size_t>(kings.size); ++pair)
      for (Color mover : {Color::White, Color::Black}) {
        const auto m = static_cast<size_t>(to_index(mover));
        const Bitboard steps = t.moves.plain_king_steps(pair, mover);
        const Bitboard imaged_steps = t.moves.imaged_king_steps(pair, mover);
        for (int sq = 0; sq < 64; ++sq) {
          std::array<Square, 2> squares = kings.kings[pair];
          const bool step = contains(king_attacks(squares[m]), square_at(sq)) &&
                            !contains(king_attacks(squares[1 - m]), square_at(sq));
          squares[m] = square_at(sq);
          const bool canonical = step && indexing::is_canonical_kings(kings.pawns, squares[0], squares[1]);
          INFO(sig << " pair " << pair << " square " << sq);
          REQUIRE(contains(steps, square_at(sq)) == canonical);
          REQUIRE(contains(imaged_steps, square_at(sq)) == (step && !canonical));
          plain += canonical;
          imaged += step && !canonical;
        }
      }
    CHECK(plain > 0);
    CHECK(imaged > 0);
  }
}

// Checks the forward escapes of every word of `sig` against the legal moves. Targets: a random half
// of the storage entries, so that identical men and twin entries agree.
void check_forward_escapes(const char* sig) {
  const Layouts t(sig);
  std::array<std::vector<uint64_t>, 2> targets;
  for (Color c : {Color::White, Color::Black}) {
    auto& set = targets[static_cast<size_t>(to_index(c))];
    set.assign(t.layout.words(), 0);
    for (uint64_t p = 0; p < t.layout.words() * 64; ++p)
      if (const auto e = t.entry(p, c); e && (*e * 0x9E3779B97F4A7C15ULL) >> 63)
        set[p / 64] |= uint64_t{1} << (p % 64);
  }
  WordMen w;
  uint64_t wrong = 0, doubtful = 0;
  for (uint64_t word = 0; word < t.layout.words(); ++word) {
    t.moves.decode(word, w);
    for (Color c : {Color::White, Color::Black}) {
      const Bitboard candidates = t.moves.valid(w, c);
      Bitboard ep = 0;
      const Bitboard good =
          t.moves.forward(w, c, candidates, targets[static_cast<size_t>(to_index(~c))].data(), ep);
      for (Bitboard b = candidates; b;) {
        const Square bit = pop_lsb(b);
        const Position pos = *t.layout.placement(word * 64 + static_cast<uint64_t>(to_index(bit)), c);
        bool expected = false;
        for (Move m : legal_moves(pos)) {
          if (m.kind() == MoveKind::Promotion || !pos.empty(m.to())) continue;
          const Position next = pos.after(m);
          const auto e = t.scheme.index_of(next);
          if (next.ep_square() == Square::None && e && (*e * 0x9E3779B97F4A7C15ULL) >> 63) expected = true;
        }
        const bool kernel = contains(good, bit);
        if (contains(ep, bit)) {
          ++doubtful;
          wrong += kernel && !expected;  // double steps left out can only take escapes away
        } else {
          wrong += kernel != expected;
        }
      }
    }
  }
  INFO(sig);
  CHECK(wrong == 0);
  if (std::string(sig) == "KPkp") CHECK(doubtful > 0);
}

// One table of each kind in the fast set (pieces, a pawn, men on both sides, pawns on both sides
// with e.p.); the tables verified one ply forward (tables:verify-34-*) were solved with these
// kernels too.
TEST_CASE("forward escapes are the legal moves into the target set", "[retro][word-moves]") {
  for (const char* sig : {"KQk", "KPk", "KRkr", "KPkp"}) check_forward_escapes(sig);
}

TEST_CASE("forward escapes are the legal moves into the target set: more tables",
          "[retro][word-moves][slow]") {
  for (const char* sig : {"KRRk", "KBNk", "KRkp", "KPPk", "KQkq"}) check_forward_escapes(sig);
}

TEST_CASE("exit candidates hold every position with a capture or promotion", "[retro][word-moves]") {
  for (const char* sig : {"KQk", "KPk", "KRkr", "KRRk", "KPkp", "KRkp", "KPPk", "KQRkr", "KRPkr", "KPPkp"}) {
    const Layouts t(sig);
    uint64_t missed = 0, exits = 0;
    for_each_position(t, 20'000, [&](const WordMen& w, Color c, Square bit, const Position& pos) {
      bool exit = false;
      for (Move m : legal_moves(pos)) exit |= m.kind() == MoveKind::Promotion || !pos.empty(m.to());
      exits += exit;
      missed += exit && !contains(t.moves.exit_candidates(w, c), bit);
    });
    INFO(sig);
    CHECK(missed == 0);
    CHECK(exits > 0);
  }
}

}  // namespace
}  // namespace egtb::test
