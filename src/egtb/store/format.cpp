#include "egtb/store/format.hpp"

#define XXH_STATIC_LINKING_ONLY  // XXH3_state_t on the stack
#include <xxhash.h>

#include <algorithm>
#include <sstream>

#include "egtb/store/bytes.hpp"
#include "egtb/store/error.hpp"
#include "indexing/index.hpp"

namespace egtb {

namespace {

// Bytes per counted thing, 0 when there are none.
double ratio(uint64_t bytes, uint64_t count) {
  return count == 0 ? 0.0 : static_cast<double>(bytes) / static_cast<double>(count);
}

void put_stats(ByteWriter& w, const SideStats& s) {
  for (uint64_t count : s.values) w.put(count);
  w.put(s.invalid);
  for (int depth : s.max_depths) w.put(static_cast<uint32_t>(depth));
}

SideStats get_stats(ByteReader& r) {
  SideStats s;
  for (uint64_t& count : s.values) count = r.get<uint64_t>();
  s.invalid = r.get<uint64_t>();
  for (int& depth : s.max_depths) depth = static_cast<int32_t>(r.get<uint32_t>());
  return s;
}

// "0x1f8".
std::string hex(uint32_t bits) {
  std::ostringstream text;
  text << "0x" << std::hex << bits;
  return text.str();
}

}  // namespace

void check_header(const TableHeader& h, const std::filesystem::path& path) {
  if (h.block_entries == 0) throw FormatError(path, "header: zero entries per block");
  const uint64_t blocks = h.blocks_of_side(0) + h.blocks_of_side(1);
  if (h.block_count != blocks)
    throw FormatError(path, "header: " + std::to_string(h.block_count) + " blocks where the entries need " +
                                std::to_string(blocks));
  for (int side = 0; side < 2; ++side)
    if (h.stats[static_cast<size_t>(side)].entries() != h.entries[static_cast<size_t>(side)])
      throw FormatError(path,
                        "header: value counts do not add up to the entries of side " + std::to_string(side));
}

uint64_t TableHeader::blocks_of_side(int side) const {
  return ceil_div(entries[static_cast<size_t>(side)], block_entries);
}

uint64_t TableHeader::data_offset() const {
  return header_bytes(*this) + BlockIndexEntryBytes * block_count + sizeof(uint64_t);
}

uint64_t TableHeader::positions() const { return stats[0].positions() + stats[1].positions(); }

double TableHeader::bytes_per_position() const { return ratio(file_size, positions()); }

double TableHeader::bytes_per_entry() const { return ratio(file_size, entries[0] + entries[1]); }

uint64_t block_of(const TableHeader& h, int side, uint64_t index) {
  return (side == 0 ? 0 : h.blocks_of_side(0)) + index / h.block_entries;
}

BlockSpan block_span(const TableHeader& h, uint64_t block) {
  const uint64_t white_blocks = h.blocks_of_side(0);
  const int side = block < white_blocks ? 0 : 1;
  const uint64_t first = (side == 0 ? block : block - white_blocks) * h.block_entries;
  const uint64_t count = std::min<uint64_t>(h.block_entries, h.entries[static_cast<size_t>(side)] - first);
  return {side, first, count};
}

Rules header_rules(uint32_t id, const std::filesystem::path& path) {
  const std::optional<Rules> rules = rules_from_id(id);
  if (!rules)
    throw FormatError(path, "built under rules number " + std::to_string(id) +
                                ", which this program does not know: it needs a newer egtb");
  return *rules;
}

MetricSet header_metrics(uint32_t bits, Rules rules, const std::filesystem::path& path) {
  const uint32_t unknown = bits & ~((1u << MetricCount) - 1);
  if (unknown != 0)
    throw FormatError(path, "header: unknown metric bits " + hex(unknown) + " (of " + hex(bits) +
                                "; bit 0 is DTM, bit 1 DTS, bit 2 DTE): it needs a newer egtb or is damaged");
  const MetricSet metrics = MetricSet::from_bits(bits);
  if (rules == Rules::Lasker && metrics == StalemateOnly) return metrics;
  MetricSet solved;
  std::string allowed;
  for (const SolvePhase& p : solve_phases(rules)) {
    solved = MetricSet::from_bits(solved.bits() | MetricSet{p.metric}.bits());
    if (metrics == solved) return metrics;
    allowed += (allowed.empty() ? "" : " or ") + to_string(solved);
  }
  if (rules == Rules::Lasker) allowed += " or dts (stalemates only)";
  throw FormatError(path, "header: metrics " + to_string(metrics) + ", where a " +
                              std::string(rules_name(rules)) + " table holds " + allowed + ": " +
                              rebuild_hint(path));
}

std::string index_order_name(const TableHeader& h) {
  const auto material = Material::parse(h.signature);
  if (material && material->men() <= indexing::MaxIndexMen) {
    if (h.index_version == 1 && h.index_order == 0)
      return indexing::IndexOrder::kings_first(*material).str(*material);
    if (const auto order = indexing::IndexOrder::from_code(h.index_order, *material))
      return order->str(*material);
  }
  return hex(h.index_order);
}

uint64_t header_bytes(const TableHeader& h) {
  const uint64_t texts = 2 + h.signature.size() + 2 + h.generator.size();
  return (FixedHeaderBytes + texts + 7) / 8 * 8;
}

std::vector<uint8_t> encode_preamble(TableHeader& h, std::span<const BlockRef> blocks) {
  std::vector<uint8_t> out;
  ByteWriter w(out);
  for (uint8_t b : FileMagic) w.put(b);
  h.format_version = h.packed ? PackedFormatVersion : h.filled ? FilledFormatVersion : FormatVersion;
  w.put(h.format_version);
  w.put(static_cast<uint32_t>(header_bytes(h)));
  w.put(h.metrics.bits());
  w.put(h.block_entries);
  w.put(h.index_scheme);
  w.put(h.index_version);
  w.put(h.entries[0]);
  w.put(h.entries[1]);
  w.put(h.block_count);
  w.put(h.file_size);
  put_stats(w, h.stats[0]);
  w.put((h.filled ? FilledFlag : uint32_t{0}) | (h.packed ? PackedFlag : uint32_t{0}));
  put_stats(w, h.stats[1]);
  w.put(uint32_t{0});
  w.put(rules_id(h.rules));
  w.put(h.index_order);
  w.put_text(h.signature);
  w.put_text(h.generator);
  w.pad_to(header_bytes(h));
  for (const BlockRef& b : blocks) {
    w.put(b.offset);
    w.put(b.size);
    w.put(static_cast<uint32_t>(b.transform));
    w.put(b.checksum);
  }
  h.checksum = checksum_of(out);
  w.put(h.checksum);
  return out;
}

namespace {

// Whether `flags` are those a file of `version` has: none in version 2, Filled alone in 3, Packed
// and maybe Filled in 4.
bool flags_of_version(uint32_t flags, uint32_t version) {
  if (version == PackedFormatVersion) return (flags & ~FilledFlag) == PackedFlag;
  return flags == (version == FilledFormatVersion ? FilledFlag : 0);
}

}  // namespace

uint64_t decode_header_size(std::span<const uint8_t> first16, const std::filesystem::path& path) {
  if (first16.size() < 16 || !std::equal(FileMagic.begin(), FileMagic.end(), first16.begin()))
    throw FormatError(path, "not an egtb table file (bad magic bytes)");
  ByteReader r(first16.subspan(8), path);
  const auto version = r.get<uint32_t>();
  if (version < FormatVersion || version > PackedFormatVersion)
    throw FormatError(path, "table format version " + std::to_string(version) +
                                ", this program reads versions " + std::to_string(FormatVersion) + " to " +
                                std::to_string(PackedFormatVersion) + ": " + rebuild_hint(path));
  const auto size = r.get<uint32_t>();
  if (size < FixedHeaderBytes + 4 || size > MaxHeaderBytes || size % 8 != 0)
    throw FormatError(path, "header size " + std::to_string(size) + " is impossible");
  return size;
}

TableHeader decode_header(std::span<const uint8_t> header, const std::filesystem::path& path) {
  ByteReader r(header.subspan(8), path);
  TableHeader h;
  h.format_version = r.get<uint32_t>();
  r.get<uint32_t>();
  const auto metric_bits = r.get<uint32_t>();
  h.block_entries = r.get<uint32_t>();
  h.index_scheme = r.get<uint32_t>();
  h.index_version = r.get<uint32_t>();
  h.entries[0] = r.get<uint64_t>();
  h.entries[1] = r.get<uint64_t>();
  h.block_count = r.get<uint64_t>();
  h.file_size = r.get<uint64_t>();
  h.stats[0] = get_stats(r);
  const auto flags = r.get<uint32_t>();
  h.stats[1] = get_stats(r);
  r.get<uint32_t>();
  if (!flags_of_version(flags, h.format_version))
    throw FormatError(path, "header flags " + std::to_string(flags) + " are not those of a version " +
                                std::to_string(h.format_version) + " file: " + rebuild_hint(path));
  h.filled = (flags & FilledFlag) != 0;
  h.packed = (flags & PackedFlag) != 0;
  const auto rules = r.get<uint32_t>();
  h.index_order = r.get<uint32_t>();
  h.rules = header_rules(rules, path);
  h.metrics = header_metrics(metric_bits, h.rules, path);
  h.signature = r.get_text();
  h.generator = r.get_text();
  return h;
}

BlockRef decode_block_ref(const TableHeader& h, uint64_t block, std::span<const uint8_t> entry,
                          const std::filesystem::path& path) {
  ByteReader r(entry, path);
  BlockRef b;
  b.offset = r.get<uint64_t>();
  b.size = r.get<uint32_t>();
  const auto transform = r.get<uint32_t>();
  b.checksum = r.get<uint64_t>();
  if (transform > static_cast<uint32_t>(BlockTransform::Packed) ||
      (transform == static_cast<uint32_t>(BlockTransform::Packed) && !h.packed))
    throw FormatError(
        path, "block " + std::to_string(block) + ": unknown transform " + std::to_string(transform) +
                  (h.packed ? "" : " in a file of format version " + std::to_string(h.format_version)));
  b.transform = static_cast<BlockTransform>(transform);
  if (b.offset < h.data_offset() || b.offset > h.file_size || b.size > h.file_size - b.offset)
    throw FormatError(path, "block " + std::to_string(block) + ": bytes " + std::to_string(b.offset) + "-" +
                                std::to_string(b.offset + b.size) + " lie outside the blocks (bytes " +
                                std::to_string(h.data_offset()) + "-" + std::to_string(h.file_size) + ")");
  return b;
}

std::vector<BlockRef> decode_block_index(const TableHeader& h, std::span<const uint8_t> index,
                                         const std::filesystem::path& path) {
  if (index.size() < BlockIndexEntryBytes * h.block_count)
    throw FormatError(path, "header ends early, in the block index");
  std::vector<BlockRef> blocks(h.block_count);
  uint64_t expected_offset = h.data_offset();
  for (uint64_t i = 0; i < h.block_count; ++i) {
    blocks[i] = decode_block_ref(h, i, index.subspan(BlockIndexEntryBytes * i, BlockIndexEntryBytes), path);
    if (blocks[i].offset != expected_offset)
      throw FormatError(path,
                        "block " + std::to_string(i) + " is not where the index says the blocks continue");
    expected_offset += blocks[i].size;
  }
  if (expected_offset != h.file_size)
    throw FormatError(path, "the blocks end at byte " + std::to_string(expected_offset) +
                                ", the header says the file has " + std::to_string(h.file_size));
  return blocks;
}

uint64_t checksum_of(std::span<const uint8_t> bytes) { return XXH3_64bits(bytes.data(), bytes.size()); }

uint64_t checksum_of(std::span<const uint8_t> first, std::span<const uint8_t> then) {
  XXH3_state_t state;
  XXH3_INITSTATE(&state);
  (void)XXH3_64bits_reset(&state);
  (void)XXH3_64bits_update(&state, first.data(), first.size());
  (void)XXH3_64bits_update(&state, then.data(), then.size());
  return XXH3_64bits_digest(&state);
}

namespace {

// How commands name the table of a file: tables/KQk.stalemate-wins.egtb (or .egv) is table "KQk
// --rules stalemate-wins", dir "tables".
struct TableArguments {
  std::string table;
  std::string dir;
};

TableArguments table_arguments(const std::filesystem::path& path) {
  const std::string name = path.filename().string();
  const size_t dot = name.find('.');
  TableArguments out{name.substr(0, dot), (path.has_parent_path() ? path.parent_path() : ".").string()};
  if (const size_t second = name.find('.', dot + 1); dot != std::string::npos && second != std::string::npos)
    out.table += " --rules " + name.substr(dot + 1, second - dot - 1);
  return out;
}

}  // namespace

std::string rebuild_hint(const std::filesystem::path& path) {
  const TableArguments a = table_arguments(path);
  return "rebuild it with: egtb generate " + a.table + " --force --dir " + a.dir;
}

std::string rewrite_values_hint(const std::filesystem::path& value_file) {
  const TableArguments a = table_arguments(value_file);
  return "write it again with: egtb recompress " + a.table + " --dir " + a.dir + " --value-files";
}

std::filesystem::path table_path(const std::filesystem::path& directory, const Material& material,
                                 Rules rules) {
  std::string name = material.normalized().str();
  if (rules != Rules::Lasker) (name += '.') += rules_name(rules);
  return directory / (name + TableExtension);
}

}  // namespace egtb
