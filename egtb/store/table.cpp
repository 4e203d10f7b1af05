#include "egtb/store/table.hpp"

#include <utility>

namespace egtb {

std::string generator_version() { return std::string("egtb ") + EGTB_VERSION; }

Table::Table(const Material& material, indexing::Index entries, Metrics metrics, std::string generator)
    : material_(material), metrics_(metrics), generator_(std::move(generator)), size_(entries) {
  for (auto& side : entries_) side.assign(entries, Score::unknown().raw());
}

Table::Table(const indexing::IndexScheme& scheme, Metrics metrics)
    : Table(scheme.material(), scheme.size(), metrics) {}

}  // namespace egtb
