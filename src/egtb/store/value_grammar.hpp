// Pair grammars of Lasker values, for the value files' block form Pairs (value_file.hpp): a block is
// stored as a sequence of symbols, each standing for a string of values that its file's grammar
// gives, so that a pattern of values met all over a table (the same row of a man's squares in
// many king placements) is written once in the grammar and then a few bits at each place.
//
// Symbols 0 to 4 are the values themselves. Symbol 5 + r is rule r, a pair (left, right) of
// symbols below 5 + r, standing for left's values followed by right's; so every symbol expands to
// a string, and the expansion ends. A file's rules are learnt from its values (learn): the most
// frequent pairs of neighbouring symbols within a block become rules and replace their
// occurrences, PairsPerPass pairs at a time, until no pair occurs MinPairCount times or MaxRules
// rules are made, so symbols stay below 4,096 (12 bits). A block is then parsed greedily
// (PairParser): each symbol the longest whose values begin where the last symbol's ended.
//
// Worked example: rules (4, 4) -> symbol 5 = "44", (5, 5) -> symbol 6 = "4444" and (6, 2) ->
// symbol 7 = "44442". The values 4 4 4 4 2 4 4 0 parse as 7 5 0: the longest match at entry 0 is
// symbol 7's "44442", at entry 5 symbol 5's "44", at entry 7 "0". With symbols below 8 each takes
// 3 bits (symbol_bits). Entry 6 lies in symbol 5, which covers entries 5 and 6, at its offset 1:
// symbol 5's left (4) covers offset 0 and its right (4) offset 1, so entry 6 holds 4 (value_at).
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <span>
#include <vector>

namespace egtb {

struct PairRule {
  uint16_t left = 0;
  uint16_t right = 0;
  friend bool operator==(const PairRule&, const PairRule&) = default;
};

class PairGrammar {
public:
  // Symbols 0 to 4: the values.
  static constexpr uint32_t Values = 5;
  // Rules at most: symbols below 4,096.
  static constexpr uint32_t MaxRules = 4096 - Values;
  // A pair becomes a rule when it occurs this often in a pass.
  static constexpr uint32_t MinPairCount = 16;
  // Pairs made rules in each pass over the blocks.
  static constexpr uint32_t PairsPerPass = 64;
  // A rule learnt stands for this many values at most (a longer run takes several symbols).
  static constexpr uint32_t MaxLearntLength = 4096;

  // The grammar without rules: symbols are values.
  PairGrammar();
  // The grammar of `rules`. Throws std::invalid_argument naming the first rule that refers to a
  // symbol not below its own, or that stands for more than max_length values.
  PairGrammar(std::vector<PairRule> rules, uint64_t max_length);

  // The rules learnt from blocks of values (each 0 to 4; a rule never spans two blocks). The
  // result depends on the blocks alone.
  [[nodiscard]] static PairGrammar learn(std::span<const std::vector<uint8_t>> blocks);

  [[nodiscard]] std::span<const PairRule> rules() const { return rules_; }
  [[nodiscard]] uint32_t symbol_count() const { return symbol_count_; }
  // The bits a symbol takes in a block: enough for symbol_count() - 1 (3 without rules).
  [[nodiscard]] int symbol_bits() const { return std::countr_zero(lengths_.size()); }
  // How many values the symbol stands for; symbol below symbol_count().
  [[nodiscard]] uint32_t length(uint32_t symbol) const { return lengths_[symbol]; }
  // The length of every symbol_bits()-bit number, UnknownLength past the grammar's symbols: a
  // reader adds the lengths of a block's symbols without asking whether each is known, and an
  // unknown one takes it past any entry of a block (MaxValueBlockEntries, value_file.hpp, is 2^20).
  // Example: without rules, symbols of 3 bits, lengths 1 1 1 1 1 and UnknownLength for 5 to 7.
  [[nodiscard]] std::span<const uint32_t> padded_lengths() const { return lengths_; }
  static constexpr uint32_t UnknownLength = 1u << 31;
  // Value `offset` of the symbol's string, offset below length(symbol).
  [[nodiscard]] uint8_t value_at(uint32_t symbol, uint32_t offset) const;
  // The symbol's string of values.
  [[nodiscard]] std::vector<uint8_t> expand(uint32_t symbol) const;

private:
  std::vector<PairRule> rules_;
  uint32_t symbol_count_ = Values;
  std::vector<uint32_t> lengths_ = std::vector<uint32_t>(Values, 1);  // padded_lengths()

  // What value_at reads of a symbol: a short one's values, 3 bits each, the first lowest, in an
  // integer whose top bit is clear; a longer one's top bit set, and its rule's two symbols and the
  // length of the left one. Example: rule (4, 4), symbol 5 = "44", is 4 | 4 << 3 = 36; a rule of
  // 40 values, (7, 9) with symbol 7 of 5 values, is 2^63 | 7 | 9 << 16 | 5 << 32.
  static constexpr uint32_t ShortLength = 21;  // values in 63 bits
  static constexpr uint64_t LongSymbol = uint64_t{1} << 63;
  std::vector<uint64_t> reads_;

  // Sets symbol_count_ from the lengths of the symbols, pads lengths_ to 2^symbol_bits() entries,
  // and makes reads_.
  void prepare_reading();
};

// Parses blocks of values into a grammar's symbols, greedily: from each entry the longest symbol
// whose string the values there begin with (a walk down a trie of every symbol's string).
class PairParser {
public:
  explicit PairParser(const PairGrammar& grammar);

  [[nodiscard]] const PairGrammar& grammar() const { return grammar_; }
  // The symbols of `values` (each 0 to 4), whose strings laid end to end are the values.
  [[nodiscard]] std::vector<uint16_t> parse(std::span<const uint8_t> values) const;

private:
  // A trie node: the node after each next value (0: none; the root is node 0, no one's child),
  // and the symbol whose string ends here, or -1.
  struct Node {
    std::array<uint32_t, PairGrammar::Values> next{};
    int32_t symbol = -1;
  };
  const PairGrammar& grammar_;
  std::vector<Node> nodes_;
};

}  // namespace egtb
