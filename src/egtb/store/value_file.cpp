#include "egtb/store/value_file.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <stdexcept>
#include <string_view>

#include "egtb/store/bytes.hpp"
#include "egtb/store/error.hpp"
#include "egtb/store/writer.hpp"

namespace egtb {

namespace {

// The forms of a block after the constant ones, 0 to 4 (value_file.hpp).
enum Form : uint8_t { Runs = 5, Base5 = 6, Two = 7, Four = 8, Pairs = 9 };
static_assert(ValueBlockForms[value_block_form(Runs)] == std::string_view("runs") &&
              ValueBlockForms[value_block_form(Pairs)] == std::string_view("pairs"));

constexpr uint8_t MaxValue = 4;
constexpr size_t FixedValueHeaderBytes = 80;
constexpr uint64_t BlockCountOffset = 56;
constexpr uint64_t FileSizeOffset = 64;
constexpr size_t ChecksumBytes = sizeof(uint64_t);
constexpr size_t BlockChecksumBytes = sizeof(uint32_t);
// The block offsets' 32 bits bound the data, so the file too.
constexpr uint64_t MaxValueFileBytes = uint64_t{1} << 33;
constexpr std::array<uint8_t, 3> Powers5 = {1, 5, 25};
// A run token of a block of at most 2^20 entries, 5 * 2^20 at most, takes at most 4 varint bytes.
constexpr int MaxTokenBytes = 4;
// The grammar is learnt from about this many entries of a table (evenly spaced blocks).
constexpr uint64_t GrammarSampleEntries = uint64_t{1} << 24;

std::vector<uint8_t> encode_runs(std::span<const uint8_t> values) {
  std::vector<uint8_t> out{Runs};
  for (size_t i = 0; i < values.size();) {
    size_t end = i;
    while (end < values.size() && values[end] == values[i]) ++end;
    uint64_t token = (end - i - 1) * 5 + values[i];
    for (; token >= 0x80; token >>= 7) out.push_back(static_cast<uint8_t>(token | 0x80));
    out.push_back(static_cast<uint8_t>(token));
    i = end;
  }
  return out;
}

std::vector<uint8_t> encode_base5(std::span<const uint8_t> values) {
  std::vector<uint8_t> out(1 + ceil_div(values.size(), 3));
  out[0] = Base5;
  for (size_t j = 0; j < values.size(); ++j)
    out[1 + j / 3] += static_cast<uint8_t>(values[j] * Powers5[j % 3]);
  return out;
}

// Precondition: the values are a and b.
std::vector<uint8_t> encode_two(std::span<const uint8_t> values, uint8_t a, uint8_t b) {
  std::vector<uint8_t> out(2 + ceil_div(values.size(), 8));
  out[0] = Two;
  out[1] = static_cast<uint8_t>(a | b << 4);
  for (size_t j = 0; j < values.size(); ++j)
    if (values[j] == b) out[2 + j / 8] |= static_cast<uint8_t>(1u << (j % 8));
  return out;
}

// Precondition: `distinct`, ascending, holds 2 to 4 values, every value of the block.
std::vector<uint8_t> encode_four(std::span<const uint8_t> values, std::span<const uint8_t> distinct) {
  std::vector<uint8_t> out(5 + ceil_div(values.size(), 4));
  out[0] = Four;
  std::array<uint8_t, MaxValue + 1> code_of{};
  for (size_t c = 0; c < 4; ++c) out[1 + c] = distinct[std::min(c, distinct.size() - 1)];
  for (size_t c = 0; c < distinct.size(); ++c) code_of[distinct[c]] = static_cast<uint8_t>(c);
  for (size_t j = 0; j < values.size(); ++j)
    out[5 + j / 4] |= static_cast<uint8_t>(code_of[values[j]] << 2 * (j % 4));
  return out;
}

// Symbols of w bits each after the form byte Pairs, low bits first (value_file.hpp).
std::vector<uint8_t> encode_pairs(std::span<const uint16_t> symbols, int w) {
  std::vector<uint8_t> out(1 + ceil_div(symbols.size() * static_cast<size_t>(w), 8));
  out[0] = Pairs;
  for (size_t k = 0; k < symbols.size(); ++k)
    for (int b = 0; b < w; ++b)
      if ((symbols[k] >> b & 1) != 0) {
        const size_t bit = k * static_cast<size_t>(w) + static_cast<size_t>(b);
        out[1 + bit / 8] |= static_cast<uint8_t>(1u << (bit % 8));
      }
  return out;
}

// The w bits at bit `bit` of `bytes`, low bits first; w at most 12 and bit + w within the bytes.
uint32_t bits_at(std::span<const uint8_t> bytes, uint64_t bit, int w) {
  const uint64_t first = bit / 8;
  uint32_t word = 0;
  if (first + 4 <= bytes.size()) {
    std::memcpy(&word, bytes.data() + first, sizeof word);
  } else {
    for (uint64_t k = first; k < bytes.size(); ++k) word |= uint32_t{bytes[k]} << (8 * (k - first));
  }
  return word >> (bit % 8) & ((1u << w) - 1);
}

// How far a walk through the symbols of a block of Pairs went: the symbols read and the values
// they stand for.
struct PairWalk {
  uint64_t read = 0;
  uint64_t covered = 0;
};

// Walks on from `walk` through the symbols of a block of Pairs (the bytes after its form byte)
// until entry j, j not below walk.covered: its value, or UnreachedValue when the symbols end
// before it or one is past the grammar's. `walk` is left after the symbol holding j, or after the
// symbols read when there is none. Four symbols at a time while their bits lie in one 8-byte load
// inside the block (4 w + 7 <= 55 bits for w <= 12): their lengths summed (padded_lengths: an
// unknown symbol's takes the sum past j), the group holding j walked one symbol at a time.
// Example, symbols of 3 bits: bytes 2f 00 ... hold 7 5 0 ...; with the rules of
// value_grammar.hpp's example the lengths are 5 2 1, so entry 6 lies in the second symbol (entries
// 5 and 6), at its offset 1, and the walk is left at 2 symbols read, 7 values covered.
uint8_t pair_value(std::span<const uint8_t> bytes, uint64_t j, const PairGrammar& grammar, PairWalk& walk) {
  const int w = grammar.symbol_bits();
  const uint64_t mask = (uint64_t{1} << w) - 1;
  const uint32_t* lengths = grammar.padded_lengths().data();
  const uint64_t symbols = 8 * bytes.size() / static_cast<uint64_t>(w);
  uint64_t k = walk.read;
  uint64_t c = walk.covered;
  for (; k + 4 <= symbols && k * static_cast<uint64_t>(w) / 8 + 8 <= bytes.size(); k += 4) {
    const uint64_t bit = k * static_cast<uint64_t>(w);
    uint64_t word = 0;
    std::memcpy(&word, bytes.data() + bit / 8, sizeof word);
    word >>= bit % 8;
    const uint64_t sum = uint64_t{lengths[word & mask]} + lengths[word >> w & mask] +
                         lengths[word >> 2 * w & mask] + lengths[word >> 3 * w & mask];
    if (j < c + sum) break;
    c += sum;
  }
  for (; k < symbols; ++k) {
    const uint32_t symbol = bits_at(bytes, k * static_cast<uint64_t>(w), w);
    const uint32_t length = lengths[symbol];
    c += length;
    if (j < c) {
      walk = {k + 1, c};
      if (symbol >= grammar.symbol_count()) return UnreachedValue;
      return grammar.value_at(symbol, static_cast<uint32_t>(j - (c - length)));
    }
  }
  walk = {k, c};
  return UnreachedValue;
}

// The distinct values of a block, ascending. Throws std::invalid_argument for a value past 4.
std::vector<uint8_t> distinct_values(std::span<const uint8_t> values) {
  std::array<bool, MaxValue + 1> seen{};
  for (uint8_t v : values) {
    if (v > MaxValue) throw std::invalid_argument("encode_value_block: value " + std::to_string(v));
    seen[v] = true;
  }
  std::vector<uint8_t> distinct;
  for (uint8_t v = 0; v <= MaxValue; ++v)
    if (seen[v]) distinct.push_back(v);
  return distinct;
}

// Value j of the runs from `p` to `end`, or UnreachedValue when they end before entry j or a token
// takes more than MaxTokenBytes bytes.
uint8_t run_value(const uint8_t* p, const uint8_t* end, uint32_t j) {
  uint64_t covered = 0;
  while (p != end) {
    uint32_t token = 0;
    for (int bytes = 0;; ++bytes) {
      if (p == end || bytes == MaxTokenBytes) return UnreachedValue;
      const uint8_t byte = *p++;
      token |= uint32_t{byte & 0x7fu} << (7 * bytes);
      if ((byte & 0x80) == 0) break;
    }
    covered += token / 5 + 1;
    if (j < covered) return static_cast<uint8_t>(token % 5);
  }
  return UnreachedValue;
}

std::optional<std::string> check_size(std::span<const uint8_t> block, uint64_t expected) {
  if (block.size() == expected) return std::nullopt;
  return "a block of form " + std::to_string(block[0]) + " in " + std::to_string(block.size()) +
         " bytes, expected " + std::to_string(expected);
}

std::optional<std::string> check_palette(std::span<const uint8_t> palette) {
  for (uint8_t v : palette)
    if (v > MaxValue) return "a palette value " + std::to_string(v) + ", past 4";
  return std::nullopt;
}

// check_value_block of a block of Pairs, its symbols walked on from `walk` (from the first symbol
// when nothing was read, else from where a walk to an entry of the block stopped).
std::optional<std::string> finish_pairs(std::span<const uint8_t> block, uint32_t entries,
                                        const PairGrammar& grammar, PairWalk walk) {
  const std::span<const uint8_t> bytes = block.subspan(1);
  if (walk.covered < entries && pair_value(bytes, entries - 1, grammar, walk) == UnreachedValue)
    return "its symbols end before entry " + std::to_string(entries - 1) + " or name no rule of the " +
           std::to_string(grammar.rules().size()) + " of the grammar";
  if (walk.covered != entries)
    return "its symbols stand for " + std::to_string(walk.covered) + " values, the block holds " +
           std::to_string(entries);
  const uint64_t used = walk.read * static_cast<uint64_t>(grammar.symbol_bits());
  if (auto problem = check_size(block, 1 + ceil_div(used, 8))) return problem;
  if (used % 8 != 0 && (bytes.back() >> (used % 8)) != 0)
    return std::string("bits set after its last symbol");
  return std::nullopt;
}

// Invalid entries (raw code past 4) as the value before them in the block, or the block's first
// value for those before any; a block of invalid entries alone as draws. Example: invalid 4 invalid
// 0 becomes 4 4 4 0.
void fill_invalid_values(std::span<uint8_t> values) {
  const auto first = std::find_if(values.begin(), values.end(), [](uint8_t v) { return v <= MaxValue; });
  uint8_t last = first == values.end() ? static_cast<uint8_t>(Lasker::Draw) : *first;
  for (uint8_t& v : values) {
    if (v > MaxValue)
      v = last;
    else
      last = v;
  }
}

// The values of entries [first, first + out.size()) of side `stm` of a table, read block by block.
void read_values(const TableReader& reader, Color stm, uint64_t first, std::span<uint8_t> out,
                 std::vector<uint16_t>& block) {
  for (uint64_t done = 0; done < out.size();) {
    const uint64_t index = first + done;
    reader.read_block(reader.block_of(stm, index), block);
    const size_t offset = reader.offset_in_block(index);
    const size_t count = std::min<uint64_t>(out.size() - done, block.size() - offset);
    for (size_t k = 0; k < count; ++k) out[done + k] = static_cast<uint8_t>(block[offset + k] & 7);
    done += count;
  }
}

// The values of the block of `block_entries` entries of side `stm` that begins at entry `first`,
// its invalid entries filled.
void read_value_block(const TableReader& reader, Color stm, uint64_t first, uint32_t block_entries,
                      std::vector<uint8_t>& values, std::vector<uint16_t>& scratch) {
  values.resize(std::min<uint64_t>(block_entries, reader.entries(stm) - first));
  read_values(reader, stm, first, values, scratch);
  fill_invalid_values(values);
}

// The grammar of a table's value file, learnt from the values of every block, or of evenly spaced
// blocks holding about GrammarSampleEntries.
PairGrammar learn_grammar(const TableReader& reader, uint32_t block_entries) {
  const uint64_t entries = reader.entries(Color::White) + reader.entries(Color::Black);
  const uint64_t step = std::max<uint64_t>(1, ceil_div(entries, GrammarSampleEntries));
  std::vector<std::vector<uint8_t>> sample;
  std::vector<uint16_t> scratch;
  uint64_t block = 0;
  for (const Color stm : {Color::White, Color::Black})
    for (uint64_t first = 0; first < reader.entries(stm); first += block_entries, ++block)
      if (block % step == 0)
        read_value_block(reader, stm, first, block_entries, sample.emplace_back(), scratch);
  return PairGrammar::learn(sample);
}

// How to replace a damaged value file, ending its messages: " (write it again with: egtb
// recompress KQk --dir tables --value-files)".
std::string rewrite_hint(const std::filesystem::path& path) { return " (" + rewrite_values_hint(path) + ")"; }

// Where a value file's grammar begins, G: after the signature, at a multiple of 8.
uint64_t grammar_offset(size_t signature_size) {
  return ceil_div(FixedValueHeaderBytes + 2 + signature_size, 8) * 8;
}

// The grammar after a signature of `signature_size` bytes (value_file.hpp), `r` just past the
// signature; its rules must lie within the header's h_size bytes and stand for block_entries
// values at most. Throws FormatError.
PairGrammar read_grammar(ByteReader& r, size_t signature_size, uint64_t h_size, uint32_t block_entries,
                         const std::filesystem::path& path) {
  const uint64_t g = grammar_offset(signature_size);
  for (uint64_t k = FixedValueHeaderBytes + 2 + signature_size; k < g; ++k) r.get<uint8_t>();
  const uint32_t count = r.get<uint32_t>();
  if (count > PairGrammar::MaxRules || g + 4 + 4 * uint64_t{count} > h_size)
    throw FormatError(path, "header: a grammar of " + std::to_string(count) + " rules, past its " +
                                std::to_string(h_size) + " bytes or the " +
                                std::to_string(PairGrammar::MaxRules) + " a file may hold");
  std::vector<PairRule> rules(count);
  for (PairRule& rule : rules) {
    rule.left = r.get<uint16_t>();
    rule.right = r.get<uint16_t>();
  }
  try {
    return PairGrammar(std::move(rules), block_entries);
  } catch (const std::invalid_argument& e) {
    throw FormatError(path, std::string("header: grammar: ") + e.what());
  }
}

// A block's checksum: the low 32 bits of the XXH3-64 of its bytes.
uint32_t block_checksum(std::span<const uint8_t> block) { return static_cast<uint32_t>(checksum_of(block)); }

// The header of a value file (value_file.hpp) for table header `h`, its size H, the blocks and the
// grammar.
std::vector<uint8_t> encode_value_header(const TableHeader& h, uint32_t block_entries, uint64_t block_count,
                                         uint64_t file_size, const PairGrammar& grammar) {
  std::vector<uint8_t> out(ValueFileMagic.begin(), ValueFileMagic.end());
  ByteWriter w(out);
  const uint64_t g = grammar_offset(h.signature.size());
  const uint64_t h_size = ceil_div(g + 4 + 4 * grammar.rules().size(), 8) * 8;
  w.put(ValueFileVersion);
  w.put(static_cast<uint32_t>(h_size));
  w.put(rules_id(h.rules));
  w.put(h.metrics.bits());
  w.put(h.index_scheme);
  w.put(h.index_version);
  w.put(h.index_order);
  w.put(block_entries);
  w.put(h.entries[0]);
  w.put(h.entries[1]);
  w.put(block_count);
  w.put(file_size);
  w.put(h.checksum);
  w.put_text(h.signature);
  w.pad_to(g);
  w.put(static_cast<uint32_t>(grammar.rules().size()));
  for (const PairRule rule : grammar.rules()) {
    w.put(rule.left);
    w.put(rule.right);
  }
  w.pad_to(h_size);
  return out;
}

}  // namespace

const PairGrammar& no_rules() {
  static const PairGrammar none;
  return none;
}

std::filesystem::path value_file_path(const std::filesystem::path& table_file) {
  std::filesystem::path path = table_file;
  return path.replace_extension(ValueFileExtension);
}

std::vector<uint8_t> encode_value_block(std::span<const uint8_t> values, const PairParser* parser) {
  if (values.empty()) throw std::invalid_argument("encode_value_block: an empty block");
  const std::vector<uint8_t> distinct = distinct_values(values);
  if (distinct.size() == 1) return {distinct[0]};
  std::vector<uint8_t> best;
  const auto consider = [&](std::vector<uint8_t> candidate) {
    if (best.empty() || candidate.size() < best.size()) best = std::move(candidate);
  };
  if (distinct.size() == 2)
    consider(encode_two(values, values[0], values[0] == distinct[0] ? distinct[1] : distinct[0]));
  if (distinct.size() <= 4) consider(encode_four(values, distinct));
  consider(encode_base5(values));
  consider(encode_runs(values));
  if (parser) consider(encode_pairs(parser->parse(values), parser->grammar().symbol_bits()));
  return best;
}

std::optional<std::string> check_value_block(std::span<const uint8_t> block, uint32_t entries,
                                             const PairGrammar& grammar) {
  if (block.empty()) return std::string("an empty block");
  const uint8_t form = block[0];
  if (form <= MaxValue) return check_size(block, 1);
  switch (form) {
    case Runs:
      return block.size() > 1 ? std::nullopt : std::optional<std::string>("a block of runs without a run");
    case Base5: {
      if (auto problem = check_size(block, 1 + ceil_div(entries, 3))) return problem;
      if (std::any_of(block.begin() + 1, block.end(), [](uint8_t b) { return b >= 125; }))
        return std::string("a base-5 byte past 124");
      return std::nullopt;
    }
    case Two: {
      if (auto problem = check_size(block, 2 + ceil_div(entries, 8))) return problem;
      const std::array<uint8_t, 2> pair = {static_cast<uint8_t>(block[1] & 15),
                                           static_cast<uint8_t>(block[1] >> 4)};
      return check_palette(pair);
    }
    case Four: {
      if (auto problem = check_size(block, 5 + ceil_div(entries, 4))) return problem;
      return check_palette(block.subspan(1, 4));
    }
    case Pairs: return finish_pairs(block, entries, grammar, {});
    default: return "unknown block form " + std::to_string(form);
  }
}

uint8_t value_in_block(std::span<const uint8_t> block, uint32_t j, const PairGrammar& grammar) {
  const uint8_t form = block[0];
  if (form <= MaxValue) return form;
  // The fixed-size forms read entry j at one byte; none past the block's end (a block changed
  // since it was checked), where entry j is unreached.
  switch (form) {
    case Base5: {
      const size_t at = 1 + j / 3;
      if (at >= block.size()) return UnreachedValue;
      return static_cast<uint8_t>(block[at] / Powers5[j % 3] % 5);
    }
    case Two: {
      const size_t at = 2 + j / 8;
      if (at >= block.size()) return UnreachedValue;
      return static_cast<uint8_t>((block[at] >> (j % 8) & 1) != 0 ? block[1] >> 4 : block[1] & 15);
    }
    case Four: {
      const size_t at = 5 + j / 4;
      if (at >= block.size()) return UnreachedValue;
      return block[1 + (block[at] >> 2 * (j % 4) & 3)];
    }
    case Pairs: {
      PairWalk walk;
      return pair_value(block.subspan(1), j, grammar, walk);
    }
    default: return run_value(block.data() + 1, block.data() + block.size(), j);
  }
}

Expected<uint8_t, std::string> checked_value_in_block(std::span<const uint8_t> block, uint32_t entries,
                                                      uint32_t j, const PairGrammar& grammar) {
  if (block.empty() || block[0] != Pairs) {
    if (std::optional<std::string> problem = check_value_block(block, entries, grammar))
      return unexpected(std::move(*problem));
    return value_in_block(block, j, grammar);
  }
  PairWalk walk;
  const uint8_t value = pair_value(block.subspan(1), j, grammar, walk);
  std::optional<std::string> problem =
      finish_pairs(block, entries, grammar, value == UnreachedValue ? PairWalk{} : walk);
  if (problem) return unexpected(std::move(*problem));
  return value;
}

ValueFileRecord write_value_file(const std::filesystem::path& table_file, uint32_t block_entries) {
  if (!std::has_single_bit(block_entries) || block_entries > MaxValueBlockEntries)
    throw std::invalid_argument("write_value_file: " + std::to_string(block_entries) +
                                " entries per block, not a power of two up to 2^20");
  const TableReader reader(table_file);
  const TableHeader& h = reader.header();
  if (h.rules == Rules::Lasker && !h.metrics.contains(Metric::Dtm))
    throw FormatError(table_file,
                      "holds stalemates only (built with --metrics dts): it has no value "
                      "of every position to write");
  const PairGrammar grammar = learn_grammar(reader, block_entries);
  const PairParser parser(grammar);
  std::vector<uint8_t> data;
  std::vector<uint32_t> offsets;
  std::vector<uint32_t> sums;
  std::vector<uint16_t> scratch;
  std::vector<uint8_t> values;
  for (const Color stm : {Color::White, Color::Black}) {
    for (uint64_t first = 0; first < reader.entries(stm); first += block_entries) {
      read_value_block(reader, stm, first, block_entries, values, scratch);
      offsets.push_back(static_cast<uint32_t>(data.size()));
      const std::vector<uint8_t> encoded = encode_value_block(values, &parser);
      data.insert(data.end(), encoded.begin(), encoded.end());
      sums.push_back(block_checksum(encoded));
      if (data.size() > UINT32_MAX) throw FormatError(table_file, "its values take more than 4 GiB");
    }
  }
  offsets.push_back(static_cast<uint32_t>(data.size()));
  const uint64_t block_count = offsets.size() - 1;
  const uint64_t h_size = encode_value_header(h, block_entries, block_count, 0, grammar).size();
  const uint64_t file_size =
      h_size + 4 * offsets.size() + BlockChecksumBytes * sums.size() + ChecksumBytes + data.size();
  std::vector<uint8_t> file = encode_value_header(h, block_entries, block_count, file_size, grammar);
  ByteWriter w(file);
  for (uint32_t offset : offsets) w.put(offset);
  for (uint32_t sum : sums) w.put(sum);
  w.put(checksum_of(file));
  file.insert(file.end(), data.begin(), data.end());
  const std::filesystem::path path = value_file_path(table_file);
  write_file_atomically(path, file);
  return {path, h.file_size, file.size()};
}

ValueTable::ValueTable(const std::filesystem::path& path, const TableRequirements& required)
    : path_(path), bytes_(path, MaxValueFileBytes), scheme_(checked(required)) {
  check_offsets();
  checked_blocks_ = std::make_unique<std::atomic<uint64_t>[]>(ceil_div(header_.block_count, 64));
}

Lasker ValueTable::at(Color stm, indexing::Index index) const {
  const uint64_t block = (stm == Color::White ? 0 : white_blocks_) + (index >> block_shift_);
  return static_cast<Lasker>(
      value_of(block, static_cast<uint32_t>(index & ((uint64_t{1} << block_shift_) - 1))));
}

ValueFileContents ValueTable::check_every_block() const {
  ValueFileContents contents;
  contents.grammar_rules = static_cast<uint32_t>(grammar_.rules().size());
  contents.symbol_bits = grammar_.symbol_bits();
  for (uint64_t b = 0; b < header_.block_count; ++b) {
    (void)value_of(b, static_cast<uint32_t>(block_span(header_, b).count - 1));
    uint8_t first = 0;
    const BlockPlace place = read_block(b, [&](std::span<const uint8_t> block) { first = block[0]; });
    const size_t form = value_block_form(first);
    ++contents.blocks[form];
    contents.bytes[form] += place.end - place.begin;
  }
  return contents;
}

uint8_t ValueTable::value_of(uint64_t b, uint32_t j) const {
  uint8_t value = UnreachedValue;
  if ((checked_blocks_[b / 64].load(std::memory_order_acquire) >> (b % 64) & 1) == 0) {
    value = first_value_of(b, j);
  } else {
    (void)read_block(b, [&](std::span<const uint8_t> block) { value = value_in_block(block, j, grammar_); });
  }
  if (value == UnreachedValue)
    throw FormatError(path_,
                      "block " + std::to_string(b) + ": its bytes end before entry " + std::to_string(j));
  // A block checked at its first read reads 0 to 4; past 4, its bytes changed under the mapping.
  if (value > MaxValue)
    throw FormatError(path_, "block " + std::to_string(b) + ": entry " + std::to_string(j) + " reads " +
                                 std::to_string(value) + ", past 4: the file changed since it was opened" +
                                 rewrite_hint(path_));
  return value;
}

ValueTable::BlockPlace ValueTable::place_of(uint64_t b) const {
  BlockPlace place;
  std::memcpy(&place, bytes_.data() + offsets_ + 4 * b, sizeof place);
  if (place.end <= place.begin || place.end > bytes_.size() - data_) place.end = place.begin;
  return place;
}

template <class Read>
ValueTable::BlockPlace ValueTable::read_block(uint64_t b, const Read& read) const {
  BlockPlace place;
  if (!bytes_.guarded([&] {
        place = place_of(b);
        if (place.end != place.begin)
          read(bytes_.bytes().subspan(data_ + place.begin, place.end - place.begin));
      }))
    cut_short("block " + std::to_string(b));
  if (place.end == place.begin)
    throw FormatError(path_, "block " + std::to_string(b) +
                                 ": the block index no longer places it inside the data: the file changed "
                                 "since it was opened" +
                                 rewrite_hint(path_));
  return place;
}

void ValueTable::cut_short(const std::string& what) const {
  throw IoError(path_,
                "cannot read " + what +
                    ": the file was cut short since it was opened (rewritten in place? replace a value "
                    "file by renaming a new one over it; " +
                    rewrite_values_hint(path_) + ")");
}

indexing::IndexScheme ValueTable::checked(const TableRequirements& required) {
  std::vector<uint8_t> fixed(std::min<uint64_t>(bytes_.size(), FixedValueHeaderBytes));
  if (!bytes_.copy(0, fixed)) cut_short("its header");
  if (bytes_.size() < FixedValueHeaderBytes + ChecksumBytes ||
      !std::equal(ValueFileMagic.begin(), ValueFileMagic.end(), fixed.begin()))
    throw FormatError(path_, "not a value file (no value file magic \\x89EGTV\\r\\n\\x1a at its start)");
  uint32_t version = 0;
  uint32_t h_size = 0;
  std::memcpy(&version, fixed.data() + 8, sizeof version);
  std::memcpy(&h_size, fixed.data() + 12, sizeof h_size);
  if (version != ValueFileVersion)
    throw FormatError(path_, "value file version " + std::to_string(version) +
                                 ", this program reads version " + std::to_string(ValueFileVersion) +
                                 rewrite_hint(path_));
  const std::vector<uint8_t> header = place_index(h_size, fixed);
  ByteReader r(header, path_);
  r.get<uint64_t>();  // the magic, the version and H, read above
  r.get<uint32_t>();
  r.get<uint32_t>();
  header_.rules = header_rules(r.get<uint32_t>(), path_);
  header_.metrics = header_metrics(r.get<uint32_t>(), header_.rules, path_);
  header_.index_scheme = r.get<uint32_t>();
  header_.index_version = r.get<uint32_t>();
  header_.index_order = r.get<uint32_t>();
  header_.block_entries = r.get<uint32_t>();
  header_.entries = {r.get<uint64_t>(), r.get<uint64_t>()};
  header_.block_count = r.get<uint64_t>();
  header_.file_size = r.get<uint64_t>();
  table_checksum_ = r.get<uint64_t>();
  header_.signature = r.get_text();
  const uint32_t v = header_.block_entries;
  if (!std::has_single_bit(v) || v > MaxValueBlockEntries)
    throw FormatError(path_,
                      "header: " + std::to_string(v) + " entries per block, not a power of two up to 2^20");
  grammar_ = read_grammar(r, header_.signature.size(), h_size, v, path_);
  block_shift_ = std::countr_zero(v);
  white_blocks_ = ceil_div(header_.entries[0], v);
  if (header_.block_count != white_blocks_ + ceil_div(header_.entries[1], v))
    throw FormatError(path_, "header: " + std::to_string(header_.block_count) + " blocks for " +
                                 std::to_string(header_.entries[0]) + " and " +
                                 std::to_string(header_.entries[1]) + " entries");
  return usable_scheme(header_, path_, required);
}

std::vector<uint8_t> ValueTable::place_index(uint32_t h_size, std::span<const uint8_t> fixed) {
  const uint64_t size = bytes_.size();
  uint64_t file_size = 0;
  uint64_t blocks = 0;
  std::memcpy(&file_size, fixed.data() + FileSizeOffset, sizeof file_size);
  std::memcpy(&blocks, fixed.data() + BlockCountOffset, sizeof blocks);
  if (file_size != size)
    throw FormatError(path_, std::to_string(size) + " bytes, the header says " + std::to_string(file_size) +
                                 ": cut short or damaged" + rewrite_hint(path_));
  // Each block takes 8 bytes of the index and at least one of the data.
  if (h_size % 8 != 0 || h_size < FixedValueHeaderBytes || blocks > size / 9 ||
      h_size + 9 * blocks + 4 + ChecksumBytes > size)
    throw FormatError(path_, "header: its size " + std::to_string(h_size) + " leaves no room for " +
                                 std::to_string(blocks) + " blocks");
  offsets_ = h_size;
  sums_ = offsets_ + 4 * (blocks + 1);
  data_ = sums_ + BlockChecksumBytes * blocks + ChecksumBytes;
  // The header is parsed from its copy, so the checksum covers that copy and the index as it is in
  // the mapping.
  std::vector<uint8_t> header(h_size);
  uint64_t stored = 0;
  uint64_t actual = 0;
  if (!bytes_.copy(0, header) || !bytes_.guarded([&] {
        std::memcpy(&stored, bytes_.data() + data_ - ChecksumBytes, ChecksumBytes);
        actual = checksum_of(header, bytes_.bytes().subspan(h_size, data_ - ChecksumBytes - h_size));
      }))
    cut_short("its header and block index");
  if (stored != actual)
    throw FormatError(path_, "checksum mismatch: the header or block index is damaged" + rewrite_hint(path_));
  return header;
}

void ValueTable::check_offsets() const {
  const uint64_t data_size = bytes_.size() - data_;
  const uint64_t blocks = header_.block_count;
  uint32_t first = 0;
  uint32_t last = 0;
  uint64_t bad = blocks;  // the first block not after the one before
  if (!bytes_.guarded([&] {
        const uint8_t* offsets = bytes_.data() + offsets_;
        std::memcpy(&first, offsets, sizeof first);
        std::memcpy(&last, offsets + 4 * blocks, sizeof last);
        for (uint64_t b = 0; b < blocks && bad == blocks; ++b) {
          const BlockPlace place = place_of(b);
          if (place.end == place.begin) bad = b;
        }
      }))
    cut_short("its block index");
  if (first != 0 || last != data_size)
    throw FormatError(path_, "block offsets do not span the data's " + std::to_string(data_size) + " bytes");
  if (bad < blocks)
    throw FormatError(path_, "block " + std::to_string(bad) + ": an empty or overlapping block");
}

uint8_t ValueTable::first_value_of(uint64_t b, uint32_t j) const {
  // The writer keeps a block's smallest form, so it takes at most base 5's 1 + ceil(V / 3) bytes:
  // 343 for the default 1,024 entries, 1,367 for 4,096. A bigger block (V past 24,573, or a
  // tampered file) is copied to the heap.
  std::array<uint8_t, 8192> small;
  std::vector<uint8_t> large;
  uint32_t stored = 0;
  const BlockPlace place = read_block(b, [&](std::span<const uint8_t> block) {
    std::memcpy(&stored, bytes_.data() + sums_ + BlockChecksumBytes * b, sizeof stored);
    if (block.size() <= small.size()) std::memcpy(small.data(), block.data(), block.size());
  });
  const uint32_t size = place.end - place.begin;
  std::span<uint8_t> copy = std::span(small).first(std::min<size_t>(size, small.size()));
  if (size > small.size()) {  // allocated outside the guard (MappedFile::guarded), then copied
    large.resize(size);
    copy = large;
    if (!bytes_.copy(data_ + place.begin, copy)) cut_short("block " + std::to_string(b));
  }
  if (stored != block_checksum(copy))
    throw FormatError(path_, "block " + std::to_string(b) + ": checksum mismatch: the block is damaged" +
                                 rewrite_hint(path_));
  const Expected<uint8_t, std::string> value =
      checked_value_in_block(copy, static_cast<uint32_t>(block_span(header_, b).count), j, grammar_);
  if (!value) throw FormatError(path_, "block " + std::to_string(b) + ": " + value.error());
  checked_blocks_[b / 64].fetch_or(uint64_t{1} << (b % 64), std::memory_order_release);
  return *value;
}

}  // namespace egtb
