// libFuzzer target for the whole query layer without tables: any input must lex, parse, analyse,
// print, plan and compile, and the compiled query must evaluate on a few fixed positions and on
// every position of a small game with variations and a null move (the game filters), without
// crashing, hanging, leaking or undefined behaviour; errors are ordinary results and are
// formatted. Built with -DEGTB_FUZZ=ON under clang (see fuzz_parser.cpp for the build lines):
//   mkdir -p build-fuzz/corpus
//   build-fuzz/tests/query/fuzz_query_eval build-fuzz/corpus tests/fuzz/corpus/query -max_total_time=600
// (new inputs go to the first directory; the seeds stay as they are).
//
// CQL can ask for exponential work ("square x in . square y in . square z in . ..." runs its
// body 64^3 times, nested move filters multiply the legal moves), which is the language, not a
// bug. So a query whose estimated work per position exceeds MaxWork filter runs is compiled but
// not evaluated.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include <sstream>

#include "egtb/core/fen.hpp"
#include "pgn/reader.hpp"
#include "query/eval.hpp"
#include "query/parser.hpp"
#include "query/print.hpp"
#include "query/scan_plan.hpp"
#include "query/transform.hpp"

namespace {

using namespace egtb;
using namespace egtb::query;

constexpr double MaxWork = 1e5;
constexpr double MovesPerPosition = 40;    // about the most the positions below and their successors have
constexpr double ReachabilityWork = 1000;  // reachableposition searches three plies back

// The start position, mates and stalemates, pins, an e.p. capture, a promotion, castling rights
// and a position with a king missing.
constexpr const char* Fens[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "k7/1Q6/2K5/8/8/8/8/8 b - - 0 1",
    "k7/8/1Q6/8/8/8/8/7K b - - 0 1",
    "4k3/4r3/8/8/8/8/4R3/4K3 w - - 0 1",
    "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
    "8/3P4/8/8/8/8/8/k1K5 w - - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
    "8/8/8/8/8/8/8/4K3 w - - 0 1",
};

// An upper bound of the filter runs the evaluation of n takes on one position: loops run their
// body for each square, move filters their operands for each legal move, transforms their operand
// for each step.
double work(const Node& n) {
  double sum = 1;
  for (const NodePtr& c : n.children) sum += work(*c);
  if (n.expansion) sum += work(*n.expansion);
  switch (n.kind) {
    case NodeKind::Function: return 0;
    case NodeKind::SquareLoop:
    case NodeKind::PieceLoop: return work(n.child(0)) + 64 * work(n.child(1));
    case NodeKind::Move: return MovesPerPosition * sum;
    case NodeKind::Keyword: return n.keyword == Keyword::ReachablePosition ? ReachabilityWork : 1;
    case NodeKind::Transform: return static_cast<double>(transform_family(n.transform).size()) * sum;
    default: return sum;
  }
}

std::vector<Position> positions() {
  std::vector<Position> out;
  for (const char* fen : Fens)
    if (const Expected<Position, FenError> p = parse_fen(fen)) out.push_back(*p);
  return out;
}

// A game with a variation inside a variation, a null move, captures and promotions.
pgn::Game game() {
  std::istringstream in(
      "[Result \"*\"]\n[FEN \"4k3/P7/8/8/8/5q2/8/R3K3 w Q - 0 1\"]\n\n"
      "1. a8=Q+ (1. Ra2 -- (1... Kd7 2. a8=N) 2. Ra5) 1... Kd7 2. Qb7+ (2. Ra7+ Kd6) 2... Kd6 3. Qb4+ Kd5 "
      "4. Rd1+ Qxd1+ 5. Kxd1 *\n");
  pgn::GameReader reader(in);
  auto g = reader.next();
  return g && *g ? std::move(**g) : pgn::Game();
}

// Runs the program on every position and game node. A RunError (a budget or a value CQL refuses
// at run time, eval.hpp) is the evaluator's documented answer, as the command prints it: the work
// estimate bounds loops over sets, not `while`, whose budget the evaluator enforces itself.
void evaluate(const Program& program, std::string_view text) {
  static const std::vector<Position> Positions = positions();
  static const pgn::Game Game = game();
  Evaluator evaluator(program);
  try {
    for (const Position& pos : Positions) {
      (void)evaluator.matches(pos);
      (void)evaluator.evaluate(pos);
    }
    for (pgn::NodeId n : Game.preorder()) (void)evaluator.evaluate(Game, n);
  } catch (const RunError& e) {
    (void)format_error(e.error(), text);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Expected<NodePtr, QueryError> tree = parse(text);
  if (!tree) {
    (void)format_error(tree.error(), text);
    return 0;
  }
  (void)to_sexpr(**tree);
  const Expected<SemaInfo, QueryError> info = analyze(**tree);
  if (!info) {
    (void)format_error(info.error(), text);
    return 0;
  }
  (void)ScoreCondition::of(**tree);
  (void)symmetry_invariant(**tree, false);
  (void)symmetry_invariant(**tree, true);
  const Expected<Program, QueryError> program = compile(**tree, *info);
  if (!program) {
    (void)format_error(program.error(), text);
    return 0;
  }
  if (work(**tree) <= MaxWork) evaluate(*program, text);
  return 0;
}
