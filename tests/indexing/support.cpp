#include "tests/indexing/support.hpp"

#include <algorithm>
#include <array>
#include <vector>

#include "egtb/core/symmetry.hpp"
#include "tests/support/catch.hpp"

namespace egtb::test {

Material material(std::string_view text) {
  const auto m = Material::parse(text);
  INFO(std::string(text) << ": " << (m ? std::string() : m.error()));
  REQUIRE(m.has_value());
  return *m;
}

bool is_legal(const Position& pos) {
  if (pos.pieces(PieceType::Pawn) & (Rank1BB | Rank8BB)) return false;
  if (square_distance(pos.king_square(Color::White), pos.king_square(Color::Black)) <= 1) return false;
  return !pos.king_attacked(~pos.side_to_move());
}

namespace {

bool allowed(Symmetry s, const Position& pos) {
  return pos.pieces(PieceType::Pawn) == 0 || s == Symmetry::Identity || s == Symmetry::FlipFiles;
}

using Key = std::array<uint8_t, SquareCount + 1>;

Key key_of(const Position& pos) {
  Key key{};
  for (int i = 0; i < SquareCount; ++i)
    key[static_cast<size_t>(i)] = static_cast<uint8_t>(to_index(pos.piece_on(square_at(i))));
  key[SquareCount] = static_cast<uint8_t>(pos.has_ep_capture() ? to_index(pos.ep_square()) : 255);
  return key;
}

// The e.p. squares a double step by the side not to move could have left in `pos`: the pawn on
// its fourth rank, the two squares it crossed empty, a legal e.p. capture.
std::vector<Square> possible_ep_squares(Position pos) {
  std::vector<Square> out;
  const Color stm = pos.side_to_move();
  Bitboard movers = pos.pieces(~stm, PieceType::Pawn) & rank_bb(stm == Color::White ? 4 : 3);
  while (movers) {
    const Square ep = square_at(to_index(pop_lsb(movers)) + pawn_push(stm));
    if (!pos.empty(ep) || !pos.empty(square_at(to_index(ep) + pawn_push(stm)))) continue;
    pos.set_ep_square(ep);
    if (pos.has_ep_capture()) out.push_back(ep);
  }
  return out;
}

std::vector<Piece> men_of(const Material& m) {
  std::vector<Piece> men;
  for (Color c : {Color::White, Color::Black}) men.push_back(make_piece(c, PieceType::King));
  for (Color c : {Color::White, Color::Black})
    for (PieceType pt :
         {PieceType::Queen, PieceType::Rook, PieceType::Bishop, PieceType::Knight, PieceType::Pawn})
      men.insert(men.end(), static_cast<size_t>(m.count(c, pt)), make_piece(c, pt));
  return men;
}

class Enumerator {
public:
  Enumerator(const Material& m, Color stm, const std::function<void(const Position&)>& f) : f_(f) {
    for (Color c : {Color::White, Color::Black}) men_.push_back(make_piece(c, PieceType::King));
    for (Color c : {Color::White, Color::Black})
      for (PieceType pt :
           {PieceType::Queen, PieceType::Rook, PieceType::Bishop, PieceType::Knight, PieceType::Pawn})
        men_.insert(men_.end(), static_cast<size_t>(m.count(c, pt)), make_piece(c, pt));
    squares_.resize(men_.size());
    ep_possible_ = m.has_pawns(Color::White) && m.has_pawns(Color::Black);
    pos_.set_side_to_move(stm);
  }

  void run(size_t k) {
    if (k == men_.size()) return visit();
    const Piece p = men_[k];
    const int first = k > 0 && men_[k - 1] == p ? to_index(squares_[k - 1]) + 1 : 0;
    for (int i = first; i < SquareCount; ++i) {
      const Square s = square_at(i);
      if (!pos_.empty(s) || (type_of(p) == PieceType::Pawn && (rank_of(s) == 0 || rank_of(s) == 7))) continue;
      if (k == 1 && square_distance(s, squares_[0]) <= 1) continue;
      pos_.put_piece(p, s);
      squares_[k] = s;
      run(k + 1);
      pos_.remove_piece(s);
    }
  }

private:
  std::vector<Piece> men_;
  std::vector<Square> squares_;
  const std::function<void(const Position&)>& f_;
  Position pos_;
  bool ep_possible_ = false;

  void visit() {
    if (!is_legal(pos_)) return;
    f_(pos_);
    if (!ep_possible_) return;
    for (Square ep : possible_ep_squares(pos_)) {
      pos_.set_ep_square(ep);
      f_(pos_);
      pos_.set_ep_square(Square::None);
    }
  }
};

}  // namespace

bool is_image(const Position& a, const Position& b) {
  for (Symmetry s : AllSymmetries)
    if (allowed(s, a) && apply(s, a).same_position(b)) return true;
  return false;
}

bool is_class_representative(const Position& pos) {
  const Key own = key_of(pos);
  for (Symmetry s : AllSymmetries)
    if (allowed(s, pos) && key_of(apply(s, pos)) < own) return false;
  return true;
}

std::optional<Position> random_position(const Material& m, Color stm, std::mt19937_64& rng) {
  Position pos;
  for (Piece p : men_of(m)) {
    const bool pawn = type_of(p) == PieceType::Pawn;
    std::uniform_int_distribution<int> squares(pawn ? 8 : 0, pawn ? 55 : 63);
    Square s = square_at(squares(rng));
    while (!pos.empty(s)) s = square_at(squares(rng));
    pos.put_piece(p, s);
  }
  pos.set_side_to_move(stm);
  if (!is_legal(pos)) return std::nullopt;
  const std::vector<Square> eps = possible_ep_squares(pos);
  if (!eps.empty() && rng() % 2 == 0) pos.set_ep_square(eps[rng() % eps.size()]);
  return pos;
}

void for_each_physical(const Material& m, Color stm, const std::function<void(const Position&)>& f) {
  Enumerator(m, stm, f).run(0);
}

}  // namespace egtb::test
