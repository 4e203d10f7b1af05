#include "query/transform.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <string_view>

namespace egtb::query {

namespace {

Square map_square(const TransformStep& step, Square s) {
  const Square t = apply(step.symmetry, s);
  const int f = file_of(t) + step.dx;
  const int r = rank_of(t) + step.dy;
  return f < 0 || f > 7 || r < 0 || r > 7 ? Square::None : make_square(f, r);
}

int direction_index(int df, int dr) {
  for (int d = 0; d < 8; ++d)
    if (DirectionSteps[static_cast<size_t>(d)][0] == df && DirectionSteps[static_cast<size_t>(d)][1] == dr)
      return d;
  return 0;
}

// A step of (df, dr) turned 45 degrees anticlockwise: east (1, 0) to northeast (1, 1), northeast
// to north (0, 1), ...
void turn_45(int& df, int& dr) {
  const int f = df - dr, r = df + dr;
  df = (f > 0) - (f < 0);
  dr = (r > 0) - (r < 0);
}

DirectionSet map_directions(const TransformStep& step, DirectionSet set) {
  DirectionSet out = 0;
  const int bits = to_index(step.symmetry);
  for (int d = 0; d < 8; ++d) {
    if (!(set & (1 << d))) continue;
    int df = DirectionSteps[static_cast<size_t>(d)][0];
    int dr = DirectionSteps[static_cast<size_t>(d)][1];
    if (bits & 4) std::swap(df, dr);
    if (bits & 1) df = -df;
    if (bits & 2) dr = -dr;
    for (int k = 0; k < step.eighths; ++k) turn_45(df, dr);
    out = static_cast<DirectionSet>(out | (1 << direction_index(df, dr)));
  }
  return out;
}

}  // namespace

SquareTransform SquareTransform::after(const TransformStep& step) const {
  SquareTransform t;
  t.steps_.push_back(step);
  t.steps_.insert(t.steps_.end(), steps_.begin(), steps_.end());
  return t;
}

Bitboard SquareTransform::squares(Bitboard b) const {
  if (b == AllSquares) return b;
  for (const TransformStep& step : steps_) {
    Bitboard out = 0;
    while (b) {
      const Square s = map_square(step, pop_lsb(b));
      if (s != Square::None) out |= square_bb(s);
    }
    b = out;
  }
  return b;
}

PieceMask SquareTransform::pieces(PieceMask m) const {
  if (!swaps_colors()) return m;
  return static_cast<PieceMask>(((m & WhiteMen) << 8) | ((m & BlackMen) >> 8) | (m & EmptyBit));
}

DirectionSet SquareTransform::directions(DirectionSet d) const {
  for (const TransformStep& step : steps_) d = map_directions(step, d);
  return d;
}

bool SquareTransform::swaps_colors() const {
  bool swapped = false;
  for (const TransformStep& step : steps_) swapped ^= step.colors;
  return swapped;
}

bool SquareTransform::turns_45() const {
  return std::any_of(steps_.begin(), steps_.end(),
                     [](const TransformStep& step) { return step.eighths != 0; });
}

bool SquareTransform::swaps_square_colors() const {
  int flips = 0;
  for (const TransformStep& step : steps_)
    flips += popcount(static_cast<Bitboard>(to_index(step.symmetry) & 3)) + step.dx + step.dy;
  return (flips & 1) != 0;
}

namespace {

// CQL's words for one step (its Transform::toString): the board symmetries as its
// DihedralTransform names them, a colour swap "invertcolor" before its symmetry (flipcolor is
// CQL's invertcolor after reflect_h), a shift "right^2 down^1", a turn "rotate45^3".
std::string step_text(const TransformStep& step) {
  static constexpr std::array<std::string_view, SymmetryCount> Symmetries = {"",
                                                                             "reflect_v",
                                                                             "reflect_h",
                                                                             "rotate180",
                                                                             "reflect_a1h8",
                                                                             "counterclockwise90",
                                                                             "clockwise90",
                                                                             "reflect_a8h1"};
  std::vector<std::string> words;
  if (step.colors) words.emplace_back("invertcolor");
  if (step.symmetry != Symmetry::Identity)
    words.emplace_back(Symmetries[static_cast<size_t>(to_index(step.symmetry))]);
  if (step.dx) words.push_back((step.dx > 0 ? "right^" : "left^") + std::to_string(std::abs(step.dx)));
  if (step.dy) words.push_back((step.dy > 0 ? "up^" : "down^") + std::to_string(std::abs(step.dy)));
  if (step.eighths) words.push_back("rotate45^" + std::to_string(step.eighths));
  std::string text;
  for (const std::string& w : words) text += (text.empty() ? "" : " ") + w;
  return text;
}

}  // namespace

std::string SquareTransform::cql_text() const {
  std::string text;
  for (auto step = steps_.rbegin(); step != steps_.rend(); ++step) {
    const std::string words = step_text(*step);
    if (!words.empty()) text += (text.empty() ? "" : " ") + words;
  }
  return "<" + text + ">";
}

std::vector<TransformStep> transform_family(Transform transform) {
  std::vector<TransformStep> steps;
  if (transform != Transform::ReverseColor) steps.push_back({});
  int shift_files = 0, shift_ranks = 0;  // the largest shift in each direction
  switch (transform) {
    case Transform::FlipColor:
    case Transform::ReverseColor: steps.push_back({Symmetry::FlipRanks, true, 0, 0}); break;
    case Transform::Flip:
      for (Symmetry s : AllSymmetries)
        if (s != Symmetry::Identity) steps.push_back({s, false, 0, 0});
      break;
    case Transform::FlipVertical: steps.push_back({Symmetry::FlipFiles, false, 0, 0}); break;
    case Transform::FlipHorizontal: steps.push_back({Symmetry::FlipRanks, false, 0, 0}); break;
    case Transform::Rotate90:
      for (Symmetry s : {Symmetry::RotateLeft, Symmetry::Rotate180, Symmetry::RotateRight})
        steps.push_back({s, false, 0, 0});
      break;
    case Transform::Rotate45:
      for (int eighths = 1; eighths < 8; ++eighths) steps.push_back({.eighths = eighths});
      break;
    case Transform::Shift: shift_files = shift_ranks = 7; break;
    case Transform::ShiftHorizontal: shift_files = 7; break;
    case Transform::ShiftVertical: shift_ranks = 7; break;
  }
  for (int dx = -shift_files; dx <= shift_files; ++dx)
    for (int dy = -shift_ranks; dy <= shift_ranks; ++dy)
      if (dx || dy) steps.push_back({Symmetry::Identity, false, dx, dy});
  return steps;
}

}  // namespace egtb::query
