// FEN probes of the real 3-4-man tables (built once by the ctest fixture tables_34, see
// tests/tables) against the Gaviota DTM tables (retro/gaviota.hpp), in both colour orientations
// and under the board symmetries: values 4 and 0 with their DTM, a Gaviota draw any of 1, 2, 3.
#include <array>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "egtb/core/fen.hpp"
#include "egtb/core/material.hpp"
#include "egtb/core/symmetry.hpp"
#include "tests/retro/solved_tables.hpp"
#include "tests/store/real_tables.hpp"
#include "tests/support/catch.hpp"

#ifdef EGTB_HAVE_GAVIOTA
#include "retro/gaviota.hpp"
#endif

namespace egtb::test {

TEST_CASE("FEN probes of every 3-4-man table agree with Gaviota in both colour orientations",
          "[tables][gaviota]") {
  const auto gaviota_dir = gaviota_dir_or_skip();
  if (!gaviota_dir) return;
#ifdef EGTB_HAVE_GAVIOTA
  constexpr int PositionsPerTable = 2000;
  const retro::GaviotaProber gaviota(*gaviota_dir);
  std::mt19937_64 rng(5);
  std::array<uint64_t, 5> values{};
  for (const Material& m : all_signatures(4)) {
    const indexing::IndexScheme scheme(m);
    std::vector<std::string> problems;
    for (int i = 0; i < PositionsPerTable; ++i) {
      const Position pos = random_position(scheme, rng);
      const Score ours = probe_fen(tables(), to_fen(pos));
      CHECK(probe_fen(tables(), to_fen(color_flipped(pos))) == ours);
      ++values[static_cast<size_t>(to_index(ours.value()))];
      if (std::string problem = retro::gaviota_disagreement(ours, gaviota.probe(pos)); !problem.empty())
        problems.push_back(to_fen(pos) + ": " + problem);
    }
    INFO(m.str() << ": " << problems.size()
                 << " disagreements, first: " << (problems.empty() ? "" : problems[0]));
    CHECK(problems.empty());
  }
  for (uint64_t count : values) CHECK(count > 100);  // every value was compared many times
#endif
}

}  // namespace egtb::test
