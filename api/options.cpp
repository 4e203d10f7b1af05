#include "api/options.hpp"

#include <charconv>
#include <cstdint>
#include <string>

#include "api/errors.hpp"
#include "query/source.hpp"

namespace egtb::api {

indexing::Convention convention_named(std::string_view text, std::string_view what) {
  if (const auto c = indexing::parse_convention(text)) return *c;
  throw InputError(std::string(what) + " must be index462, physical or classes, not '" +
                   query::quote_source(text) + "'");
}

Rules rules_named(std::string_view text, std::string_view what) {
  if (const auto rules = parse_rules(text)) return *rules;
  throw InputError(std::string(what) + " must be lasker, stalemate-wins or stalemate-passes, not '" +
                   query::quote_source(text) + "'");
}

uint64_t bytes_named(std::string_view text, std::string_view what) {
  static constexpr std::string_view Suffixes = "KMGT";
  uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  const std::string_view rest(end, static_cast<size_t>(text.data() + text.size() - end));
  const size_t suffix = rest.size() == 1 ? Suffixes.find(rest[0]) : rest.empty() ? 0 : std::string_view::npos;
  const int shift = rest.empty() ? 0 : 10 * (static_cast<int>(suffix) + 1);
  if (ec != std::errc() || value == 0 || suffix == std::string_view::npos || value > (UINT64_MAX >> shift))
    throw InputError(std::string(what) +
                     " must be a size such as 800M or 2G (a whole number above 0, then K, M, G or T), not '" +
                     std::string(text) + "'");
  return value << shift;
}

MetricSet metrics_named(std::string_view text, std::string_view what) {
  if (const auto metrics = parse_metric_set(text)) return *metrics;
  throw InputError(std::string(what) + " must be 'dtm,dts', 'dtm' or 'dts', not '" +
                   query::quote_source(text) + "'");
}

}  // namespace egtb::api
