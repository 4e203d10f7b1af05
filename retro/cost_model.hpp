// What building one table costs, estimated from the size of its generation layout, for planning a
// set over processes, Make or Slurm (api/plan.hpp), and for sizing machines for 6 and 7 men
// (docs/scale.md).
//
// The model. The solver keeps a few bits and a depth byte per layout position (retro/slice_sets.hpp,
// Side), so its memory and time grow with L, the layout positions per side to move
// (indexing::layout_positions: KQRkr 121,110,528), not with the storage index. A table built alone
// by `egtb generate SIG --no-closure --threads 1` takes
//
//   cpu_seconds = CpuSecondsPerPosition * L
//   peak_bytes  = BaseBytes + BytesPerPosition * L + BytesPerSubtableEntry * W (+ PagedCacheBytes)
//
// and, solved in slices (SolveConfig::slicing, indexing::pawn_slicing), where the largest
// slice holds a fraction f of the layout,
//
//   sliced_peak_bytes = BaseBytes + a * BytesPerPosition * f * L + SliceOverheadBytesPerPosition * L
//                       + BytesPerSubtableEntry * W (+ PagedCacheBytes),
//
// a the slices solved at once times what each holds over its sets: for file slices, side by side,
// FileSlicesAtOnce (2) * FileSliceBytes (1.8), else 1.
//
// and, a table of one slice (every pawnless table) on the lean path (SolveConfig::lean: no depth
// byte in memory, the decided plies in a scratch file),
//
//   lean_peak_bytes = BaseBytes + LeanBytesPerPosition * L + BytesPerSubtableEntry * W (+ PagedCacheBytes).
//
// KRPkr's 24 placement slices each hold a 24th of its 355,074,048 positions (f = 1/24), or, its
// four slices of a pawn on the 7th joined (indexing::Slicing::PromotionsJoined), the largest of 21
// holds a sixth; KPPkp's largest of 20 file slices holds 1/16, the white pawns' files with their
// mirror images, and two are solved at once (a = 2).
//
// where W is the entries per side of the subtables loaded whole (at most PagedTableEntries each;
// larger ones are read through a cache of PagedCacheBytes). Pawnless tables and tables with pawns
// have their own coefficients (pawn tables run more plies and promote into subtables).
//
// Where the coefficients come from: every table of the 3-5-man set built alone, one process and one
// thread each, in build order (bench/measure_set.py), fitted by bench/scale_model.py, which also
// checks the fit on the tables it was not fitted to; docs/scale.md gives the figures and the errors.
#pragma once

#include <cstdint>

#include "egtb/core/material.hpp"
#include "indexing/word_layout.hpp"

namespace egtb::retro {

struct CostCoefficients {
  double cpu_seconds_per_position;  // per layout position per side
  double bytes_per_position;        // per layout position per side
};

// The program itself and its buffers: what a table of a few thousand positions peaks at.
inline constexpr double BaseBytes = 9e6;
// A subtable entry loaded whole: two sides of 16-bit scores.
inline constexpr double BytesPerSubtableEntry = 4;
// Fitted on the 110 5-man tables of one measured run (docs/scale.md, scale-figures.md); measured
// there KQRkr (121,110,528 positions) took 11.3 s and 507 MB, KRPkr (355,074,048) 49.8 s and 1,589 MB.
inline constexpr CostCoefficients PawnlessCost{8.43e-8, 4.02};
inline constexpr CostCoefficients PawnCost{1.14e-7, 4.15};
// What a solve in slices holds beyond the slice being solved (the index of the finished slices'
// chunks in their scratch file, the e.p. scores, the threads' unpacked chunks and the writer's
// buffers), per layout position per side of the whole table: fitted, not derived. Least squares
// on the 50 5-man tables the set solves in slices under 1 GiB gives 0.13 (held-out median error
// 0%, -12% ... +11%); 0.15 errs high, as a scheduler would rather: median error 3%, -10% ... +13%
// (docs/scale.md, scale-figures.md).
inline constexpr double SliceOverheadBytesPerPosition = 0.15;
// A file slice solved beside another holds, besides its sets (BytesPerPosition per position), its
// part of the moves into paged subtables (retro/paged_exits.hpp) and its thread's buffers: fitted
// on KQPkp, KBPkp and KPPkp under --max-memory 1G, measured at 322-328, 340-346 and 357-368 MiB
// (two runs each), which 1.7 times the sets' bytes about matches (341, 341 and 358 MiB); 1.8,
// erring high as a scheduler would rather, estimates 348, 348 and 372 MiB (docs/benchmarks.md,
// *Slices*). Fitted on three of the 14 file-sliced 5-man tables.
inline constexpr double FileSliceBytes = 1.8;
// The lean path's bytes per layout position per side (both sides' bytes): six bit sets per side and
// one set of targets for both, and the frontier's word list (7 bits per position and side, 1.75
// bytes), the due lists of the loss bounds and of the wins through moves out of the table, the
// records held before they are written. Fitted, not derived: the mean over KQRkr, KRRkr, KBNkr,
// KNNNk and KQQkq solved alone on the lean path (`--max-memory 1M`, one thread) with eight sets
// per side, 2.65 (2.45-2.78; 9.8-11.1 bits per position and side, against 16.1-16.9 on the normal
// path; the estimates erred -4% ... +7%), less the 3/8 byte of the sets since dropped (`valid`,
// and a side's `target`), which KQRkr, KRRkr and KNNNk each shed exactly (KQRkr: 365 MB -> 319 MB,
// docs/scale.md).
inline constexpr double LeanBytesPerPosition = 2.65 - 0.375;

struct CostEstimate {
  uint64_t entries_per_side = 0;           // storage index entries per side to move
  uint64_t layout_positions_per_side = 0;  // the solver's positions per side to move
  uint64_t whole_subtable_entries = 0;     // W: entries per side of the subtables loaded whole
  bool pages_subtables = false;            // a subtable is read through the cache
  double cpu_seconds = 0;                  // on one thread
  uint64_t peak_bytes = 0;                 // resident memory of the process at its peak
  // A solve in slices: indexing::pawn_slicing of the table, its slices (1: the whole table) and
  // its peak_bytes (peak_bytes when 1 slice).
  indexing::Slicing slicing = indexing::Slicing::Whole;
  size_t slices = 1;
  uint64_t sliced_peak_bytes = 0;
  // The same with the promoting placement slices joined (Slicing::PromotionsJoined), for a table
  // sliced by placements that pages subtables (its promotions' blocks are what joining saves);
  // 0 slices for others.
  size_t joined_slices = 0;
  uint64_t joined_peak_bytes = 0;
  // The lean path's peak (SolveConfig::lean), for a table of one slice.
  uint64_t lean_peak_bytes = 0;
};

// The estimated cost of building the table of `material` (canonical, any number of men) alone.
[[nodiscard]] CostEstimate estimate_cost(const Material& material);

// How a table is solved under a memory limit (egtb generate --max-memory; 0: none), and its
// estimated peak that way: a table whose whole solve is estimated above the limit is solved in
// slices when it has several, with the promoting placement slices joined when that fits the limit
// (it saves decoding the paged subtables' blocks again for each of them): KRPkr under 1 GiB in 21
// slices, under 300 MiB in 24. A table of one slice (every pawnless table) is solved on the lean
// path instead: KQRBkr in about 17.7 GB instead of 31. (The slices of a 6-man pawn table are planned
// at 3-7 GB.) The limit decides; it is not a promise.
struct SolvePlan {
  indexing::Slicing slicing = indexing::Slicing::Whole;  // SolveConfig::slicing
  size_t slices = 1;
  bool lean = false;        // SolveConfig::lean
  uint64_t peak_bytes = 0;  // the estimate of that solve

  [[nodiscard]] bool sliced() const { return slicing != indexing::Slicing::Whole; }
};
[[nodiscard]] SolvePlan plan_solve(const CostEstimate& cost, uint64_t max_memory);
// The plan of least memory: in slices when the table has several, else on the lean path. KQRBkr:
// lean, about 17.7 GB (16.5 GiB); KRPkr: 24 slices.
[[nodiscard]] SolvePlan smallest_plan(const CostEstimate& cost);

// The CPU time of a solve over the whole solve's, by path: what decides which path costs no time.
// Measured on 5-man tables with two threads, each path against the whole solve on the same machine
// state (docs/benchmarks.md, *Choosing the path*; the lowest ratio measured where there are
// several, but for file slices):
// * the lean path: KQRkr 1.05, KQBkq 1.07-1.3 (its scratch file's writes cost more wall time still);
// * slices with the promoting ones joined, which read the paged subtables' blocks once, as the
//   whole solve does: KRPkr's 21, 0.97-1.0;
// * placement slices apart, whose four promoting slices each read those blocks again: KRPkr's 24,
//   1.04-1.05 (wall);
// * file slices, whose moves into the paged subtables are scored for all of them in one pass
//   (retro/paged_exits.hpp), two slices solved side by side, against the whole solve alternated
//   (five rounds of the first nine, two of the other five): KRPkp's 32 0.98, KNPkp's 32 1.00,
//   KPPkp's 20 1.01, KQkpp's 20 1.02, KBPkp's 32 1.02, KQPPk's 20 1.03, KRkpp's 20 1.08, KQPkp's
//   32 1.09, KNkpp's 20 1.14, KBkpp's 20 1.15, KPPPk's 20 1.15, KNPPk's 20 1.23, KRPPk's 20 1.27,
//   KBPPk's 20 1.29, their median taken (the wall times': 0.92-1.27, median 1.05). KPPPk took 6.0
//   until its order "PPP Kk", the king pair innermost, was gathered before writing
//   (Solution::gather). Each slice reading those blocks again, they took 1.8-4.0; one after the
//   other, 1.07-1.15.
inline constexpr double LeanCpuRatio = 1.05;
inline constexpr double JoinedSlicesCpuRatio = 1.0;
inline constexpr double PlacementSlicesCpuRatio = 1.04;
inline constexpr double FileSlicesCpuRatio = 1.09;
// A whole solve estimated below this is taken as it is: there is little memory to save, and the
// fixed costs of the other paths (scratch files, a pass per slice) weigh most on small tables
// (KRPk's 24 slices and KPkp's took 2.1 and 2.3 times their CPU time whole; every 3-4-man table is below).
inline constexpr uint64_t SmallSolveBytes = uint64_t{256} << 20;

// The estimated CPU seconds (one thread) of solving the table of `cost` as `plan` says.
[[nodiscard]] double plan_cpu_seconds(const CostEstimate& cost, const SolvePlan& plan);

// The plan `egtb generate` takes without --max-memory: the one of least memory among those
// estimated to take no more CPU time than the whole solve, when it fits `machine_memory`; when it
// does not, plan_solve(cost, machine_memory), whatever that costs. KRPkr: 21 slices with its
// promoting ones joined (429 MB against 1,549 MB whole, same time); KQPkp: whole, its file slices
// taking more CPU time (FileSlicesCpuRatio); KQk (9 MB): whole.
[[nodiscard]] SolvePlan default_plan(const CostEstimate& cost, uint64_t machine_memory);

// How `egtb generate` solves a table: under `max_memory` (--max-memory; at most the machine's)
// by plan_solve, without one (0) by default_plan.
[[nodiscard]] SolvePlan choose_plan(const CostEstimate& cost, uint64_t max_memory, uint64_t machine_memory);

}  // namespace egtb::retro
