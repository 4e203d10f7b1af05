#include "api/statistics.hpp"

#include "api/errors.hpp"
#include "api/signatures.hpp"

namespace egtb::api {

std::vector<stats::TableStatistics> table_statistics(const StatsRequest& request) {
  const Tablebase tablebase(request.directory, {TablebaseOptions::DefaultCacheBytes, request.rules});
  const std::vector<Material> targets = present_tables(tablebase, request.signatures, request.all);
  if (targets.empty()) throw InputError("stats: name at least one signature");
  std::vector<stats::TableStatistics> tables;
  tables.reserve(targets.size());
  for (const Material& m : targets)
    tables.push_back(stats::compute_statistics(tablebase, m, request.options));
  return tables;
}

std::optional<std::string> missing_dts_warning(const stats::TableStatistics& t) {
  if (t.metrics.contains(all_metrics(t.rules))) return std::nullopt;
  return t.material.str() + " was built without DTS (--metrics dtm): its values 3 and 1 count as draws";
}

std::optional<std::string> missing_dts_warning(const std::vector<Material>& tables) {
  if (tables.empty()) return std::nullopt;
  std::string names;
  for (const Material& m : tables) names += (names.empty() ? "" : ", ") + m.str();
  return names + (tables.size() == 1 ? " was" : " were") +
         " built without DTS (--metrics dtm): stalemate wins and losses (values 3 and 1) show as draws";
}

}  // namespace egtb::api
