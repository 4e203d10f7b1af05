#include "egtb/store/table.hpp"

#include <atomic>
#include <utility>

#include "egtb/store/error.hpp"

namespace egtb {

std::string generator_version() { return std::string("egtb ") + EGTB_VERSION; }

bool paged_subtable(const Material& material) {
  return indexing::IndexScheme(material).size() > PagedTableEntries;
}

Table::Table(const Material& material, Rules rules) : Table(material, rules, all_metrics(rules)) {}

Table::Table(const Material& material, Rules rules, MetricSet metrics)
    : scheme_(material), rules_(rules), metrics_(metrics) {
  for (auto& side : entries_) side.assign(scheme_.size(), Score::unknown().raw());
}

Table::Table(const TableReader& reader)
    : scheme_(reader.scheme()),
      rules_(reader.rules()),
      metrics_(reader.header().metrics),
      generator_(reader.header().generator),
      path_(reader.path()) {}

std::shared_ptr<const Table> Table::load(const std::filesystem::path& path, TableRequirements required) {
  required.indexable = true;        // a table's entries are addressed through its index scheme
  required.positions_only = false;  // its entries are checked against the header's counts below
  const TableReader reader(path, required);
  auto table = std::shared_ptr<Table>(new Table(reader));
  for (Color stm : {Color::White, Color::Black}) table->read_side(reader, stm);
  return table;
}

void Table::read_side(const TableReader& reader, Color stm) {
  Entries& entries = entries_[side_of(stm)];
  entries.resize(reader.entries(stm));
  reader.read_side(stm, entries);
  if (!(stats(stm) == reader.header().stats[side_of(stm)]))
    throw FormatError(path_, std::string(stm == Color::White ? "White" : "Black") +
                                 " to move: the entries do not match the header's counts and maxima");
}

std::shared_ptr<Table> Table::open_paged(const std::filesystem::path& path, TableRequirements required,
                                         std::shared_ptr<BlockCache> cache) {
  static std::atomic<uint32_t> next_id{0};
  required.indexable = true;
  auto reader = std::make_shared<const TableReader>(path, required);
  auto table = std::shared_ptr<Table>(new Table(*reader));
  table->reader_ = std::move(reader);
  table->cache_ = std::move(cache);
  table->id_ = next_id++;
  return table;
}

std::shared_ptr<const Table> Table::page(const std::filesystem::path& path, TableRequirements required,
                                         std::shared_ptr<BlockCache> cache) {
  return open_paged(path, required, std::move(cache));
}

std::shared_ptr<const Table> Table::load_side(const std::filesystem::path& path, TableRequirements required,
                                              Color in_memory, std::shared_ptr<BlockCache> cache) {
  required.positions_only = false;  // its entries are checked against the header's counts
  auto table = open_paged(path, required, std::move(cache));
  table->read_side(*table->reader_, in_memory);
  return table;
}

bool Table::file_changed() const { return reader_ && reader_->file_changed(); }

const BlockEntries& Table::block(uint64_t block) const {
  // Each thread keeps the last blocks it used in a small direct-mapped array. Example: KRPkr's
  // promotions alternate between KQRkr, KRRkr, KRBkr and KRNkr, whose current blocks then sit in
  // four slots.
  struct Slot {
    uint32_t owner = UINT32_MAX;
    uint64_t block = 0;
    BlockCache::Block scores;
  };
  constexpr size_t Slots = 32;
  thread_local std::array<Slot, Slots> recent;
  Slot& slot = recent[(block * 0x9E3779B97F4A7C15ULL + id_ * 0x632BE59BD9B4E019ULL) >> 59];
  if (slot.owner != id_ || slot.block != block || !slot.scores)
    slot = Slot{id_, block, cache_->find_or_load({id_, block}, [&](BlockEntries& out) {
                  out.resize(block_span(reader_->header(), block).count);
                  reader_->read_block(block, std::span<uint16_t>(out));
                })};
  return *slot.scores;
}

Score Table::paged_at(Color stm, indexing::Index i) const {
  const uint64_t b = reader_->block_of(stm, i);
  const size_t j = reader_->offset_in_block(i);
  if (reader_->reads_in_place())
    if (const std::optional<Score> score = reader_->entry_in_place(b, j)) return *score;
  return Score::from_raw(block(b)[j]);
}

void Table::at(Color stm, const indexing::Index* entries, int n, Score* out) const {
  const Entries& held = entries_[side_of(stm)];
  if (!held.empty()) {
    for (int k = 0; k < n; ++k) out[k] = Score::from_raw(held[entries[k]]);
    return;
  }
  if (reader_->reads_in_place()) {
    for (int k = 0; k < n; ++k) out[k] = paged_at(stm, entries[k]);
    return;
  }
  const uint64_t size = reader_->header().block_entries;
  uint64_t first = 0, end = 0;  // the entries of the block at hand
  const BlockEntries* scores = nullptr;
  for (int k = 0; k < n; ++k) {
    const indexing::Index i = entries[k];
    if (!scores || i < first || i >= end) {
      scores = &block(reader_->block_of(stm, i));
      first = i - reader_->offset_in_block(i);
      end = first + size;
    }
    out[k] = Score::from_raw((*scores)[i - first]);
  }
}

}  // namespace egtb
