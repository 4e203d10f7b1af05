#include "api/options.hpp"

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

MetricSet metrics_named(std::string_view text, std::string_view what) {
  if (const auto metrics = parse_metric_set(text)) return *metrics;
  throw InputError(std::string(what) + " must be 'dtm,dts' or 'dtm', not '" + query::quote_source(text) +
                   "'");
}

}  // namespace egtb::api
