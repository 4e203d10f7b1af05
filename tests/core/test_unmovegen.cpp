#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "egtb/core/fen.hpp"
#include "egtb/core/movegen.hpp"
#include "egtb/core/notation.hpp"
#include "egtb/core/unmovegen.hpp"
#include "tests/support/catch.hpp"

using namespace egtb;

namespace {

using Rng = std::mt19937_64;

constexpr UnmoveOptions Everything{CapturableTypes, true, true, true};

Position from_fen(std::string_view fen) {
  const auto pos = parse_fen(fen);
  REQUIRE(pos.has_value());
  return *pos;
}

std::vector<Unmove> unmoves_of(const Position& pos, const UnmoveOptions& options) {
  std::vector<Unmove> out;
  generate_unmoves(pos, options, out);
  return out;
}

// A text key equal for two (Q, m) exactly when the positions are the same and the moves equal.
std::string key(const Position& q, Move m) {
  const std::string ep = q.has_ep_capture() ? square_name(q.ep_square()) : "-";
  return placement_fen(q) + " " + ep + " " + to_uci(m);
}

std::set<std::string> keys_of(const std::vector<Unmove>& unmoves) {
  std::set<std::string> keys;
  for (const Unmove& u : unmoves) keys.insert(key(u.before, u.move));
  return keys;
}

bool contains_unmove(const std::vector<Unmove>& unmoves, const Position& q, Move m) {
  return std::any_of(unmoves.begin(), unmoves.end(),
                     [&](const Unmove& u) { return u.move == m && u.before.same_position(q); });
}

// The least options under which the move m of q must be found as an un-move.
UnmoveOptions options_for(const Position& q, Move m) {
  UnmoveOptions o;
  if (m.kind() == MoveKind::EnPassant) o.ep_uncaptures = true;
  if (!q.empty(m.to())) o.uncaptures = {type_of(q.piece_on(m.to()))};
  o.unpromotions = m.kind() == MoveKind::Promotion;
  o.ep_rights = q.has_ep_capture() && m.kind() != MoveKind::EnPassant;
  return o;
}

// True when the options allow the kind of the move m of q.
bool allowed(const UnmoveOptions& o, const Position& q, Move m) {
  if (m.kind() == MoveKind::EnPassant) return o.ep_uncaptures;
  if (!q.empty(m.to()) && !o.uncaptures.contains(type_of(q.piece_on(m.to())))) return false;
  if (m.kind() == MoveKind::Promotion && !o.unpromotions) return false;
  return !q.has_ep_capture() || o.ep_rights;
}

// ---------------------------------------------------------------------------------------------
// Random legal positions.

int random_int(Rng& rng, int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }

// A uniformly chosen element of a non-empty vector or move list.
template <class Container>
auto random_element(Rng& rng, const Container& items) {
  return items[static_cast<size_t>(random_int(rng, 0, static_cast<int>(items.size()) - 1))];
}

// Plays a random legal move; false when there is none.
bool random_step(Rng& rng, Position& pos) {
  const MoveList moves = legal_moves(pos);
  if (moves.empty()) return false;
  pos = pos.after(random_element(rng, moves));
  return true;
}

// A square for a man; pawns stay off ranks 1 and 8 and stand on the 4th or 5th rank half the time.
Square random_square(Rng& rng, PieceType pt) {
  if (pt != PieceType::Pawn) return square_at(random_int(rng, 0, 63));
  const int rank = random_int(rng, 0, 1) ? random_int(rng, 3, 4) : random_int(rng, 1, 6);
  return make_square(random_int(rng, 0, 7), rank);
}

// Sets a random e.p. square the side to move can capture on, when there is one.
void maybe_add_ep_square(Rng& rng, Position& pos) {
  std::vector<Square> choices;
  for (int file = 0; file < 8; ++file) {
    Position p = pos;
    p.set_ep_square(make_square(file, pos.side_to_move() == Color::White ? 5 : 2));
    if (p.has_ep_capture() && !validate(p)) choices.push_back(p.ep_square());
  }
  if (!choices.empty() && random_int(rng, 0, 1)) pos.set_ep_square(random_element(rng, choices));
}

// A legal placement of `men` ("KQRPkrp": White upper case) with a random side to move.
Position random_placement(Rng& rng, std::string_view men) {
  while (true) {
    Position pos;
    for (char c : men) {
      const Piece p = *piece_from_char(c);
      Square s = random_square(rng, type_of(p));
      while (!pos.empty(s)) s = random_square(rng, type_of(p));
      pos.put_piece(p, s);
    }
    pos.set_side_to_move(random_int(rng, 0, 1) ? Color::White : Color::Black);
    if (validate(pos)) continue;
    maybe_add_ep_square(rng, pos);
    return pos;
  }
}

// Appends pos and the positions of a random line of up to `plies` moves from it.
void add_random_line(Rng& rng, Position pos, int plies, std::vector<Position>& out) {
  pos.set_castling_rights(0);
  out.push_back(pos);
  for (int i = 0; i < plies && random_step(rng, pos); ++i) out.push_back(pos);
}

constexpr std::string_view SmallMaterials[] = {"KQRPkrp", "KRPkrp", "KPPkp",   "KQkr",    "KPkp",
                                               "KNPkbp",  "KBBkn",  "KPPPkpp", "KQRBNkq", "KRkpp"};

// Legal positions without castling rights: short random lines from random placements of small
// material, and positions from random games from the start position.
std::vector<Position> random_positions(uint64_t seed, int placements, int games) {
  Rng rng(seed);
  std::vector<Position> positions;
  for (int i = 0; i < placements; ++i) {
    const std::string_view men = SmallMaterials[static_cast<size_t>(i) % std::size(SmallMaterials)];
    add_random_line(rng, random_placement(rng, men), random_int(rng, 0, 6), positions);
  }
  for (int i = 0; i < games; ++i) {
    Position pos = from_fen(StartFen);
    const int plies = random_int(rng, 0, 80);
    for (int p = 0; p < plies && random_step(rng, pos); ++p) {
    }
    add_random_line(rng, pos, 2, positions);
  }
  return positions;
}

// ---------------------------------------------------------------------------------------------
// Property checks.

// Every legal move m of pos: pos is a predecessor of pos.after(m) by m, under the least options
// that allow m and under all options.
void check_moves_are_undone(const Position& pos) {
  for (Move m : legal_moves(pos)) {
    const Position child = pos.after(m);
    INFO(to_fen(pos) + " " + to_uci(m));
    CHECK(contains_unmove(unmoves_of(child, options_for(pos, m)), pos, m));
    CHECK(contains_unmove(unmoves_of(child, Everything), pos, m));
  }
}

// Every un-move of pos under the options is legal, allowed, leads to pos, and appears once.
void check_unmoves_sound(const Position& pos, const UnmoveOptions& options) {
  const std::vector<Unmove> unmoves = unmoves_of(pos, options);
  for (const Unmove& u : unmoves) {
    INFO(to_fen(pos) + " <- " + to_fen(u.before) + " " + to_uci(u.move));
    CHECK(u.before.side_to_move() == ~pos.side_to_move());
    CHECK(u.before.castling_rights() == 0);
    CHECK_FALSE(validate(u.before).has_value());
    REQUIRE(legal_moves(u.before).contains(u.move));
    CHECK(u.before.after(u.move).same_position(pos));
    CHECK(allowed(options, u.before, u.move));
    CHECK((u.before.ep_square() == Square::None || u.before.has_ep_capture()));
  }
  CHECK(keys_of(unmoves).size() == unmoves.size());
}

void check_positions(const std::vector<Position>& positions) {
  for (const Position& pos : positions) {
    check_moves_are_undone(pos);
    check_unmoves_sound(pos, Everything);
    check_unmoves_sound(pos, UnmoveOptions{});
    for (Move m : legal_moves(pos)) check_unmoves_sound(pos.after(m), options_for(pos, m));
  }
}

// ---------------------------------------------------------------------------------------------
// Brute force: every placement of the right men that differs from the target on at most three
// squares (no move changes more), with the other side to move and every e.p. square.

class BruteForce {
public:
  explicit BruteForce(const Position& target) : target_(target) {}

  // Every predecessor pair (Q, m), of every kind.
  std::vector<Unmove> run() {
    for (std::vector<Piece> men : candidate_men()) {
      std::sort(men.begin(), men.end(), [](Piece a, Piece b) { return to_index(a) < to_index(b); });
      men_ = men;
      Bitboard absent = 0;  // squares of target men of a kind that Q lacks
      for (Bitboard b = target_.pieces(); b;) {
        const Square s = pop_lsb(b);
        if (std::find(men.begin(), men.end(), target_.piece_on(s)) == men.end()) absent |= square_bb(s);
      }
      if (!more_than_three(absent)) place(0, absent);
    }
    return found_;
  }

private:
  const Position& target_;
  std::vector<Piece> men_;
  Position q_;
  Bitboard diff_ = 0;  // the squares where q_ differs from the target, at a leaf
  std::vector<Unmove> found_;

  // The men Q may have: the target's; with one piece of the side that moved turned back into a pawn;
  // and each of those plus one man of the side to move in the target (an un-capture).
  [[nodiscard]] std::vector<std::vector<Piece>> candidate_men() const {
    const Color mover = ~target_.side_to_move();
    std::vector<Piece> base;
    for (Bitboard b = target_.pieces(); b;) base.push_back(target_.piece_on(pop_lsb(b)));
    std::vector<std::vector<Piece>> lists = {base};
    for (PieceType pt : {PieceType::Knight, PieceType::Bishop, PieceType::Rook, PieceType::Queen}) {
      auto it = std::find(base.begin(), base.end(), make_piece(mover, pt));
      if (it == base.end()) continue;
      std::vector<Piece> unpromoted = base;
      unpromoted[static_cast<size_t>(it - base.begin())] = make_piece(mover, PieceType::Pawn);
      lists.push_back(unpromoted);
    }
    const size_t without_captures = lists.size();
    for (size_t i = 0; i < without_captures; ++i)
      for (PieceType pt : CapturableTypes) {
        std::vector<Piece> more = lists[i];
        more.push_back(make_piece(~mover, pt));
        lists.push_back(more);
      }
    return lists;
  }

  static bool more_than_three(Bitboard b) {
    for (int k = 0; k < 3; ++k) b &= b - 1;
    return b != 0;
  }

  // Places men_[i..] on the board, given the squares known to differ from the target so far.
  void place(size_t i, Bitboard diff) {
    if (i == men_.size()) {
      diff_ = diff;
      check_leaf();
      return;
    }
    for (int s = 0; s < SquareCount; ++s) place_on(i, square_at(s), diff);
  }

  // Places men_[i] on s, unless that makes more than three squares differ, and goes on.
  void place_on(size_t i, Square s, Bitboard diff) {
    const Piece p = men_[i];
    const Bitboard placed = q_.pieces(color_of(p), type_of(p)) | square_bb(s);
    if (!q_.empty(s) || (type_of(p) == PieceType::Pawn && (rank_of(s) == 0 || rank_of(s) == 7))) return;
    // Identical men in increasing square order only.
    if (i > 0 && men_[i - 1] == p && (placed >> to_index(s)) != 1) return;
    Bitboard d = diff | (target_.piece_on(s) != p ? square_bb(s) : 0);
    if (i + 1 == men_.size() || men_[i + 1] != p) d |= target_.pieces(color_of(p), type_of(p)) & ~placed;
    if (more_than_three(d)) return;
    q_.put_piece(p, s);
    place(i + 1, d);
    q_.remove_piece(s);
  }

  // Tries the full placement q_ with the other side to move, with no e.p. square and each
  // e.p. square that allows a capture.
  void check_leaf() {
    q_.set_side_to_move(~target_.side_to_move());
    q_.set_ep_square(Square::None);
    if (q_.king_attacked(target_.side_to_move()) || validate(q_)) return;
    check_predecessor(q_);
    const int rank = q_.side_to_move() == Color::White ? 5 : 2;
    for (int file = 0; file < 8; ++file) {
      Position p = q_;
      p.set_ep_square(make_square(file, rank));
      if (p.has_ep_capture() && !validate(p)) check_predecessor(p);
    }
  }

  // Records the legal moves of q that lead to the target. A move changes its origin and
  // destination squares, so only moves between two squares of diff_ can.
  void check_predecessor(const Position& q) {
    for (Move m : legal_moves(q))
      if (contains(diff_, m.from()) && contains(diff_, m.to()) && q.after(m).same_position(target_))
        found_.push_back({q, m});
  }
};

// The generator and the brute force agree on pos under the options, and the generator lists
// nothing twice.
void check_against_brute_force(const Position& pos, const std::vector<Unmove>& all,
                               const UnmoveOptions& options) {
  INFO(to_fen(pos));
  const std::vector<Unmove> unmoves = unmoves_of(pos, options);
  const std::set<std::string> generated = keys_of(unmoves);
  CHECK(generated.size() == unmoves.size());
  std::set<std::string> expected;
  for (const Unmove& u : all)
    if (allowed(options, u.before, u.move)) expected.insert(key(u.before, u.move));
  CHECK(generated == expected);
}

UnmoveOptions random_options(Rng& rng) {
  UnmoveOptions o;
  for (PieceType pt : CapturableTypes)
    if (random_int(rng, 0, 1)) o.uncaptures = o.uncaptures.with(pt);
  o.unpromotions = random_int(rng, 0, 1) != 0;
  o.ep_uncaptures = random_int(rng, 0, 1) != 0;
  o.ep_rights = random_int(rng, 0, 1) != 0;
  return o;
}

constexpr std::string_view TinyMaterials[] = {"KQk",  "KRkp",  "KPkp", "KPPk",
                                              "KNkp", "KBPkp", "KQkn", "KPkpp"};

// How often each kind of un-move occurs in the brute force's answers.
struct KindCounts {
  int captures = 0;
  int promotions = 0;
  int ep_captures = 0;
  int ep_rights = 0;
  int double_steps = 0;

  void add(const std::vector<Unmove>& unmoves) {
    for (const Unmove& u : unmoves) {
      captures += u.before.empty(u.move.to()) ? 0 : 1;
      promotions += u.move.kind() == MoveKind::Promotion ? 1 : 0;
      ep_captures += u.move.kind() == MoveKind::EnPassant ? 1 : 0;
      ep_rights += u.before.has_ep_capture() && u.move.kind() != MoveKind::EnPassant ? 1 : 0;
      const int distance = to_index(u.move.to()) - to_index(u.move.from());
      const bool pawn = type_of(u.before.piece_on(u.move.from())) == PieceType::Pawn;
      double_steps += pawn && (distance == 16 || distance == -16) ? 1 : 0;
    }
  }
};

// Checks the generator against the brute force on pos under several options.
void check_against_brute_force(Rng& rng, const Position& pos, KindCounts& seen) {
  const std::vector<Unmove> all = BruteForce(pos).run();
  seen.add(all);
  check_against_brute_force(pos, all, Everything);
  check_against_brute_force(pos, all, UnmoveOptions{});
  for (int k = 0; k < 4; ++k) check_against_brute_force(pos, all, random_options(rng));
}

KindCounts brute_force_random(uint64_t seed, int count) {
  Rng rng(seed);
  KindCounts seen;
  for (int i = 0; i < count; ++i) {
    std::vector<Position> line;
    const std::string_view men = TinyMaterials[static_cast<size_t>(i) % std::size(TinyMaterials)];
    add_random_line(rng, random_placement(rng, men), 2, line);
    check_against_brute_force(rng, random_element(rng, line), seen);
  }
  return seen;
}

}  // namespace

// ---------------------------------------------------------------------------------------------

TEST_CASE("PieceTypeSet holds and lists piece types", "[unmovegen]") {
  constexpr PieceTypeSet s{PieceType::Rook, PieceType::Pawn};
  static_assert(s.contains(PieceType::Pawn) && !s.contains(PieceType::Queen) && s.size() == 2);
  std::vector<PieceType> listed(s.begin(), s.end());
  CHECK(listed == std::vector<PieceType>{PieceType::Pawn, PieceType::Rook});
  CHECK(s.without(PieceType::Pawn) == PieceTypeSet{PieceType::Rook});
  CHECK(PieceTypeSet{}.empty());
}

TEST_CASE("every move is undone and every un-move is sound", "[unmovegen]") {
  check_positions(random_positions(1, 300, 12));
}

TEST_CASE("every move is undone and every un-move is sound, many positions", "[unmovegen][slow]") {
  for (uint64_t seed = 2; seed < 6; ++seed) check_positions(random_positions(seed, 1500, 40));
}

TEST_CASE("un-moves agree with a brute force over placements", "[unmovegen]") {
  const KindCounts seen = brute_force_random(7, 40);
  CHECK(seen.captures > 0);
  CHECK(seen.promotions > 0);
  CHECK(seen.ep_captures > 0);
  CHECK(seen.ep_rights > 0);
  CHECK(seen.double_steps > 0);
}

TEST_CASE("un-moves agree with a brute force over placements, many positions", "[unmovegen][slow]") {
  brute_force_random(8, 400);
}

// The worked examples of the comment in unmovegen.hpp, and the e.p. and check corner cases.

namespace {

Move uci(const Position& q, std::string_view text) {
  const auto m = parse_uci(q, text);
  REQUIRE(m.has_value());
  return *m;
}

// True when the un-moves of pos contain (Q, m) with Q given by its FEN and m in UCI.
bool has_unmove(const std::vector<Unmove>& unmoves, std::string_view q_fen, std::string_view move) {
  const Position q = from_fen(q_fen);
  return contains_unmove(unmoves, q, uci(q, move));
}

std::set<std::string> moves_of(const std::vector<Unmove>& unmoves) {
  std::set<std::string> moves;
  for (const Unmove& u : unmoves) moves.insert(to_uci(u.move));
  return moves;
}

}  // namespace

TEST_CASE("quiet un-moves of a rook and a king", "[unmovegen]") {
  const auto unmoves = unmoves_of(from_fen("4k3/8/8/8/8/8/8/R3K3 b - - 0 1"), UnmoveOptions{});
  const std::set<std::string> expected = {"a2a1", "a3a1", "a4a1", "a5a1", "a6a1", "a7a1", "b1a1",
                                          "c1a1", "d1a1", "d1e1", "d2e1", "e2e1", "f2e1", "f1e1"};
  CHECK(moves_of(unmoves) == expected);
  CHECK(unmoves.size() == expected.size());
  CHECK(has_unmove(unmoves, "4k3/8/8/8/8/8/R7/4K3 w - - 0 1", "a2a1"));
}

TEST_CASE("un-captures leave one of our men on the destination square", "[unmovegen]") {
  const Position pos = from_fen("4k3/8/8/8/8/8/8/R3K3 b - - 0 1");
  const auto unmoves = unmoves_of(pos, UnmoveOptions{{PieceType::Knight}});
  CHECK(has_unmove(unmoves, "4k3/8/8/8/R7/8/8/n3K3 w - - 0 1", "a4a1"));
  CHECK(has_unmove(unmoves, "4k3/8/8/8/8/8/8/R2Kn3 w - - 0 1", "d1e1"));
  CHECK(unmoves.size() == 2 * unmoves_of(pos, UnmoveOptions{}).size());
  CHECK(moves_of(unmoves_of(pos, UnmoveOptions{{PieceType::Pawn}})).count("b1a1") == 1);
  for (const Unmove& u : unmoves_of(pos, UnmoveOptions{{PieceType::Pawn}}))
    CHECK((u.before.pieces(Color::Black, PieceType::Pawn) & (Rank1BB | Rank8BB)) == 0);
}

TEST_CASE("double steps follow the e.p. square of the position", "[unmovegen]") {
  const auto free = unmoves_of(from_fen("4k3/8/8/8/4P3/8/8/4K3 b - - 0 1"), UnmoveOptions{});
  CHECK(moves_of(free).count("e2e4") == 1);
  CHECK(moves_of(free).count("e3e4") == 1);
  const auto beside = unmoves_of(from_fen("4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1"), Everything);
  CHECK(moves_of(beside).count("e2e4") == 0);
  CHECK(moves_of(beside).count("e3e4") == 1);
  const auto with_ep = unmoves_of(from_fen("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1"), Everything);
  REQUIRE(with_ep.size() == 1);
  CHECK(has_unmove(with_ep, "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1", "e2e4"));
}

TEST_CASE("a pinned capturer records no e.p. square, so the double step is a predecessor", "[unmovegen]") {
  const Position pinned = from_fen("8/8/8/8/R2pP2k/8/8/4K3 b - - 0 1");
  const auto unmoves = unmoves_of(pinned, Everything);
  CHECK(has_unmove(unmoves, "8/8/8/8/R2p3k/8/4P3/4K3 w - - 0 1", "e2e4"));
  CHECK(keys_of(unmoves_of(from_fen("8/8/8/8/R2pP2k/8/8/4K3 b - e3 0 1"), Everything)) == keys_of(unmoves));
  // A pinned capturer gives no e.p. right: only where the king stood elsewhere may Q carry one.
  for (const Unmove& u : unmoves_of(from_fen("4k3/8/8/r2pP2K/8/8/8/8 b - - 0 1"), Everything))
    if (u.before.ep_square() != Square::None) CHECK(u.before.king_square(Color::White) != Square::H5);
  CHECK(has_unmove(unmoves_of(from_fen("4k3/8/8/r2pP2K/8/8/8/8 b - - 0 1"), Everything),
                   "4k3/8/8/r2pP3/7K/8/8/8 w - d6 0 1", "h4h5"));
  const auto unpinned = unmoves_of(from_fen("4k3/8/8/3pP2K/8/8/8/8 b - - 0 1"), Everything);
  CHECK(has_unmove(unpinned, "4k3/8/8/3pP3/7K/8/8/8 w - d6 0 1", "h4h5"));
}

TEST_CASE("un-promotions, straight and with an un-capture", "[unmovegen]") {
  const Position pos = from_fen("3Q3k/8/8/8/8/8/8/K7 b - - 0 1");
  const auto unmoves = unmoves_of(pos, UnmoveOptions{{PieceType::Rook}, true, false, false});
  CHECK(has_unmove(unmoves, "7k/3P4/8/8/8/8/8/K7 w - - 0 1", "d7d8q"));
  CHECK(has_unmove(unmoves, "3r3k/2P5/8/8/8/8/8/K7 w - - 0 1", "c7d8q"));
  CHECK(has_unmove(unmoves, "3r3k/4P3/8/8/8/8/8/K7 w - - 0 1", "e7d8q"));
  CHECK(has_unmove(unmoves, "3r3k/8/8/8/8/8/3Q4/K7 w - - 0 1", "d2d8"));
  CHECK(moves_of(unmoves_of(pos, UnmoveOptions{})).count("d7d8q") == 0);
  // Eight black pawns and a queen: un-promoting would make a ninth pawn.
  const auto nine = unmoves_of(from_fen("k7/pppppppp/8/8/8/8/8/q6K w - - 0 1"), Everything);
  CHECK(std::none_of(nine.begin(), nine.end(),
                     [](const Unmove& u) { return u.move.kind() == MoveKind::Promotion; }));
}

TEST_CASE("e.p. un-captures", "[unmovegen]") {
  const Position pos = from_fen("4k3/8/3P4/8/8/8/8/4K3 b - - 0 1");
  const auto unmoves = unmoves_of(pos, UnmoveOptions{{}, false, true, false});
  CHECK(has_unmove(unmoves, "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"));
  CHECK(has_unmove(unmoves, "4k3/8/8/2Pp4/8/8/8/4K3 w - d6 0 1", "c5d6"));
  CHECK(moves_of(unmoves_of(pos, UnmoveOptions{})).count("e5d6") == 0);
  // The rook a6 checks the king f6 before exd6 e.p.: that check cannot follow d7-d5.
  const auto impossible = unmoves_of(from_fen("4k3/8/r2P1K2/8/8/8/8/8 b - - 0 1"), Everything);
  CHECK(std::none_of(impossible.begin(), impossible.end(),
                     [](const Unmove& u) { return u.move.kind() == MoveKind::EnPassant; }));
  CHECK(validate(from_fen("4k3/8/r4K2/3pP3/8/8/8/8 w - - 0 1")) == std::nullopt);
  CHECK(has_unmove(impossible, "4k3/8/r4K2/3P4/8/8/8/8 w - - 0 1", "d5d6"));
}

TEST_CASE("e.p. rights of the predecessor", "[unmovegen]") {
  const Position pos = from_fen("4k3/8/8/3pP3/8/8/8/3K4 b - - 0 1");
  const auto with = unmoves_of(pos, UnmoveOptions{{}, false, false, true});
  CHECK(has_unmove(with, "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e1d1"));
  CHECK(has_unmove(with, "4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1", "e1d1"));
  const auto without = unmoves_of(pos, UnmoveOptions{});
  CHECK(std::none_of(without.begin(), without.end(),
                     [](const Unmove& u) { return u.before.has_ep_capture(); }));
  CHECK(with.size() > without.size());
}

TEST_CASE("no predecessor gives three checks or comes from an illegal position", "[unmovegen]") {
  const Position pos = from_fen("2Q5/6N1/R7/4k3/8/8/8/K7 w - - 0 1");
  Position triple = pos;
  triple.set_side_to_move(Color::Black);
  triple.remove_piece(Square::E5);
  triple.put_piece(make_piece(Color::Black, PieceType::King), Square::E6);
  CHECK(popcount(triple.checkers()) == 3);
  CHECK(validate(triple).has_value());
  CHECK(moves_of(unmoves_of(pos, Everything)).count("e6e5") == 0);
  CHECK(moves_of(unmoves_of(pos, Everything)).count("d4e5") == 1);
  Position illegal = from_fen("4k3/8/8/8/8/8/8/R3K3 b - - 0 1");
  illegal.set_side_to_move(Color::White);
  illegal.remove_piece(Square::A1);
  illegal.put_piece(make_piece(Color::White, PieceType::Rook), Square::A8);
  CHECK(unmoves_of(illegal, Everything).empty());
}

TEST_CASE("un-moves agree with a brute force on the hand-written positions", "[unmovegen]") {
  Rng rng(9);
  KindCounts seen;
  for (std::string_view fen : {"4k3/8/8/8/8/8/8/R3K3 b - - 0 1", "4k3/8/8/8/4P3/8/8/4K3 b - - 0 1",
                               "4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1", "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1",
                               "8/8/8/8/R2pP2k/8/8/4K3 b - - 0 1", "4k3/8/8/r2pP2K/8/8/8/8 b - - 0 1",
                               "3Q3k/8/8/8/8/8/8/K7 b - - 0 1", "4k3/8/3P4/8/8/8/8/4K3 b - - 0 1",
                               "4k3/8/r2P1K2/8/8/8/8/8 b - - 0 1", "4k3/8/8/3pP3/8/8/8/3K4 b - - 0 1",
                               "2Q5/6N1/R7/4k3/8/8/8/K7 w - - 0 1"})
    check_against_brute_force(rng, from_fen(fen), seen);
  CHECK(seen.ep_captures > 0);
  CHECK(seen.ep_rights > 0);
}
