// Signatures of more men than this build generates (Material::MaxMen), for the tests of the index
// sizes and positions of 6- and 7-man tables, which Material::parse refuses.
#pragma once

#include <string_view>

#include "egtb/core/material.hpp"

namespace egtb::test {

// The signature `text` of any number of men, written as Material::str() writes it ("KRPPkrp").
inline Material wide_material(std::string_view text) {
  Material m;
  for (char ch : text) {
    if (ch == 'K' || ch == 'k') continue;
    const Color c = ch >= 'a' ? Color::Black : Color::White;
    const char upper = ch >= 'a' ? static_cast<char>(ch - 'a' + 'A') : ch;
    const PieceType pt = upper == 'Q'   ? PieceType::Queen
                         : upper == 'R' ? PieceType::Rook
                         : upper == 'B' ? PieceType::Bishop
                         : upper == 'N' ? PieceType::Knight
                                        : PieceType::Pawn;
    m = m.with_added(c, pt);
  }
  return m;
}

}  // namespace egtb::test
