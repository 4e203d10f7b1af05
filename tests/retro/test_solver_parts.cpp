// The solver's parts and a property of the whole: depth bytes with their aside map and overflow,
// due lists filled from many threads and read a section at a time, and output that does not depend on the
// number of threads.
#include <algorithm>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "retro/depths.hpp"
#include "retro/due_lists.hpp"
#include "retro/slice_sets.hpp"
#include "retro/solver.hpp"
#include "tests/retro/solved_tables.hpp"
#include "tests/support/catch.hpp"

namespace egtb::test {
namespace {

TEST_CASE("depth bytes keep deep depths aside and refuse what a table cannot store", "[retro][depths]") {
  retro::Depths depths(256);
  depths.set_valid(0, 0xF0F0F0F0F0F0F0F0ULL);
  depths.set_valid(1, ~Bitboard{0});
  depths.set_valid(2, 0);
  depths.set_valid(3, 1);
  CHECK_FALSE(depths.valid(0));
  CHECK(depths.valid(4));
  CHECK(depths.valid(64));
  CHECK_FALSE(depths.valid(128));
  CHECK(depths.valid(192));
  CHECK(depths.get(4) == 0);
  depths.set(64, 19);
  depths.set(65, 253);
  depths.set(66, 254);
  depths.set(67, 300);
  depths.set(68, Score::MaxDepth);
  CHECK(depths.get(64) == 19);
  CHECK(depths.get(65) == 253);
  CHECK(depths.get(66) == 254);
  CHECK(depths.get(67) == 300);
  CHECK(depths.get(68) == Score::MaxDepth);
  CHECK(depths.valid(67));
  depths.set(67, 40);  // a bound replaced by the depth
  CHECK(depths.get(67) == 40);
  CHECK_THROWS_AS(depths.set(69, Score::MaxDepth + 1), std::overflow_error);
}

TEST_CASE("depth bytes tell the positions of a word that hold a depth, deep ones included",
          "[retro][depths]") {
  retro::Depths depths(192);
  for (uint64_t word = 0; word < 3; ++word) depths.set_valid(word, ~Bitboard{0} << 1);  // bit 0 invalid
  // Word 1, against a plain scan of get(): depths 0-5 cycling, 300 and 400 aside (both 254 in
  // their bytes), 253 in its byte; the invalid position 64 holds 255.
  for (uint64_t k = 1; k < 64; ++k) depths.set(64 + k, static_cast<int>(k % 6));
  depths.set(64 + 10, 300);
  depths.set(64 + 20, 400);
  depths.set(64 + 30, 253);
  depths.set(64 + 63, 254);
  for (int d : {0, 1, 5, 6, 253, 254, 255, 300, 400, 8000}) {
    Bitboard expected = 0;
    for (uint64_t k = 1; k < 64; ++k)
      if (depths.get(64 + k) == d) expected |= Bitboard{1} << k;
    CAPTURE(d);
    CHECK(depths.holding(1, d) == expected);
  }
  CHECK(depths.holding(1, 300) == Bitboard{1} << 10);
  CHECK(depths.holding(1, 254) == Bitboard{1} << 63);
  CHECK(depths.holding(0, 0) == ~Bitboard{0} << 1);  // the other words untouched
  CHECK(depths.holding(2, 1) == 0);
}

TEST_CASE("a word's scores read without branches are those of the plain reading of its sets",
          "[retro][depths]") {
  // KQk under Lasker: the first phase mates (DTM), the second stalemates (DTS). Word 3 of each
  // side holds every kind of position: none, undecided, decided in either phase at even and odd
  // depths, and depths set aside (254 and above), undecided ones among them.
  const indexing::IndexScheme scheme(*Material::parse("KQk"));
  retro::SliceSets sets(scheme, {}, solve_phases(Rules::Lasker));
  const uint64_t positions = sets.layout.words() * 64;
  for (Color c : {Color::White, Color::Black}) {
    auto& side = sets.sides[static_cast<size_t>(to_index(c))];
    side = std::make_unique<retro::Side>(positions, sets.layout.pair_slots(), false, false, false);
    side->first_decided = indexing::BitSet(positions);  // as the solver sizes it after the first phase
    side->depth.set_valid(3, ~Bitboard{0} << 2);        // bits 0 and 1 hold no position
    const std::array depths{0, 1, 2, 7, 253, 254, 255, 300, 401};
    for (uint64_t k = 2; k < 64; ++k) {
      const uint64_t p = 3 * 64 + k;
      side->depth.set(p, depths[k % depths.size()]);
      if (k % 5 == 0) side->undecided.set(p);
      if (k % 3 == 0) side->first_decided.set(p);
    }
  }
  // The plain reading: no position, a draw, or the value of the phase and depth parity.
  const auto plain = [&](Color c, uint64_t p) {
    const retro::Side& s = sets.side(c);
    if (!s.depth.valid(p)) return Score::invalid();
    if (s.undecided.test(p)) return Score::draw();
    const int depth = s.depth.get(p);
    return Score(sets.decided_value[s.first_decided.test(p) ? 1 : 0][static_cast<size_t>(depth & 1)], depth);
  };
  for (Color c : {Color::White, Color::Black}) {
    std::array<uint16_t, 64> scores{};
    sets.word_scores(c, 3, scores.data());
    const retro::SliceSets::Word word(sets, c, 3);
    for (uint64_t k = 0; k < 64; ++k) {
      CAPTURE(c, k);
      const Score expected = plain(c, 3 * 64 + k);
      CHECK(scores[k] == expected.raw());
      CHECK(word.raw(k) == expected.raw());
      CHECK(sets.score(c, 3 * 64 + k) == expected);
    }
  }
  // Spot checks of the plain reading itself: a mate in 7 (odd: a win) decided in the first phase,
  // a stalemating win at depth 401 decided in the second, set aside.
  const retro::SliceSets::Word white(sets, Color::White, 3);
  CHECK(Score::from_raw(white.raw(3)) == Score(Lasker::Mates, 7));         // k = 3: first, byte 7
  CHECK(Score::from_raw(white.raw(8)) == Score(Lasker::Stalemates, 401));  // k = 8: second, 401
  CHECK(Score::from_raw(white.raw(0)) == Score::invalid());
  CHECK(Score::from_raw(white.raw(10)) == Score::draw());  // k = 10: undecided
  // Before the first phase has ended its set is empty: no position reads as decided there.
  sets.sides[0]->first_decided = indexing::BitSet();
  const retro::SliceSets::Word early(sets, Color::White, 3);
  CHECK(Score::from_raw(early.raw(3)) == Score(Lasker::Stalemates, 7));  // k = 3: second, byte 7
  CHECK(sets.score(Color::White, 3 * 64 + 8) == Score(Lasker::Stalemates, 401));
}

TEST_CASE("due lists give back what many threads filed, by depth", "[retro][due-lists]") {
  retro::DueLists lists(uint64_t{1} << 32);
  // Positions in every order: ascending runs, descending steps, far jumps, the top of 32 bits.
  std::vector<uint64_t> positions;
  for (uint64_t p = 0; p < 200'000; ++p) positions.push_back((p * 2654435761u) % 4'000'000'000u);
  // A dense block in scattered order: the positions of one word come from many threads.
  for (uint64_t p = 0; p < 100'000; ++p) positions.push_back(5'000'000 + (p * 7919) % 100'000);
  positions.push_back(1000);
  positions.push_back(1003);
  positions.push_back(7);
  positions.push_back((uint64_t{1} << 32) - 1);
  // As the solver files them: one adder per task, for a run of positions.
  tbb::parallel_for(tbb::blocked_range<size_t>(0, positions.size()),
                    [&](const tbb::blocked_range<size_t>& r) {
                      retro::DueLists::Adder adder = lists.adder();
                      for (size_t k = r.begin(); k != r.end(); ++k)
                        adder.add(static_cast<int>(k % 5) * 2, positions[k]);
                    });
  for (int depth = 0; depth < 10; ++depth) {
    std::vector<uint64_t> expected, got;
    for (size_t k = 0; k < positions.size(); ++k)
      if (static_cast<int>(k % 5) * 2 == depth) expected.push_back(positions[k]);
    std::mutex mutex;
    std::map<uint64_t, std::set<std::thread::id>> readers;  // by word: the threads handed its positions
    const uint64_t count = lists.for_each(depth, [&](uint64_t p) {
      const std::lock_guard lock(mutex);
      got.push_back(p);
      readers[p / 64].insert(std::this_thread::get_id());
    });
    CHECK(count == got.size());
    for (const auto& [word, threads] : readers) {
      INFO("word " << word);
      CHECK(threads.size() == 1);
    }
    std::sort(expected.begin(), expected.end());
    std::sort(got.begin(), got.end());
    INFO("depth " << depth);
    CHECK(got == expected);
  }
  CHECK(lists.any_from(8));
  CHECK_FALSE(lists.any_from(9));
  lists.drop(8);
  CHECK_FALSE(lists.any_from(7));
  CHECK(lists.any_from(6));
}

TEST_CASE("due lists keep positions above 2^32", "[retro][due-lists][wide]") {
  // Sized for a 6-man table with pawns (KRPkrp: 17 G layout positions per side); the lists store
  // differences and new runs in LEB128, so positions far above 2^32 take no memory of their own.
  const uint64_t size = uint64_t{1806} * 64 * 48 * 48 * 64;
  retro::DueLists lists(size);
  std::vector<uint64_t> positions = {
      (uint64_t{1} << 32) - 1, uint64_t{1} << 32, (uint64_t{1} << 32) + 1, 7, size - 1, size - 64,
      uint64_t{3} << 32};
  for (uint64_t p = 0; p < 50'000; ++p) positions.push_back((p * 0x9E3779B97F4A7C15ULL) % size);
  retro::DueLists::Adder adder = lists.adder();
  for (uint64_t p : positions) adder.add(3, p);
  std::vector<uint64_t> got;
  std::mutex mutex;
  CHECK(lists.for_each(3, [&](uint64_t p) {
    const std::lock_guard lock(mutex);
    got.push_back(p);
  }) == positions.size());
  std::sort(positions.begin(), positions.end());
  std::sort(got.begin(), got.end());
  CHECK(got == positions);
}

TEST_CASE("the solver's output does not depend on the number of threads", "[retro][threads]") {
  // KPkp: e.p. nodes; KRkn: both phases; KQQk: identical men and twin positions on the diagonal.
  for (const char* sig : {"KPkp", "KRkn", "KQQk"}) {
    const Material m = parse_material(sig);
    const Table& reference = solved(m);
    for (int threads : {1, 3}) {
      retro::SolveConfig config;
      config.threads = threads;
      const auto table = retro::solve(m, solved_tables(), config);
      INFO(sig << " on " << threads << " threads");
      CHECK(same_scores(*table, reference));
    }
  }
}

}  // namespace
}  // namespace egtb::test
