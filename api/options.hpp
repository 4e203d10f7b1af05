// The option values every front end accepts as words (the command line's --convention and
// --metrics, the Python module's keyword arguments, the HTTP API's rules), checked with one message each.
#pragma once

#include <cstdint>
#include <string_view>

#include "egtb/store/rules.hpp"
#include "indexing/index.hpp"

namespace egtb::api {

// The counting convention `text` names: index462, physical or classes. Throws InputError
// "<what> must be index462, physical or classes, not '<text>'".
[[nodiscard]] indexing::Convention convention_named(std::string_view text, std::string_view what);

// The rule set `text` names: lasker, stalemate-wins or stalemate-passes (egtb/store/rules.hpp).
// Throws InputError "<what> must be lasker, stalemate-wins or stalemate-passes, not '<text>'".
[[nodiscard]] Rules rules_named(std::string_view text, std::string_view what);

// A size in bytes: a whole number above 0 with an optional suffix K, M, G or T (powers of 1024),
// such as 800M or 2G. Throws InputError "<what> must be a size such as 800M or 2G (...), not '<text>'".
[[nodiscard]] uint64_t bytes_named(std::string_view text, std::string_view what);

// The metrics `text` names: "dtm,dts", "dtm" (mates only) or "dts" (stalemate-only files). Throws
// InputError.
[[nodiscard]] MetricSet metrics_named(std::string_view text, std::string_view what);

}  // namespace egtb::api
