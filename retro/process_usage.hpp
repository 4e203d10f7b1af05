// What this process has used: CPU seconds, and its peak resident memory since a reset, so that a
// run building many tables can tell each table's peak (Linux: the kernel's VmHWM mark, reset by
// writing 5 to /proc/self/clear_refs; elsewhere the process's peak since it started). Example: in a
// run of `egtb generate --all 5` that peaks at 557 MB in KQkrn, KPPPk, built later, reports its
// own smaller peak, not 557 MB.
#pragma once

#include <cstdint>

namespace egtb::retro {

// User and system CPU seconds of the process so far.
[[nodiscard]] double process_cpu_seconds();
// Starts a new peak: peak_resident_bytes() counts from the resident memory now.
void reset_peak_resident();
// The peak resident memory in bytes since the last reset_peak_resident().
[[nodiscard]] uint64_t peak_resident_bytes();
// The machine's physical memory in bytes (what no solve can exceed and finish).
[[nodiscard]] uint64_t physical_memory_bytes();

}  // namespace egtb::retro
