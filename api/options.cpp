#include "api/options.hpp"

#include <string>

#include "api/errors.hpp"

namespace egtb::api {

indexing::Convention convention_named(std::string_view text, std::string_view what) {
  if (const auto c = indexing::parse_convention(text)) return *c;
  throw InputError(std::string(what) + " must be index462, physical or classes, not '" + std::string(text) +
                   "'");
}

Rules rules_named(std::string_view text, std::string_view what) {
  if (const auto rules = parse_rules(text)) return *rules;
  throw InputError(std::string(what) + " must be lasker, stalemate-wins or stalemate-passes, not '" +
                   std::string(text) + "'");
}

MetricSet metrics_named(std::string_view text, std::string_view what) {
  if (const auto metrics = parse_metric_set(text)) return *metrics;
  throw InputError(std::string(what) + " must be 'dtm,dts' or 'dtm', not '" + std::string(text) + "'");
}

}  // namespace egtb::api
