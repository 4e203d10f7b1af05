// Independent helpers for the indexing tests: legality as docs/design.md §3 defines it, symmetric
// images, and enumeration of every physical position of a material signature.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <string_view>

#include "egtb/core/material.hpp"
#include "egtb/core/position.hpp"

namespace egtb::test {

// The signature `text`; the test fails when it does not parse.
Material material(std::string_view text);

// Kings not touching, the side not to move not in check, no pawn on rank 1 or 8 (the article's
// legality; men never share a square in a Position).
bool is_legal(const Position& pos);

// True when some board symmetry (only Identity and FlipFiles with pawns) maps `a` onto `b`,
// e.p. rights included.
bool is_image(const Position& a, const Position& b);

// True when `pos` is the smallest of its symmetric images (one per class of symmetric positions).
bool is_class_representative(const Position& pos);

// Calls f for every legal position of the material with the side to move `stm`: every placement,
// and with pawns of both colours also every placement with each possible e.p. right (a legal e.p.
// capture, the squares the pawn crossed empty).
void for_each_physical(const Material& m, Color stm, const std::function<void(const Position&)>& f);

// A random legal position of the material with the side to move `stm`, with an e.p. right half of
// the times one is possible; nothing when the random placement is not legal.
std::optional<Position> random_position(const Material& m, Color stm, std::mt19937_64& rng);

// Collects failures without a Catch2 assertion per position: the count and the first message.
struct Failures {
  uint64_t count = 0;
  std::string first;

  void add(const std::string& message) {
    if (count++ == 0) first = message;
  }
};

}  // namespace egtb::test
