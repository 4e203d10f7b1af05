// A solution read out in a storage order (retro::Solution::fill, which walks the order's runs:
// IndexScheme::for_each_run) gives every entry the score of the table solved whole, in every
// candidate order of the index digits, over the whole index and over ranges cut inside runs; solved
// whole, in file slices and in placement slices. The orders of these 3-4-man tables cover the kinds
// of run the writer places but one: a piece stepping inside one slice, a digit pawn whose square
// chooses the slice, the layout's innermost pawn, and no run man (a group of identical men
// innermost). Runs that stride over such a group need five men (KPPkp in "Kk p PP": the black
// pawn's values 1,128 entries apart); the slow test tables:generate-compare-pawns5 writes KPPkp so
// from 20 file slices and compares its bytes.
#include <algorithm>
#include <atomic>
#include <optional>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "egtb/store/order_choice.hpp"
#include "egtb/store/writer.hpp"
#include "indexing/index_order.hpp"
#include "retro/solver.hpp"
#include "tests/retro/solved_tables.hpp"
#include "tests/store/store_fixtures.hpp"
#include "tests/support/catch.hpp"

namespace egtb::test {
namespace {

using indexing::Index;
using indexing::IndexScheme;

// The first entry of [first, first + count) of `storage` where the solution's fill differs from
// `whole`, side c.
std::optional<Index> first_difference(const retro::Solution& solution, const Table& whole,
                                      const IndexScheme& storage, Color c, Index first, Index count) {
  std::vector<uint16_t> out(count);
  solution.fill(storage, c, first, out);
  for (Index k = 0; k < count; ++k)
    if (out[k] != whole.at(c, storage.entry_in(whole.scheme(), first + k)).raw()) return first + k;
  return std::nullopt;
}

// Checks the solution read out in `storage` against the table solved whole, over the whole index
// and over ranges of a few thousand entries starting anywhere.
void check_order(const retro::Solution& solution, const Table& whole, const IndexScheme& storage,
                 std::mt19937_64& random) {
  for (Color c : {Color::White, Color::Black}) {
    CHECK(!first_difference(solution, whole, storage, c, 0, storage.size()));
    for (int k = 0; k < 8; ++k) {
      const Index first = random() % storage.size();
      const Index count = std::min<Index>(storage.size() - first, 1 + random() % 5000);
      CHECK(!first_difference(solution, whole, storage, c, first, count));
    }
  }
}

struct OrdersChecked {
  int orders = 0;
  int gathered = 0;  // of them, read out gathered too (Solution::gather)
};

// Checks the solution of `sig` in every candidate order against the table solved whole, read out
// as it is and, where the solution gathers the order, gathered. Returns the orders checked.
OrdersChecked check_orders(const char* sig, indexing::Slicing slicing) {
  const TempDir dir;
  const Material material = parse_material(sig);
  const Table& whole = solved(material);  // and its subtables
  const auto solution = retro::solve_table(material, solved_tables(), sliced_config(dir.path(), slicing));
  std::mt19937_64 random(17);
  OrdersChecked checked;
  for (const indexing::IndexOrder& order : indexing::IndexOrder::candidates(material)) {
    const IndexScheme storage(material, order);
    INFO(sig << " in order " << order.str(material) << ", " << solution->slices() << " slices");
    check_order(*solution, whole, storage, random);
    ++checked.orders;
    // Gathering needs two bytes an entry and side, and is refused with less.
    CHECK_FALSE(solution->gather(storage, 4 * storage.normal_size() - 1, 2));
    const bool gathers = solution->slices() > 1 && storage.run_man() == 0;
    CHECK(solution->gather(storage, 4 * storage.normal_size(), 2) == gathers);
    if (!gathers) continue;
    check_order(*solution, whole, storage, random);
    ++checked.gathered;
  }
  return checked;
}

TEST_CASE("a solution reads out in every storage order as the table solved whole", "[retro][orders]") {
  using indexing::Slicing;
  CHECK(check_orders("KRk", Slicing::Whole).orders == 1);  // a pawnless table has one order
  CHECK(check_orders("KRk", Slicing::Whole).gathered == 0);
  // The orders without a run man are gathered when the table has several slices: KPkp's two with
  // the king pair innermost, KPPk's two ("Kk PP", "PP Kk") in both kinds of slices. KRkp has no
  // digit pawn (one slice), and KRPk's orders all have a run man.
  for (const auto& [sig, slicing, gathered] : {std::tuple{"KPkp", Slicing::Files, 2},
                                               {"KPPk", Slicing::Files, 2},
                                               {"KRkp", Slicing::Files, 0},
                                               {"KRPk", Slicing::Placements, 0},
                                               {"KPPk", Slicing::Placements, 2}}) {
    const OrdersChecked checked = check_orders(sig, slicing);
    CHECK(checked.orders > 1);
    CHECK(checked.gathered == gathered);
  }
}

TEST_CASE("choosing the order readies each order before its sample, and gathered orders sample alike",
          "[retro][orders]") {
  const TempDir dir;
  const Material material = parse_material("KPPk");
  solved(material);  // its subtables
  const auto solution =
      retro::solve_table(material, solved_tables(), sliced_config(dir.path(), indexing::Slicing::Files));
  std::optional<indexing::IndexOrder> readied;  // the order readied last
  std::atomic<int> unready{0};                  // samples read in another order than that
  const OrderedEntrySource source = [&](const IndexScheme& scheme, Color c, uint64_t first,
                                        std::span<uint16_t> out) {
    if (readied && !(scheme.order() == *readied)) ++unready;
    solution->fill(scheme, c, first, out);
  };
  const WriteOptions options;
  const std::vector<OrderTrial> plain = try_index_orders(material, source, options);
  std::vector<std::string> names;
  const std::vector<OrderTrial> gathered =
      try_index_orders(material, source, options, [&](const IndexScheme& s) {
        names.push_back(s.order().str(material));
        CHECK(solution->gather(s, 4 * s.normal_size(), 2));  // KPPk's orders have no run man
        readied = s.order();
      });
  std::vector<std::string> candidates;
  for (const indexing::IndexOrder& o : writable_orders(material, options.orders))
    candidates.push_back(o.str(material));
  CHECK(names == candidates);
  CHECK(unready == 0);
  REQUIRE(gathered.size() == plain.size());
  for (size_t t = 0; t < plain.size(); ++t) CHECK(gathered[t].sample_bytes == plain[t].sample_bytes);
}

}  // namespace
}  // namespace egtb::test
