// The solver's exits a word at a time (retro/word_exits.hpp) against the general way: every legal
// capture and promotion of the position, scored by probing the subtables with the position after
// it. Both phases, on every legal position of tables with captures both ways, promotions (also
// into colour-flipped tables and with a capture), bare kings and identical men.
#include <array>
#include <optional>
#include <span>
#include <string>

#include "egtb/core/fen.hpp"
#include "egtb/core/movegen.hpp"
#include "retro/word_exits.hpp"
#include "tests/retro/solved_tables.hpp"
#include "tests/support/catch.hpp"

namespace egtb::test {
namespace {

using retro::ExitSummary;
using retro::PhaseValues;

// The general summary of pos's exits for `phase`; nothing when a capture mates in the stalemate
// phase (the solver never asks: such a position is decided in the mate phase).
std::optional<ExitSummary> general_exits(const retro::ExitTables& exits, const Position& pos,
                                         const PhaseValues& phase, bool& any) {
  ExitSummary e;
  any = false;
  for (Move m : legal_moves(pos)) {
    if (m.kind() != MoveKind::Promotion && pos.empty(m.to())) continue;
    any = true;
    const Score child = exits.probe(pos, m);
    if (child.is_valid() && phase.decided_earlier(child.value())) return std::nullopt;
    retro::add_exit(e, phase, child);
  }
  return e;
}

// Checks the exit summaries of every word of `sig` against the general moves and probes.
void check_word_exits(const char* sig) {
  const Material material = parse_material(sig);
  for (const Material& sub : material.successors())
    if (!sub.is_bare_kings()) (void)solved(sub);
  const indexing::IndexScheme scheme(material);
  const indexing::WordLayout layout(scheme);
  const retro::WordMoves moves(layout);
  const retro::ExitTables exits(material, solved_tables());
  const retro::WordExits word_exits(layout, scheme, exits);
  const std::array<PhaseValues, 2> phases{PhaseValues::of(Rules::Lasker, 0),
                                          PhaseValues::of(Rules::Lasker, 1)};
  retro::WordMen w;
  std::array<retro::WordExitSummary, 2> both, alone;
  uint64_t compared = 0, with_exits = 0;
  for (uint64_t word = 0; word < layout.words(); ++word) {
    moves.decode(word, w);
    for (Color c : {Color::White, Color::Black}) {
      // The general summaries first, to ask the word about the positions that have one: in the
      // stalemate phase those not decided in the mate phase through a capture.
      std::array<std::array<std::optional<ExitSummary>, 64>, 2> expected;
      std::array<Bitboard, 2> asked{};
      Bitboard any = 0;
      for (Bitboard b = moves.valid(w, c); b;) {
        const Square bit = pop_lsb(b);
        const auto k = static_cast<size_t>(to_index(bit));
        const Position pos = *layout.placement(word * 64 + k, c);
        bool has_exit = false;
        for (size_t p = 0; p < 2; ++p) {
          expected[p][k] = general_exits(exits, pos, phases[p], has_exit);
          if (expected[p][k]) asked[p] |= square_bb(bit);
        }
        if (has_exit) any |= square_bb(bit);
      }
      // Both phases from one summary, and the stalemate phase alone on the positions it owns.
      word_exits.summarize(w, c, asked[0], phases, both);
      word_exits.summarize(w, c, asked[1], std::span(phases).last(1), std::span(alone).first(1));
      const auto check = [&](const retro::WordExitSummary& summary, size_t p) {
        for (Bitboard b = asked[p]; b;) {
          const Square bit = pop_lsb(b);
          const auto k = static_cast<size_t>(to_index(bit));
          const ExitSummary got = summary.of(to_index(bit));
          const bool same = contains(summary.moves, bit) == contains(any, bit) &&
                            (!contains(any, bit) || (got.win_depth == expected[p][k]->win_depth &&
                                                     got.loss_bound == expected[p][k]->loss_bound &&
                                                     got.escape == expected[p][k]->escape));
          if (!same) FAIL_CHECK(sig << " " << to_fen(*layout.placement(word * 64 + k, c)) << " phase " << p);
        }
        compared += static_cast<uint64_t>(popcount(asked[p]));
        with_exits += static_cast<uint64_t>(popcount(asked[p] & any));
      };
      check(both[0], 0);
      check(both[1], 1);
      check(alone[0], 1);
      // Both phases' summaries hold the same moves.
      CHECK(both[1].moves == both[0].moves);
    }
  }
  INFO(sig);
  CHECK(with_exits > 1000);
  CHECK(compared > with_exits);
}

// One table of each kind in the fast set (pieces, a pawn, men on both sides, pawns on both sides);
// the tables verified one ply forward (tables:verify-34-*) were solved with these summaries too.
TEST_CASE("exits a word at a time agree with the general moves and probes", "[retro][word-exits]") {
  for (const char* sig : {"KQk", "KPk", "KRkr", "KPkp"}) check_word_exits(sig);
}

TEST_CASE("exits a word at a time agree with the general moves and probes: more tables",
          "[retro][word-exits][slow]") {
  for (const char* sig : {"KRRk", "KBNk", "KRkp", "KQkq", "KNPk", "KPPk"}) check_word_exits(sig);
}

}  // namespace
}  // namespace egtb::test
