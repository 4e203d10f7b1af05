// The solver's exits a word at a time (retro/word_exits.hpp) against the general way: every legal
// capture and promotion of the position, scored by probing the subtables with the position after
// it. Both phases, on every legal position of tables with captures both ways, promotions (also
// into colour-flipped tables and with a capture), bare kings and identical men.
#include <array>
#include <optional>
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

TEST_CASE("exits a word at a time agree with the general moves and probes", "[retro][word-exits]") {
  for (const char* sig : {"KQk", "KPk", "KRkr", "KRRk", "KBNk", "KRkp", "KPkp", "KQkq", "KNPk", "KPPk"}) {
    const Material material = parse_material(sig);
    for (const Material& sub : material.successors())
      if (!sub.is_bare_kings()) (void)solved(sub);
    const indexing::IndexScheme scheme(material);
    const indexing::WordLayout layout(scheme);
    const retro::WordMoves moves(layout);
    const retro::ExitTables exits(material, solved_tables());
    const retro::WordExits word_exits(layout, scheme, exits);
    retro::WordMen w;
    retro::WordExitSummary summary;
    uint64_t compared = 0, with_exits = 0;
    for (size_t p = 0; p < solve_phases(Rules::Lasker).size(); ++p)
      for (uint64_t word = 0; word < layout.words(); ++word) {
        moves.decode(word, w);
        const PhaseValues phase = PhaseValues::of(Rules::Lasker, p);
        for (Color c : {Color::White, Color::Black}) {
          // The general summaries first, to ask the word about the positions that have one.
          std::array<std::optional<ExitSummary>, 64> expected;
          Bitboard asked = 0, any = 0;
          for (Bitboard b = moves.valid(w, c); b;) {
            const Square bit = pop_lsb(b);
            const Position pos = *layout.placement(word * 64 + static_cast<uint64_t>(to_index(bit)), c);
            bool has_exit = false;
            expected[static_cast<size_t>(to_index(bit))] = general_exits(exits, pos, phase, has_exit);
            if (expected[static_cast<size_t>(to_index(bit))]) asked |= square_bb(bit);
            if (has_exit) any |= square_bb(bit);
          }
          word_exits.summarize(w, c, asked, phase, summary);
          compared += static_cast<uint64_t>(popcount(asked));
          with_exits += static_cast<uint64_t>(popcount(asked & any));
          for (Bitboard b = asked; b;) {
            const Square bit = pop_lsb(b);
            const auto k = static_cast<size_t>(to_index(bit));
            const bool same = contains(summary.moves, bit) == contains(any, bit) &&
                              (!contains(any, bit) || (summary.of[k].win_depth == expected[k]->win_depth &&
                                                       summary.of[k].loss_bound == expected[k]->loss_bound &&
                                                       summary.of[k].escape == expected[k]->escape));
            if (!same)
              FAIL_CHECK(sig << " " << to_fen(*layout.placement(word * 64 + k, c)) << " phase " << p);
          }
        }
      }
    INFO(sig);
    CHECK(with_exits > 1000);
    CHECK(compared > with_exits);
  }
}

}  // namespace
}  // namespace egtb::test
