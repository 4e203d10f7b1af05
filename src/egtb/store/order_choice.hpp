// Choosing the order of a table's index digits (indexing/index_order.hpp) for its file: every order
// the material may take is tried on a sample of its blocks, each block compressed as the writer
// compresses it, and the order whose sample takes the fewest bytes is written. Equal samples keep
// the earlier order, the king pair leading first, so the choice is the same on every run.
//
//   const IndexOrder order = choose_index_order(material, source, {.level = 3});
//
// Tables of more than PagedTableEntries entries per side (table.hpp) try only the orders that lead
// with the king pair, unless written for probes only (OrderSet::Any, egtb recompress): the solve of a table
// whose promotions lead into them reads them block by block, king pair by king pair (retro/solver.cpp,
// promotion_order), and finds the entries of one king pair together only when that pair leads. With a pawn
// group leading, each king pair's promotions read a block for every placement of the pawns: KPPPk, promoting
// into KBPPk and KNPPk in the order "PP Kk B", took over 8 minutes instead of 16 s; the king pair leading
// costs 1-31% of those tables' bytes (docs/table-sizes.md). Example, KRPkr (333 M entries per side): "Kk R r
// P" and "Kk P R r" are tried, "P Kk R r" is not; KRPk (3.7 M) tries all three.
//
// The sample: SampledBlocks blocks of each side to move, spread evenly over it (every block of a
// smaller table), filled as the file will be (WriteOptions::fill), compressed at zstd level 3
// whatever level the file is written with (the orders rank alike at 3 and 19; a sample at 19 would
// cost as much as writing a 5-man table). For a 5-man table with pawns, twelve orders at most:
// about 1.5 million entries of each order, a second or two of CPU beside the minutes of its solve.
// A table without pawns has one order and samples nothing.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "egtb/core/material.hpp"
#include "egtb/store/writer.hpp"
#include "indexing/index.hpp"

namespace egtb {

// The entries of a table in any order of its index digits: fills `out` with entries first ...
// first + out.size() - 1 of side `stm` of `scheme`. Called from several threads at once.
using OrderedEntrySource = std::function<void(const indexing::IndexScheme& scheme, Color stm, uint64_t first,
                                              std::span<uint16_t> out)>;

// Called before an order's sample is read, with that order's scheme: a source that reads an order
// faster once readied for it (retro::Solution::gather) readies itself. May be empty.
using OrderReadying = std::function<void(const indexing::IndexScheme& scheme)>;

inline constexpr uint64_t SampledBlocks = 64;

// The bytes the sample of one order took, for reports and tests.
struct OrderTrial {
  indexing::IndexOrder order;
  uint64_t sample_bytes = 0;
};

// The orders a file of `material` may be written in: IndexOrder::candidates; for OrderSet::Solvable
// only those leading with the king pair above PagedTableEntries entries per side.
[[nodiscard]] std::vector<indexing::IndexOrder> writable_orders(const Material& material, OrderSet set);

// Every writable order of `material` with the bytes of its sample, in IndexOrder::candidates
// order; the block size and threads of `options`. The orders are sampled one after the other,
// each readied first.
[[nodiscard]] std::vector<OrderTrial> try_index_orders(const Material& material,
                                                       const OrderedEntrySource& source,
                                                       const WriteOptions& options,
                                                       const OrderReadying& ready = {});
// The order to write `material` in: the first of the fewest sample bytes.
[[nodiscard]] indexing::IndexOrder choose_index_order(const Material& material,
                                                      const OrderedEntrySource& source,
                                                      const WriteOptions& options,
                                                      const OrderReadying& ready = {});

}  // namespace egtb
