// Signatures of more men than this build generates (Material::MaxMen), for the tests of the index
// sizes and positions of 6- and 7-man tables.
#pragma once

#include <stdexcept>
#include <string_view>

#include "egtb/core/material.hpp"
#include "indexing/index.hpp"

namespace egtb::test {

// The signature `text` of up to indexing::MaxIndexMen men ("KRPPkrp").
inline Material wide_material(std::string_view text) {
  const auto m = Material::parse(text, indexing::MaxIndexMen);
  if (!m) throw std::invalid_argument(m.error());
  return *m;
}

}  // namespace egtb::test
