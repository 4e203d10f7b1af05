#include "egtb/store/order_choice.hpp"

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>

#include "egtb/store/block_codec.hpp"
#include "egtb/store/table.hpp"

namespace egtb {

namespace {

constexpr int TrialLevel = 3;

// One block of the sample: its side and first entry.
struct SampleBlock {
  Color stm = Color::White;
  uint64_t first = 0;
};

// SampledBlocks blocks of each side spread evenly over it, or every block of a smaller side.
std::vector<SampleBlock> sample_blocks(uint64_t entries, uint64_t block_entries) {
  const uint64_t blocks = (entries + block_entries - 1) / block_entries;
  const uint64_t taken = std::min(blocks, SampledBlocks);
  std::vector<SampleBlock> sample;
  for (Color c : {Color::White, Color::Black})
    for (uint64_t k = 0; k < taken; ++k) sample.push_back({c, k * blocks / taken * block_entries});
  return sample;
}

struct TrialState {
  BlockEncoder encoder{TrialLevel};
  std::vector<uint16_t> entries;
};

}  // namespace

std::vector<indexing::IndexOrder> writable_orders(const Material& material, OrderSet set) {
  std::vector<indexing::IndexOrder> orders = indexing::IndexOrder::candidates(material);
  if (set == OrderSet::Solvable && paged_subtable(material))
    std::erase_if(orders, [](const indexing::IndexOrder& o) { return !o.kings_lead(); });
  return orders;
}

std::vector<OrderTrial> try_index_orders(const Material& material, const OrderedEntrySource& source,
                                         const WriteOptions& options, const OrderReadying& ready) {
  std::vector<OrderTrial> trials;
  for (const indexing::IndexOrder& order : writable_orders(material, options.orders))
    trials.push_back({order, 0});
  if (trials.size() < 2) return trials;
  std::vector<indexing::IndexScheme> schemes;
  for (const OrderTrial& t : trials) schemes.emplace_back(material, t.order);
  const uint64_t entries = schemes.front().size();
  const std::vector<SampleBlock> sample = sample_blocks(entries, options.block_entries);
  tbb::enumerable_thread_specific<TrialState> states;
  tbb::task_arena arena(options.threads > 0 ? options.threads : tbb::task_arena::automatic);
  for (size_t t = 0; t < trials.size(); ++t) {
    if (ready) ready(schemes[t]);
    std::atomic<uint64_t> bytes = 0;
    arena.execute([&] {
      tbb::parallel_for(size_t{0}, sample.size(), [&](size_t k) {
        const SampleBlock& b = sample[k];
        TrialState& state = states.local();
        state.entries.resize(
            static_cast<size_t>(std::min<uint64_t>(options.block_entries, entries - b.first)));
        source(schemes[t], b.stm, b.first, state.entries);
        if (options.fill) fill_invalid(state.entries);
        bytes += state.encoder.encode(state.entries).bytes.size();
      });
    });
    trials[t].sample_bytes = bytes;
  }
  return trials;
}

indexing::IndexOrder choose_index_order(const Material& material, const OrderedEntrySource& source,
                                        const WriteOptions& options, const OrderReadying& ready) {
  const std::vector<OrderTrial> trials = try_index_orders(material, source, options, ready);
  return std::min_element(
             trials.begin(), trials.end(),
             [](const OrderTrial& a, const OrderTrial& b) { return a.sample_bytes < b.sample_bytes; })
      ->order;
}

}  // namespace egtb
