#include "egtb/store/value_grammar.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <string>
#include <unordered_map>

namespace egtb {

namespace {

using Sequence = std::vector<uint16_t>;

uint32_t pair_key(uint32_t left, uint32_t right, uint32_t symbols) { return left * symbols + right; }

// Counts how often each pair of neighbouring symbols occurs in the sequences, counted without overlaps
// (a run a a a holds one pair a a), among pairs that stand for MaxLearntLength values at most.
void count_pairs(const std::vector<Sequence>& sequences, const std::vector<uint32_t>& lengths,
                 std::vector<uint32_t>& counts) {
  const auto symbols = static_cast<uint32_t>(lengths.size());
  counts.assign(size_t{symbols} * symbols, 0);
  for (const Sequence& s : sequences) {
    bool counted_before = false;  // the pair ending at s[i] was counted
    for (size_t i = 0; i + 1 < s.size(); ++i) {
      const bool overlaps = counted_before && s[i - 1] == s[i] && s[i] == s[i + 1];
      counted_before = !overlaps && lengths[s[i]] + lengths[s[i + 1]] <= PairGrammar::MaxLearntLength;
      if (counted_before) ++counts[pair_key(s[i], s[i + 1], symbols)];
    }
  }
}

// The keys of up to `most` pairs counted at least MinPairCount times, the most frequent first (the
// smaller key first among equals).
std::vector<uint32_t> most_frequent(const std::vector<uint32_t>& counts, size_t most) {
  std::vector<uint32_t> keys;
  for (uint32_t k = 0; k < counts.size(); ++k)
    if (counts[k] >= PairGrammar::MinPairCount) keys.push_back(k);
  const auto before = [&](uint32_t a, uint32_t b) {
    return counts[a] != counts[b] ? counts[a] > counts[b] : a < b;
  };
  const size_t n = std::min(most, keys.size());
  std::partial_sort(keys.begin(), keys.begin() + static_cast<std::ptrdiff_t>(n), keys.end(), before);
  keys.resize(n);
  return keys;
}

// Replaces, left to right, each occurrence of a pair in `symbol_of` by its symbol.
void replace_pairs(std::vector<Sequence>& sequences, const std::unordered_map<uint32_t, uint16_t>& symbol_of,
                   const std::vector<bool>& leads, uint32_t symbols) {
  for (Sequence& s : sequences) {
    size_t out = 0;
    for (size_t i = 0; i < s.size();) {
      if (i + 1 < s.size() && leads[s[i]]) {
        const auto found = symbol_of.find(pair_key(s[i], s[i + 1], symbols));
        if (found != symbol_of.end()) {
          s[out++] = found->second;
          i += 2;
          continue;
        }
      }
      s[out++] = s[i++];
    }
    s.resize(out);
  }
}

}  // namespace

PairGrammar::PairGrammar(std::vector<PairRule> rules, uint64_t max_length) : rules_(std::move(rules)) {
  if (rules_.size() > MaxRules)
    throw std::invalid_argument(std::to_string(rules_.size()) + " rules, more than " +
                                std::to_string(MaxRules));
  lengths_.reserve(std::bit_ceil(Values + rules_.size()));
  for (size_t r = 0; r < rules_.size(); ++r) {
    const auto symbol = static_cast<uint32_t>(Values + r);
    const PairRule rule = rules_[r];
    if (rule.left >= symbol || rule.right >= symbol)
      throw std::invalid_argument("rule " + std::to_string(r) + " (symbol " + std::to_string(symbol) +
                                  ") refers to symbol " + std::to_string(std::max(rule.left, rule.right)) +
                                  ", not below its own");
    const uint64_t length = uint64_t{lengths_[rule.left]} + lengths_[rule.right];
    if (length > max_length)
      throw std::invalid_argument("rule " + std::to_string(r) + " stands for " + std::to_string(length) +
                                  " values, more than a block's " + std::to_string(max_length));
    lengths_.push_back(static_cast<uint32_t>(length));
  }
  prepare_reading();
}

PairGrammar::PairGrammar() { prepare_reading(); }

void PairGrammar::prepare_reading() {
  symbol_count_ = static_cast<uint32_t>(lengths_.size());
  lengths_.resize(std::bit_ceil(size_t{symbol_count_}), UnknownLength);
  reads_.clear();
  reads_.reserve(symbol_count_);
  for (uint32_t v = 0; v < Values; ++v) reads_.push_back(v);
  for (const PairRule rule : rules_) {
    const uint32_t left = lengths_[rule.left];
    reads_.push_back(left + lengths_[rule.right] <= ShortLength
                         ? reads_[rule.left] | reads_[rule.right] << (3 * left)
                         : LongSymbol | rule.left | uint64_t{rule.right} << 16 | uint64_t{left} << 32);
  }
}

PairGrammar PairGrammar::learn(std::span<const std::vector<uint8_t>> blocks) {
  std::vector<Sequence> sequences;
  sequences.reserve(blocks.size());
  for (const std::vector<uint8_t>& b : blocks) sequences.emplace_back(b.begin(), b.end());
  std::vector<PairRule> rules;
  std::vector<uint32_t> lengths(Values, 1);
  std::vector<uint32_t> counts;
  counts.reserve(size_t{Values + MaxRules} * (Values + MaxRules));
  while (rules.size() < MaxRules) {
    const auto symbols = static_cast<uint32_t>(lengths.size());
    count_pairs(sequences, lengths, counts);
    const std::vector<uint32_t> chosen =
        most_frequent(counts, std::min<size_t>(PairsPerPass, MaxRules - rules.size()));
    if (chosen.empty()) break;
    std::unordered_map<uint32_t, uint16_t> symbol_of;
    std::vector<bool> leads(symbols);
    for (const uint32_t key : chosen) {
      const PairRule rule{static_cast<uint16_t>(key / symbols), static_cast<uint16_t>(key % symbols)};
      symbol_of.emplace(key, static_cast<uint16_t>(lengths.size()));
      leads[rule.left] = true;
      rules.push_back(rule);
      lengths.push_back(lengths[rule.left] + lengths[rule.right]);
    }
    replace_pairs(sequences, symbol_of, leads, symbols);
  }
  return PairGrammar(std::move(rules), MaxLearntLength);
}

uint8_t PairGrammar::value_at(uint32_t symbol, uint32_t offset) const {
  uint64_t read = reads_[symbol];
  while ((read & LongSymbol) != 0) {
    const auto left = static_cast<uint32_t>(read >> 32 & 0x7fffffff);
    if (offset < left) {
      read = reads_[read & 0xffff];
    } else {
      offset -= left;
      read = reads_[read >> 16 & 0xffff];
    }
  }
  return static_cast<uint8_t>(read >> (3 * offset) & 7);
}

std::vector<uint8_t> PairGrammar::expand(uint32_t symbol) const {
  std::vector<uint8_t> values(lengths_[symbol]);
  for (uint32_t k = 0; k < values.size(); ++k) values[k] = value_at(symbol, k);
  return values;
}

PairParser::PairParser(const PairGrammar& grammar) : grammar_(grammar), nodes_(1) {
  for (uint32_t symbol = 0; symbol < grammar.symbol_count(); ++symbol) {
    uint32_t node = 0;
    for (const uint8_t v : grammar.expand(symbol)) {
      if (nodes_[node].next[v] == 0) {
        nodes_[node].next[v] = static_cast<uint32_t>(nodes_.size());
        nodes_.emplace_back();
      }
      node = nodes_[node].next[v];
    }
    nodes_[node].symbol = static_cast<int32_t>(symbol);
  }
}

std::vector<uint16_t> PairParser::parse(std::span<const uint8_t> values) const {
  std::vector<uint16_t> symbols;
  for (size_t i = 0; i < values.size();) {
    uint32_t node = 0;
    int32_t longest = -1;
    size_t length = 0;
    for (size_t k = i;
         k < values.size() && values[k] < PairGrammar::Values && nodes_[node].next[values[k]] != 0;) {
      node = nodes_[node].next[values[k++]];
      if (nodes_[node].symbol >= 0) {
        longest = nodes_[node].symbol;
        length = k - i;
      }
    }
    if (longest < 0) throw std::invalid_argument("PairParser: a value past 4");
    symbols.push_back(static_cast<uint16_t>(longest));
    i += length;
  }
  return symbols;
}

}  // namespace egtb
