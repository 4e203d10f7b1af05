// What building one table costs, estimated from the size of its index, for planning a set over
// processes, Make or Slurm (api/plan.hpp).
//
// The model: with E the index entries per side to move (indexing::IndexScheme::size(); KQRk has
// 1,806,336), a table built alone by `egtb generate SIG --no-closure --threads 1` takes
//
//   cpu_seconds = CpuSecondsPerEntry * E          peak_bytes = BaseBytes + BytesPerEntry * E
//
// with one set of coefficients for pawnless tables and one for tables with pawns (their solver
// runs longer per position: more plies, promotions into subtables). The peak includes the
// subtables loaded whole (under PagedSubtableEntries each; larger ones are paged through a fixed
// cache), which is why it grows faster than the solver's own sets.
//
// How the coefficients were measured (the lead refits them from the whole 5-man run): each table
// built alone, one thread, after its subtables, on the project's 2-core machine under load from
// other jobs, fields cpu_seconds and peak_rss_bytes of `egtb generate T --no-closure --force
// --threads 1 --json`; the per-entry figures are the largest of the tables measured, so that the
// estimate errs high (Slurm kills a job over its --mem):
//   pawnless: KQRk, KBNk (4 men), KQRkr, KBBkn (5 men);  pawns: KRPk, KPPk, KPkp (4 men), KRPkr.
// Small tables cost the base (the program, 10-15 MB) and a few milliseconds.
#pragma once

#include <cstdint>

#include "egtb/core/material.hpp"

namespace egtb::retro {

struct CostCoefficients {
  double cpu_seconds_per_entry;
  double bytes_per_entry;
  double base_bytes;
};

// KBBkn: 16.1 s CPU and 494 MB for 54,165,804 entries (3.0e-7 s, 8.9 bytes per entry); KQRkr:
// 11.7 s and 531 MB for 110,107,536 (1.1e-7 s, 4.7 bytes); KQRk, KBNk: 0.13-0.16 s, 16 MB.
inline constexpr CostCoefficients PawnlessCost{3.0e-7, 9.0, 16e6};
// KRPkr: 50.2 s CPU and 1,667 MB for 333,228,672 entries (1.5e-7 s, 5.0 bytes per entry); KPPk:
// 0.59 s and 118 MB for 2,037,168 (2.9e-7 s; its subtables KQPk... loaded whole make the base);
// KPkp 0.90 s, 124 MB for 4,186,308; KRPk 0.49 s, 57 MB for 5,374,656.
inline constexpr CostCoefficients PawnCost{2.9e-7, 5.0, 120e6};

struct CostEstimate {
  uint64_t entries_per_side = 0;  // index entries per side to move
  double cpu_seconds = 0;         // on one thread
  uint64_t peak_bytes = 0;        // resident memory of the process at its peak
};

// The estimated cost of building the table of `material` (canonical) alone.
[[nodiscard]] CostEstimate estimate_cost(const Material& material);

}  // namespace egtb::retro
