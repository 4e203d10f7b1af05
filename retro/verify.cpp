#include "retro/verify.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <optional>
#include <span>
#include <sstream>
#include <stdexcept>
#include <tuple>
#include <utility>

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "egtb/core/fen.hpp"
#include "egtb/core/movegen.hpp"
#include "egtb/core/notation.hpp"
#include "egtb/core/symmetry.hpp"
#include "egtb/store/line.hpp"
#include "retro/ep_positions.hpp"

namespace egtb::retro {

using indexing::Index;
using Men = indexing::IndexScheme::Men;

void VerifyErrorLog::add(VerifyError error) {
  const std::lock_guard lock(mutex_);
  ++count_;
  errors_.push_back(std::move(error));
  if (errors_.size() >= 2 * capacity_ + 16) trim();
}

std::vector<VerifyError> VerifyErrorLog::take() {
  const std::lock_guard lock(mutex_);
  trim();
  return std::move(errors_);
}

void VerifyErrorLog::trim() {
  std::sort(errors_.begin(), errors_.end(), [](const VerifyError& a, const VerifyError& b) {
    return std::tuple(to_index(a.side_to_move), a.index) < std::tuple(to_index(b.side_to_move), b.index);
  });
  if (errors_.size() > capacity_) errors_.resize(capacity_);
}

namespace {

// Entries per parallel task of the verification.
constexpr Index VerifyGrain = 1024;

size_t side(Color c) { return static_cast<size_t>(to_index(c)); }

// A pawn's step of two squares, which may leave the other side an e.p. capture.
bool is_double_step(const Position& pos, Move m) {
  return type_of(pos.piece_on(m.from())) == PieceType::Pawn &&
         std::abs(to_index(m.to()) - to_index(m.from())) == 16;
}

// Captures, promotions and e.p. captures lead out of the table.
bool leaves_table(const Position& pos, Move m) {
  return m.kind() == MoveKind::EnPassant || m.kind() == MoveKind::Promotion || !pos.empty(m.to());
}

const char* symmetry_name(Symmetry s) { return s == Symmetry::FlipFiles ? "a-h mirror" : "a1-h8 mirror"; }

// Why the depth of `s` cannot be right whatever the moves, or an empty string: wins have odd
// depths, losses even ones, draws none.
std::string depth_format_problem(Rules rules, Score s) {
  const Lasker v = s.value();
  if (v == Lasker::Draw) return s.depth() == 0 ? "" : "a draw carries no depth";
  if (is_win(v) == (s.depth() % 2 == 1)) return "";
  return std::string(is_win(v) ? "a win for the side to move needs an odd " : "a loss needs an even ") +
         std::string(metric_name(metric_of(rules, v)));
}

// The e.p. square of a position when it has an e.p. capture, else Square::None.
Square live_ep_square(const Position& pos) {
  return pos.ep_square() != Square::None && pos.has_ep_capture() ? pos.ep_square() : Square::None;
}

// True when s maps every man of `a` onto the same man of `b`.
bool same_men(Symmetry s, const Position& a, const Position& b) {
  for (Color c : {Color::White, Color::Black})
    for (PieceType pt : {PieceType::Pawn, PieceType::Knight, PieceType::Bishop, PieceType::Rook,
                         PieceType::Queen, PieceType::King})
      if (apply(s, a.pieces(c, pt)) != b.pieces(c, pt)) return false;
  return true;
}

// The board symmetries that map a position of a table onto one of the same table: all eight
// without pawns, the identity and the a-h mirror with pawns (AllSymmetries lists those two first).
std::span<const Symmetry> table_symmetries(bool pawns) {
  return std::span<const Symmetry>(AllSymmetries).first(pawns ? 2 : AllSymmetries.size());
}

// True when a board symmetry (all eight without pawns, the identity and the file mirror with
// pawns) maps `a` onto `b`, side to move and e.p. rights included.
bool is_image(const Position& a, const Position& b, bool pawns) {
  if (a.side_to_move() != b.side_to_move()) return false;
  const Square ep_a = live_ep_square(a);
  const Square ep_b = live_ep_square(b);
  for (const Symmetry s : table_symmetries(pawns)) {
    if ((ep_a == Square::None ? ep_b == Square::None : apply(s, ep_a) == ep_b) && same_men(s, a, b))
      return true;
  }
  return false;
}

// The smallest and largest depth among the children of each value.
struct ChildDepths {
  std::array<int, 5> min{};
  std::array<int, 5> max{};
  std::array<Move, 5> min_move{};
  std::array<Move, 5> max_move{};
  std::array<bool, 5> seen{};

  void add(Score s, Move m) {
    const auto v = static_cast<size_t>(to_index(s.value()));
    if (!seen[v] || s.depth() < min[v]) {
      min[v] = s.depth();
      min_move[v] = m;
    }
    if (!seen[v] || s.depth() > max[v]) {
      max[v] = s.depth();
      max_move[v] = m;
    }
    seen[v] = true;
  }
};

// The score one ply forward gives, and the move that decides its depth.
struct Derived {
  Score score = Score::unknown();
  Move move;
  std::string problem;  // set when a child could not be looked up
};

// Value and depth from the children's scores (see verify.hpp).
Derived combine(const ChildDepths& children) {
  int best = -1;
  for (int v = 0; v <= 4; ++v)
    if (children.seen[static_cast<size_t>(v)]) best = std::max(best, 4 - v);
  const auto value = static_cast<Lasker>(best);
  if (value == Lasker::Draw) return Derived{Score::draw(), {}, {}};
  // A win takes the fastest child of the matching loss, a loss the slowest child of that win.
  const auto c = static_cast<size_t>(to_index(negate(value)));
  const bool slowest = is_loss(value);
  const int depth = (slowest ? children.max[c] : children.min[c]) + 1;
  return Derived{Score(value, depth), slowest ? children.max_move[c] : children.min_move[c], {}};
}

class Verifier {
public:
  Verifier(const Table& table, const Subtables& subtables, VerifyErrorLog& log)
      : table_(table), scheme_(table.scheme()), subtables_(subtables), log_(log) {}

  // Checks entry i of side c; `pos` is scratch space.
  void check_entry(Color c, Index i, Position& pos, VerifySideCounts& counts) const {
    ++counts.entries;
    const Score stored = table_.at(c, i);
    if (!scheme_.decode(i, c, pos)) {
      if (!stored.is_invalid())
        report(counts, {c, i, {}, stored, Score::invalid(), "an entry with no position holds a score"});
      return;
    }
    ++counts.positions;
    if (!check_position(c, i, pos, stored, counts)) return;
    ++counts.values[static_cast<size_t>(to_index(stored.value()))];
    Men men;
    const Men* normal = !scheme_.is_ep_entry(i) && scheme_.men_at(i, men) ? &men : nullptr;
    check_symmetry(c, i, pos, normal, stored, counts);
    check_moves(c, i, pos, normal, stored, counts);
  }

private:
  const Table& table_;
  const indexing::IndexScheme& scheme_;
  const Subtables& subtables_;
  VerifyErrorLog& log_;

  void report(VerifySideCounts& counts, VerifyError error) const {
    ++counts.errors;
    log_.add(std::move(error));
  }

  // A child's score as this table would store it (a table without DTS reads stalemates as draws).
  Score read(Score s) const { return as_stored(table_.rules(), table_.metrics(), s); }

  // The decoded position is legal, of this material and side to move, and holds a well-formed score.
  bool check_position(Color c, Index i, const Position& pos, Score stored, VerifySideCounts& counts) const {
    std::string problem;
    if (const auto illegal = validate_table_position(pos))
      problem = "the entry decodes to an illegal position: " + *illegal;
    else if (Material::from(pos) != scheme_.material() || pos.side_to_move() != c)
      problem = "the entry decodes to another material or side to move";
    else if (!stored.is_valid())
      problem = "a legal position is stored as " + describe(stored);
    else if (read(stored) != stored)
      problem = "a table with " + to_string(table_.metrics()) + " only stores " + describe(stored);
    else
      problem = depth_format_problem(table_.rules(), stored);
    if (problem.empty()) return true;
    report(counts, {c, i, to_fen(pos), stored, Score::unknown(), problem});
    return false;
  }

  // The entry index_of gives a position of this table, checked to decode to an image of it (two
  // positions sharing an entry would fool the solver and a lookup alike); or nothing and a problem.
  std::optional<Index> entry_of(const Position& p, std::string& problem) const {
    const auto j = scheme_.index_of(p);
    if (!j) {
      problem = to_fen(p) + " has no entry";
      return std::nullopt;
    }
    if (!holds_image(*j, p)) {
      problem = wrong_entry(p, *j);
      return std::nullopt;
    }
    return j;
  }

  // entry_of for the men of a position of this table without an e.p. capture, built by
  // make_position only for a message.
  template <class MakePosition>
  std::optional<Index> entry_of_men(const Men& men, MakePosition make_position, std::string& problem) const {
    const Index j = scheme_.index_of(men);
    if (holds_men_image(j, men)) return j;
    problem = wrong_entry(make_position(), j);
    return std::nullopt;
  }

  static std::string wrong_entry(const Position& p, Index j) {
    return to_fen(p) + " has entry " + std::to_string(j) + ", which holds another position";
  }

  // True when entry j decodes to an image of p, a legal position of this table. A normal-section
  // entry is read as its men (no position is built), and p as its men too (men_of).
  bool holds_image(Index j, const Position& p) const {
    if (scheme_.is_ep_entry(j)) {
      Position decoded;
      return scheme_.decode(j, p.side_to_move(), decoded) &&
             is_image(p, decoded, scheme_.material().has_pawns());
    }
    return live_ep_square(p) == Square::None && holds_men_image(j, men_of(scheme_, p));
  }

  // True when normal-section entry j's men are an image of `men` (the men of a position of this
  // table without an e.p. capture, or index_of would not give a normal entry): a symmetry maps the
  // squares of each group of j's men onto those of the same group of `men`. Example, KRPkr: the
  // men Kd1 kf3 Re2 Pa7 rh8 of an entry are the image of Ke1 kc3 Rd2 Ph7 ra8 under the a-h mirror.
  bool holds_men_image(Index j, const Men& men) const {
    Men held;
    if (j >= scheme_.normal_size() || !scheme_.men_at(j, held)) return false;
    for (const Symmetry s : table_symmetries(scheme_.material().has_pawns())) {
      if (same_groups(held, men, inverse(s))) return true;
    }
    return false;
  }

  // True when `back` maps the squares of each group of men of `a` onto those of `b` (a group: the
  // consecutive men of one piece).
  bool same_groups(const Men& a, const Men& b, Symmetry back) const {
    const int n = scheme_.man_count();
    Bitboard mapped = 0;
    Bitboard group = 0;
    for (int m = 0; m < n; ++m) {
      mapped |= square_bb(apply(back, a.squares[static_cast<size_t>(m)]));
      group |= square_bb(b.squares[static_cast<size_t>(m)]);
      if (m + 1 < n && scheme_.man_piece(m + 1) == scheme_.man_piece(m)) continue;
      if (mapped != group) return false;
      mapped = group = 0;
    }
    return true;
  }

  // The position and its mirror image (a1-h8 without pawns, a-h with pawns) have entries with
  // the same score: the two images that may have entries of their own.
  // `men` are pos's men when it has a normal-section entry, else null.
  void check_symmetry(Color c, Index i, const Position& pos, const Men* men, Score stored,
                      VerifySideCounts& counts) const {
    const Symmetry mirror = scheme_.material().has_pawns() ? Symmetry::FlipFiles : Symmetry::FlipDiag;
    for (Symmetry s : {Symmetry::Identity, mirror}) {
      std::string problem;
      const auto j = s == Symmetry::Identity ? entry_of(pos, problem) : image_entry(pos, men, s, problem);
      if (s == Symmetry::Identity && j && *j != i) ++counts.duplicates;
      const Score image = j ? table_.at(c, *j) : Score::unknown();
      if (j && image == stored) continue;
      const std::string name =
          s == Symmetry::Identity ? "the position" : "its " + std::string(symmetry_name(s)) + " image";
      if (j) problem = "entry " + std::to_string(*j) + " holds " + describe(image);
      report(counts, {c, i, to_fen(pos), stored, image, name + ": " + problem});
      return;
    }
  }

  // entry_of(apply(s, pos)), from pos's men when they are given (see check_symmetry).
  std::optional<Index> image_entry(const Position& pos, const Men* men, Symmetry s,
                                   std::string& problem) const {
    if (!men) return entry_of(apply(s, pos), problem);
    Men image;
    for (int k = 0; k < scheme_.man_count(); ++k)
      image.squares[static_cast<size_t>(k)] = apply(s, men->squares[static_cast<size_t>(k)]);
    return entry_of_men(
        image, [&] { return apply(s, pos); }, problem);
  }

  // The score of the child after m, or a problem. `men` are pos's men when it has a normal-section
  // entry, else null.
  Score child_score(const Position& pos, const Men* men, Move m, std::string& problem) const {
    if (!m.is_null() && leaves_table(pos, m)) {
      try {
        return read(subtables_.probe(pos.after(m)));
      } catch (const std::logic_error& e) {
        problem = std::string("subtable probe failed: ") + e.what();
        return Score::unknown();
      }
    }
    if (men && !m.is_null() && !is_double_step(pos, m)) return quiet_child_score(pos, *men, m, problem);
    const Position child = pos.after(m);
    const auto j = entry_of(child, problem);
    if (!j) return Score::unknown();
    return stored_child(
        child.side_to_move(), *j, [&] { return child; }, problem);
  }

  // child_score of a move that stays in the table and leaves no e.p. capture, from the men alone:
  // the mover's man steps to m.to() (index_of and holds_men_image need no position).
  Score quiet_child_score(const Position& pos, const Men& men, Move m, std::string& problem) const {
    Men moved = men;
    for (int k = 0; k < scheme_.man_count(); ++k)
      if (moved.squares[static_cast<size_t>(k)] == m.from()) {
        moved.squares[static_cast<size_t>(k)] = m.to();
        break;
      }
    const auto child = [&] { return pos.after(m); };
    const auto j = entry_of_men(moved, child, problem);
    if (!j) return Score::unknown();
    return stored_child(~pos.side_to_move(), *j, child, problem);
  }

  // The score entry j of side c holds for a child (built by make_child for a message), or a problem.
  template <class MakeChild>
  Score stored_child(Color c, Index j, MakeChild make_child, std::string& problem) const {
    const Score s = table_.at(c, j);
    if (!s.is_valid())
      problem = "the child " + to_fen(make_child()) + " (entry " + std::to_string(j) + ") is stored as " +
                describe(s);
    return read(s);
  }

  // The score the moves give.
  Derived derive(const Position& pos, const Men* men) const {
    const MoveList moves = rule_moves(table_.rules(), pos);
    if (moves.empty()) {
      const std::optional<Score> end = terminal_score(table_.rules(), pos.in_check());
      if (!end) return {Score::unknown(), {}, "no legal move, and the rules do not end the game here"};
      return {read(*end), {}, {}};
    }
    ChildDepths children;
    for (Move m : moves) {
      std::string problem;
      const Score s = child_score(pos, men, m, problem);
      if (!problem.empty()) return {Score::unknown(), m, to_uci(m) + ": " + problem};
      children.add(s, m);
    }
    return combine(children);
  }

  void check_moves(Color c, Index i, const Position& pos, const Men* men, Score stored,
                   VerifySideCounts& counts) const {
    const Derived d = derive(pos, men);
    if (!d.problem.empty()) {
      report(counts, {c, i, to_fen(pos), stored, Score::unknown(), d.problem});
      return;
    }
    if (d.score == stored) return;
    std::string problem = "stored " + describe(stored) + ", its moves give " + describe(d.score);
    if (!d.move.is_null()) problem += " (through " + to_san(pos, d.move) + ")";
    report(counts, {c, i, to_fen(pos), stored, d.score, problem});
  }
};

// Throws when a successor table is missing, or holds other rules or fewer metrics than this one.
void require_subtables(const Table& table, const Subtables& subtables) {
  for (const Material& m : table.material().successors()) {
    if (m.is_bare_kings()) continue;
    const auto sub = subtables.find(m);
    if (!sub)
      throw std::invalid_argument("verify " + table.signature() + ": subtable " + m.str() + " is not loaded");
    if (sub->rules() != table.rules() || !sub->metrics().contains(table.metrics()))
      throw std::invalid_argument("verify " + table.signature() + ": subtable " + m.str() + " holds " +
                                  std::string(rules_name(sub->rules())) + " " + to_string(sub->metrics()) +
                                  ", the table needs " + std::string(rules_name(table.rules())) + " " +
                                  to_string(table.metrics()));
  }
}

// The counts of every thread of a side, added up.
VerifySideCounts summed(const tbb::enumerable_thread_specific<VerifySideCounts>& local) {
  VerifySideCounts total;
  for (const VerifySideCounts& part : local) total.add(part);
  return total;
}

// Checks the entries [range.first, range.second) of side c.
VerifySideCounts verify_side(const Verifier& verifier, Color c, std::pair<Index, Index> range,
                             const std::function<void(Color, uint64_t)>& progress) {
  tbb::enumerable_thread_specific<VerifySideCounts> local;
  std::atomic<uint64_t> done = 0;
  std::mutex reporting;
  const tbb::blocked_range<Index> entries(range.first, range.second, VerifyGrain);
  tbb::parallel_for(entries, [&](const tbb::blocked_range<Index>& r) {
    VerifySideCounts& counts = local.local();
    Position pos;
    for (Index i = r.begin(); i != r.end(); ++i) verifier.check_entry(c, i, pos, counts);
    const uint64_t now = done += r.size();
    if (progress && reporting.try_lock()) {
      const std::lock_guard lock(reporting, std::adopt_lock);
      progress(c, now);
    }
  });
  return summed(local);
}

}  // namespace

void VerifySideCounts::add(const VerifySideCounts& other) {
  entries += other.entries;
  positions += other.positions;
  duplicates += other.duplicates;
  errors += other.errors;
  for (size_t v = 0; v < values.size(); ++v) values[v] += other.values[v];
}

std::pair<Index, Index> VerifyPart::range(Color c, Index size) const {
  // Both sides end to end: White's entries are 0 to size - 1, Black's size to 2 size - 1.
  // Part k ends at floor(2 size k / count), computed without overflow as q k + r k / count.
  const Index q = 2 * size / count;
  const Index r = 2 * size % count;
  const auto bound = [&](uint64_t k) { return q * k + r * k / count; };
  const Index first = bound(number - 1);
  const Index end = bound(number);
  if (c == Color::White) return {std::min(first, size), std::min(end, size)};
  return {std::max(first, size) - size, std::max(end, size) - size};
}

VerifyReport verify_table(const Table& table, const Subtables& subtables, const VerifyOptions& options) {
  VerifyReport report = verify_table_by_side(
      table.size(), [&table](Color) -> const Table& { return table; }, subtables, options);
  report.material = table.material();  // also when the part checks no entry
  return report;
}

VerifyReport verify_table_by_side(Index size, const std::function<const Table&(Color)>& table_for,
                                  const Subtables& subtables, const VerifyOptions& options) {
  if (options.part.number < 1 || options.part.number > options.part.count)
    throw std::invalid_argument("verify: part " + std::to_string(options.part.number) + " of " +
                                std::to_string(options.part.count) + " does not exist");
  VerifyErrorLog log(options.max_errors);
  VerifyReport report;
  report.part = options.part;
  tbb::task_arena arena(options.threads > 0 ? options.threads : tbb::task_arena::automatic);
  for (Color c : {Color::White, Color::Black}) {
    const auto range = options.part.range(c, size);
    VerifySideCounts& counts = report.sides[side(c)];
    if (range.first != range.second) {  // else the part checks none of this side: not loaded
      const Table& table = table_for(c);
      require_subtables(table, subtables);
      report.material = table.material();
      const Verifier verifier(table, subtables, log);
      arena.execute([&] { counts = verify_side(verifier, c, range, options.progress); });
    }
    counts.first = range.first;
  }
  for (const VerifySideCounts& s : report.sides) report.entries_checked += s.entries;
  report.error_count = log.count();
  report.errors = log.take();
  return report;
}

VerifyReport verify_table(const Table& table, const Subtables& subtables, int threads) {
  VerifyOptions options;
  options.threads = threads;
  return verify_table(table, subtables, options);
}

namespace {

// compare_with_full on entry i of side c: counted in `counts`, an error logged.
void compare_entry(const Table& subset, const Table& full, Color c, Index i, Position& pos,
                   VerifySideCounts& counts, VerifyErrorLog& log) {
  ++counts.entries;
  const Score stored = subset.at(c, i);
  const Score whole = full.at(c, subset.scheme().entry_in(full.scheme(), i));
  const Score expected = as_stored(full.rules(), subset.metrics(), whole);
  if (stored == expected) {
    if (stored.is_valid()) {
      ++counts.positions;
      ++counts.values[static_cast<size_t>(to_index(stored.value()))];
    }
    return;
  }
  ++counts.errors;
  const bool decodes = subset.scheme().decode(i, c, pos);
  log.add({c, i, decodes ? to_fen(pos) : "", stored, expected,
           "holds " + describe(stored) + " where the full table's " + describe(whole) + " makes " +
               describe(expected) + " in a table with " + to_string(subset.metrics())});
}

// compare_with_full on the entries of one side to move.
VerifySideCounts compare_side(const Table& subset, const Table& full, Color c, VerifyErrorLog& log) {
  tbb::enumerable_thread_specific<VerifySideCounts> local;
  tbb::parallel_for(tbb::blocked_range<Index>(0, subset.size(), VerifyGrain),
                    [&](const tbb::blocked_range<Index>& r) {
                      Position pos;
                      for (Index i = r.begin(); i != r.end(); ++i)
                        compare_entry(subset, full, c, i, pos, local.local(), log);
                    });
  return summed(local);
}

}  // namespace

VerifyReport compare_with_full(const Table& subset, const Table& full, const VerifyOptions& options) {
  if (subset.material() != full.material() || subset.rules() != full.rules() ||
      !full.metrics().contains(subset.metrics()))
    throw std::invalid_argument("compare " + subset.signature() + " (" + to_string(subset.metrics()) +
                                ") with " + full.signature() + " (" + to_string(full.metrics()) +
                                "): not the same table with more metrics");
  VerifyErrorLog log(options.max_errors);
  VerifyReport report;
  report.material = subset.material();
  tbb::task_arena arena(options.threads > 0 ? options.threads : tbb::task_arena::automatic);
  arena.execute([&] {
    for (Color c : {Color::White, Color::Black}) report.sides[side(c)] = compare_side(subset, full, c, log);
  });
  for (const VerifySideCounts& s : report.sides) report.entries_checked += s.entries;
  report.error_count = log.count();
  report.errors = log.take();
  return report;
}

std::string format_report(const VerifyReport& report) {
  std::ostringstream out;
  out << report.material.str();
  if (!report.part.whole()) out << " part " << report.part.number << " of " << report.part.count;
  out << ": " << report.entries_checked << " entries checked, " << report.error_count << " errors\n";
  for (Color c : {Color::White, Color::Black}) {
    const VerifySideCounts& s = report.sides[side(c)];
    out << "  " << (c == Color::White ? "wtm" : "btm");
    if (!report.part.whole()) {
      if (s.entries == 0) continue;
      out << " entries " << s.first << '-' << s.first + s.entries - 1;
    }
    out << ": " << s.positions << " positions (" << s.duplicates << " duplicate entries), values 0-4:";
    for (uint64_t n : s.values) out << ' ' << n;
    out << ", " << s.errors << " errors\n";
  }
  for (const VerifyError& e : report.errors)
    out << "  " << (e.side_to_move == Color::White ? "wtm" : "btm") << " entry " << e.index << ' '
        << (e.fen.empty() ? "(no position)" : e.fen) << ": " << e.problem << '\n';
  return out.str();
}

}  // namespace egtb::retro
