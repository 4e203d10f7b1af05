#include "query/reachable.hpp"

#include <vector>

#include "egtb/core/fen.hpp"
#include "egtb/core/unmovegen.hpp"

namespace egtb::query {

namespace {

constexpr Bitboard DarkSquares = 0xAA55AA55AA55AA55ULL;

std::string color_name(Color c) { return c == Color::White ? "White" : "Black"; }

bool is_start_placement(const Position& pos) {
  static const Position start = *parse_fen(StartFen);
  for (int i = 0; i < SquareCount; ++i)
    if (pos.piece_on(square_at(i)) != start.piece_on(square_at(i))) return false;
  return true;
}

// Promotions the officers of colour c imply beyond the original Q, 2R, 2N, light B, dark B.
int implied_promotions(const Position& pos, Color c) {
  auto extra = [](int have, int original) { return have > original ? have - original : 0; };
  const Bitboard bishops = pos.pieces(c, PieceType::Bishop);
  return extra(pos.count(c, PieceType::Queen), 1) + extra(pos.count(c, PieceType::Rook), 2) +
         extra(pos.count(c, PieceType::Knight), 2) + extra(popcount(bishops & DarkSquares), 1) +
         extra(popcount(bishops & ~DarkSquares), 1);
}

std::optional<std::string> impossible_material(const Position& pos) {
  for (Color c : {Color::White, Color::Black}) {
    const int needed = implied_promotions(pos, c);
    const int possible = 8 - pos.count(c, PieceType::Pawn);
    if (needed > possible)
      return "Position implies " + std::to_string(needed) + " " + color_name(c) +
             " Pawn promotion(s) but only " + std::to_string(possible) + " promotion(s) are possible";
  }
  return std::nullopt;
}

// A chain of `depth` legal predecessors exists (or one reaching the start position).
bool has_history(const Position& pos, int depth, std::vector<std::vector<Unmove>>& scratch) {
  if (depth == 0 || is_start_placement(pos)) return true;
  std::vector<Unmove>& unmoves = scratch[static_cast<size_t>(depth - 1)];
  unmoves.clear();
  UnmoveOptions options;
  options.uncaptures = CapturableTypes;
  options.unpromotions = true;
  options.ep_uncaptures = true;
  generate_unmoves(pos, options, unmoves);
  for (size_t i = 0; i < unmoves.size(); ++i)
    if (has_history(unmoves[i].before, depth - 1, scratch)) return true;
  return false;
}

}  // namespace

std::optional<std::string> illegality(const Position& pos) {
  if (auto reason = validate(pos)) return reason;
  if (is_start_placement(pos) && pos.side_to_move() == Color::Black)
    return std::string("Black to move in starting position");
  return std::nullopt;
}

std::optional<std::string> unreachability(const Position& pos, int depth) {
  if (auto reason = illegality(pos)) return reason;
  if (auto reason = impossible_material(pos)) return reason;
  Position bare = pos;
  bare.set_castling_rights(0);
  std::vector<std::vector<Unmove>> scratch(static_cast<size_t>(depth));
  if (has_history(bare, 1, scratch)) {
    if (has_history(bare, depth, scratch)) return std::nullopt;
    return "No legal sequence of " + std::to_string(depth) + " last moves";
  }
  const Color mover = ~pos.side_to_move();
  if (pos.in_check()) return "Impossible check of " + color_name(pos.side_to_move()) + " King";
  return "No legal last move for " + color_name(mover);
}

}  // namespace egtb::query
