// Table: the scores of one material signature held in memory, one raw 16-bit Score per index
// entry and side to move. The solver fills one and writes it (writer.hpp); load_table (reader.hpp)
// reads a whole file back into one, e.g. a subtable the solver probes billions of times.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "egtb/core/material.hpp"
#include "egtb/core/types.hpp"
#include "egtb/store/score.hpp"
#include "egtb/store/table_stats.hpp"
#include "indexing/index.hpp"

namespace egtb {

// "egtb 0.1.0": the generator version written into new files.
[[nodiscard]] std::string generator_version();

class Table {
public:
  // A table of `entries` entries per side to move, every one Score::unknown().
  Table(const Material& material, indexing::Index entries, Metrics metrics = {},
        std::string generator = generator_version());
  // A table sized for a scheme's material and entries.
  explicit Table(const indexing::IndexScheme& scheme, Metrics metrics = {});

  [[nodiscard]] const Material& material() const { return material_; }
  [[nodiscard]] std::string signature() const { return material_.str(); }
  [[nodiscard]] Metrics metrics() const { return metrics_; }
  [[nodiscard]] const std::string& generator() const { return generator_; }
  // Entries per side to move.
  [[nodiscard]] indexing::Index size() const { return size_; }

  [[nodiscard]] Score at(Color stm, indexing::Index i) const { return Score::from_raw(side(stm)[i]); }
  void set(Color stm, indexing::Index i, Score s) { side(stm)[i] = s.raw(); }

  // The raw scores of one side to move, for bulk work.
  [[nodiscard]] std::span<uint16_t> raw(Color stm) { return side(stm); }
  [[nodiscard]] std::span<const uint16_t> raw(Color stm) const { return side(stm); }

  // Counts of each value and the deepest DTM and DTS of one side to move (computed on each call).
  [[nodiscard]] SideStats stats(Color stm) const { return compute_stats(raw(stm)); }

private:
  Material material_;
  Metrics metrics_;
  std::string generator_;
  indexing::Index size_;
  std::array<std::vector<uint16_t>, 2> entries_;

  [[nodiscard]] std::vector<uint16_t>& side(Color c) { return entries_[static_cast<size_t>(to_index(c))]; }
  [[nodiscard]] const std::vector<uint16_t>& side(Color c) const {
    return entries_[static_cast<size_t>(to_index(c))];
  }
};

}  // namespace egtb
