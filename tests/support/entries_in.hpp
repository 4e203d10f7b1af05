// A table's entries in another index scheme of its material (another order of the index digits,
// or layout version 1), for tests that write a table's file in an order the writer would not
// choose.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "egtb/store/table.hpp"
#include "indexing/index.hpp"

namespace egtb::test {

// Per side to move (White, Black), entry j holds the score `table` has for the position entry j
// of `scheme` places. Example: KRPk in the order "P Kk R" from a table in "Kk R P".
inline std::array<std::vector<uint16_t>, 2> entries_in(const Table& table,
                                                       const indexing::IndexScheme& scheme) {
  std::array<std::vector<uint16_t>, 2> sides;
  for (Color c : {Color::White, Color::Black})
    for (indexing::Index j = 0; j < scheme.size(); ++j)
      sides[static_cast<size_t>(to_index(c))].push_back(
          table.at(c, scheme.entry_in(table.scheme(), j)).raw());
  return sides;
}

}  // namespace egtb::test
