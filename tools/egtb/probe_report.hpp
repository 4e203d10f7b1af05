// The text `egtb probe` prints about one position (docs/probe.md); the JSON form is the
// application layer's (api/json.hpp).
#pragma once

#include <ostream>

#include "api/probe.hpp"

namespace egtb::cli {

void print_report(std::ostream& out, const api::ProbeReport& report);

}  // namespace egtb::cli
