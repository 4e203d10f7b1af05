// The layout positions of the solver's e.p. nodes (retro/ep_positions.hpp), above 2^32.
//
// How these tests reach positions above 2^32 without the memory: the solver's sets for a 6-man
// table would take tens of GB, but an e.p. node's positions come from the word layout alone,
// which is arithmetic (1 MB for KRPkrp, 37 MB for the 7-man KPPPPkp). So the e.p. entries of
// KRPkrp's last king pair (Kd8 kh8, pair 1805: positions about 17.0 G) are decoded from the full
// 6-man index, and the positions the solver's e.p. code stores (ep_positions) and scatters to
// (for_each_labelling) are checked: they lie above 2^32, decode back to the position without the
// right and to a position whose legal double step gives the e.p. position (found by the move
// generator, not by the code under test), and equal the positions of the same men under the kings
// of pair 0 (below 2^32) shifted by exactly 1805 king pairs, the un-offset case.
#include <set>

#include "egtb/core/fen.hpp"
#include "egtb/core/movegen.hpp"
#include "retro/ep_positions.hpp"
#include "tests/support/catch.hpp"
#include "tests/support/wide_material.hpp"

namespace egtb::test {
namespace {

using indexing::IndexScheme;
using indexing::WordLayout;

constexpr uint64_t Above32 = uint64_t{1} << 32;

// True when a legal move of `before` is a double step that gives `pos`, e.p. right included.
bool double_step_gives(const Position& before, const Position& pos) {
  for (Move m : legal_moves(before))
    if (square_distance(m.from(), m.to()) == 2 &&
        before.piece_on(m.from()) == make_piece(before.side_to_move(), PieceType::Pawn) &&
        before.after(m).same_position(pos))
      return true;
  return false;
}

// The same men with the kings on wk and bk, or nothing when a man stands there.
std::optional<Position> with_kings(const Position& pos, Square wk, Square bk) {
  Position out = pos;
  out.remove_piece(pos.king_square(Color::White));
  out.remove_piece(pos.king_square(Color::Black));
  if (!out.empty(wk) || !out.empty(bk)) return std::nullopt;
  out.put_piece(make_piece(Color::White, PieceType::King), wk);
  out.put_piece(make_piece(Color::Black, PieceType::King), bk);
  return out;
}

TEST_CASE("the worked example of the e.p. positions", "[retro][wide]") {
  const IndexScheme scheme(*Material::parse("KPkp"));
  const WordLayout layout(scheme);
  const Position pos = *parse_fen("8/8/8/3pP3/8/8/8/K6k w - d6");
  const retro::EpPositions p = retro::ep_positions(layout, pos);
  CHECK(p.base == 17'187);
  CHECK(p.before == 17'203);
  CHECK(to_fen(*layout.placement(p.base, Color::White)) == "8/8/8/3pP3/8/8/8/K6k w - - 0 1");
  CHECK(to_fen(*layout.placement(p.before, Color::Black)) == "8/3p4/8/4P3/8/8/8/K6k b - - 0 1");
}

TEST_CASE("e.p. positions above 2^32 round-trip and are those below 2^32 shifted by the king pairs",
          "[retro][wide]") {
  const IndexScheme scheme(wide_material("KRPkrp"));
  const WordLayout layout(scheme);
  const size_t top = static_cast<size_t>(layout.kings().size - 1);
  const auto [top_wk, top_bk] = layout.kings().kings[top];
  const auto [low_wk, low_bk] = layout.kings().kings[0];
  CHECK(top_wk == Square::D8);
  CHECK(top_bk == Square::H8);
  const uint64_t shift = top * layout.pair_words() * 64;
  // The e.p. entries of the last king pair: 14 captures times 62 * 62 placements of the rooks.
  const uint64_t per_pair = scheme.ep_size() / static_cast<uint64_t>(layout.kings().size);
  int checked = 0, compared = 0;
  Position pos;
  for (Color c : {Color::White, Color::Black})
    for (uint64_t j = top * per_pair; j < (top + 1) * per_pair; j += 3) {
      if (!scheme.decode(scheme.normal_size() + j, c, pos)) continue;
      INFO(to_fen(pos));
      const retro::EpPositions p = retro::ep_positions(layout, pos);
      REQUIRE(p.base > Above32);
      REQUIRE(p.before > Above32);
      Position base = pos;
      base.set_ep_square(Square::None);
      REQUIRE(layout.placement(p.base, c)->same_position(base));
      const Position before = *layout.placement(p.before, ~c);
      REQUIRE(double_step_gives(before, pos));
      // No identical men: one labelling each.
      int labellings = 0;
      retro::for_each_labelling(layout, p.before, [&](uint64_t q) {
        CHECK(q == p.before);
        ++labellings;
      });
      REQUIRE(labellings == 1);
      ++checked;
      // The same men under the kings of pair 0, when they make an e.p. entry there too.
      const auto low = with_kings(pos, low_wk, low_bk);
      if (!low || !scheme.index_of(*low) || !scheme.is_ep_entry(*scheme.index_of(*low))) continue;
      const retro::EpPositions q = retro::ep_positions(layout, *low);
      REQUIRE(q.base < Above32);
      REQUIRE(p.base == q.base + shift);
      REQUIRE(p.before == q.before + shift);
      ++compared;
    }
  CHECK(checked > 10'000);
  CHECK(compared > 5'000);
}

TEST_CASE("every labelling of identical men above 2^32, past the six of 6-man tables", "[retro][wide]") {
  // KPPPkp has 3! = 6 orders of the white pawns (the most any 6-man table has); the 7-man KPPPPkp
  // 4! = 24, which the solver's e.p. nodes once held in an array of six. Positions of the last
  // king pair, above 2^32: every labelling decodes to the same placement, each once.
  struct Case {
    const char* signature;
    const char* fen;
    size_t labellings;
  };
  const Case cases[] = {
      {"KPPPkp", "3K3k/8/8/4p3/8/8/PP4P1/8 w - -", 6},
      {"KPPPPkp", "3K3k/8/8/4p3/8/8/PP3PP1/8 b - -", 24},
  };
  for (const Case& c : cases) {
    INFO(c.signature);
    const IndexScheme scheme(wide_material(c.signature));
    const WordLayout layout(scheme);
    const Position pos = *parse_fen(c.fen);
    const uint64_t p = layout.position_of(retro::men_of(layout, pos));
    REQUIRE(p > Above32);
    std::set<uint64_t> seen;
    retro::for_each_labelling(layout, p, [&](uint64_t q) {
      CHECK(q > Above32);
      CHECK(layout.placement(q, pos.side_to_move())->same_position(pos));
      seen.insert(q);
    });
    CHECK(seen.size() == c.labellings);
    CHECK(seen.count(p) == 1);
  }
}

}  // namespace
}  // namespace egtb::test
