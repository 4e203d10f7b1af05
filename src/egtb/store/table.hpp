// Table: the scores of one material signature, one raw 16-bit Score per index entry and side to
// move, held whole in memory or read block by block from its file. The one form of a table
// above the file: the solver fills one in memory and its subtables are Tables read from files,
// the verifier checks one, Tablebase probes them.
//
//   auto kqk = Table::load("tables/KQk.egtb", {Material::parse("KQk").value(), Rules::Lasker, {}});
//   Score s = kqk->at(Color::White, *kqk->scheme().index_of(pos));
//
// Paged tables are for those too large to hold: a 5-man table such as KQRkr (440 MB in memory) is
// reached from KRPkr only by promotions, a few probes per position with a pawn on the 7th rank,
// and those land in few blocks at a time. Their blocks come through a BlockCache shared with other
// tables (Tablebase shares one among all its tables), and each thread keeps its last blocks at
// hand, so that most lookups touch neither the cache's locks nor the file.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "egtb/core/huge_pages.hpp"
#include "egtb/core/material.hpp"
#include "egtb/core/types.hpp"
#include "egtb/store/block_cache.hpp"
#include "egtb/store/reader.hpp"
#include "egtb/store/rules.hpp"
#include "egtb/store/score.hpp"
#include "egtb/store/table_stats.hpp"
#include "indexing/index.hpp"

namespace egtb {

// Tables with more entries per side than this are paged when they are read as the subtables of
// another table's solve (retro/subtables.hpp): the 5-man tables that promotions of a 5-man pawn
// table lead into, which would otherwise double the memory its solution needs. Their files keep the
// king pair ahead of the pawns in the index (order_choice.hpp), because that solve reads them king
// pair by king pair.
inline constexpr uint64_t PagedTableEntries = 50'000'000;

// Whether a table of `material` is paged when read as a subtable: KRPkr's KQRkr, yes (110 M
// entries per side); KPPk's KQPk, no.
[[nodiscard]] bool paged_subtable(const Material& material);

// "egtb 0.1.0": the generator version written into new files.
[[nodiscard]] std::string generator_version();

class Table {
public:
  // A table in memory of `material` (canonical) with every entry Score::unknown(), to be filled.
  explicit Table(const Material& material, Rules rules = Rules::Lasker);
  Table(const Material& material, Rules rules, MetricSet metrics);

  // A finished table file read whole into memory: every block checksum and the header's counts
  // and maxima are checked. Throws IoError or FormatError (TableReader); the file must be indexable
  // by this program whatever `required` says. Its scheme is the file's index layout version.
  [[nodiscard]] static std::shared_ptr<const Table> load(const std::filesystem::path& path,
                                                         TableRequirements required = {});
  // A finished table file whose blocks are read when asked for, through `cache`.
  [[nodiscard]] static std::shared_ptr<const Table> page(const std::filesystem::path& path,
                                                         TableRequirements required,
                                                         std::shared_ptr<BlockCache> cache);
  // A paged table that holds the entries of one side to move in memory, read whole and checked
  // as load() checks them: half of load()'s memory, for a table too large to hold whole, whose
  // other side is read in index order (retro::verify_table_by_side).
  [[nodiscard]] static std::shared_ptr<const Table> load_side(const std::filesystem::path& path,
                                                              TableRequirements required, Color in_memory,
                                                              std::shared_ptr<BlockCache> cache);

  [[nodiscard]] const indexing::IndexScheme& scheme() const { return scheme_; }
  [[nodiscard]] const Material& material() const { return scheme_.material(); }
  [[nodiscard]] std::string signature() const { return material().str(); }
  [[nodiscard]] Rules rules() const { return rules_; }
  [[nodiscard]] MetricSet metrics() const { return metrics_; }
  [[nodiscard]] const std::string& generator() const { return generator_; }
  // Entries per side to move.
  [[nodiscard]] indexing::Index size() const { return scheme_.size(); }
  [[nodiscard]] bool is_paged() const { return reader_ != nullptr; }
  // True for a paged table whose file changed since it was opened (TableReader::file_changed).
  [[nodiscard]] bool file_changed() const;
  // The file a loaded or paged table was read from (empty for a table built in memory).
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }

  [[nodiscard]] Score at(Color stm, indexing::Index i) const {
    const Entries& held = entries_[side_of(stm)];
    if (held.empty()) return paged_at(stm, i);
    return Score::from_raw(held[i]);
  }
  // out[k] = at(stm, entries[k]) for k < n; a paged table looks a block up once for a run of
  // entries in it.
  void at(Color stm, const indexing::Index* entries, int n, Score* out) const;

  // In-memory tables only.
  void set(Color stm, indexing::Index i, Score s) { entries_[side_of(stm)][i] = s.raw(); }
  [[nodiscard]] std::span<uint16_t> raw(Color stm) { return entries_[side_of(stm)]; }
  [[nodiscard]] std::span<const uint16_t> raw(Color stm) const { return entries_[side_of(stm)]; }
  // Counts of each value and the deepest depths of one side to move (computed on each call).
  [[nodiscard]] SideStats stats(Color stm) const { return compute_stats(raw(stm)); }

private:
  indexing::IndexScheme scheme_;
  Rules rules_;
  MetricSet metrics_;
  std::string generator_ = generator_version();
  std::filesystem::path path_;
  // A side's scores, read at random when they are a verified table's children (huge pages).
  using Entries = std::vector<uint16_t, HugePageAllocator<uint16_t>>;
  std::array<Entries, 2> entries_;             // empty for a side read from the file (reader_)
  std::shared_ptr<const TableReader> reader_;  // set for a paged table
  std::shared_ptr<BlockCache> cache_;
  uint32_t id_ = 0;  // names a paged table in the cache, unique in the process

  Table(const TableReader& reader);
  [[nodiscard]] static std::shared_ptr<Table> open_paged(const std::filesystem::path& path,
                                                         TableRequirements required,
                                                         std::shared_ptr<BlockCache> cache);
  // Reads side stm's entries into memory, its counts checked against the header's.
  void read_side(const TableReader& reader, Color stm);
  static size_t side_of(Color c) { return static_cast<size_t>(to_index(c)); }
  // Entry i of a paged table: read in place from a file of Packed blocks (TableReader::
  // entry_in_place), else from its decoded block.
  [[nodiscard]] Score paged_at(Color stm, indexing::Index i) const;
  // The scores of one block of a paged table, through this thread's recent blocks and the cache.
  [[nodiscard]] const BlockEntries& block(uint64_t block) const;
};

}  // namespace egtb
