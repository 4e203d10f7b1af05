// libFuzzer target for the FEN and EPD readers: the input is a file of lines as `probe --epd` and
// `query --fens` read it (api::LineReader with a short line cap, the UTF-8 check, fen_of_line).
// Each line is parsed as a legal position (parse_fen, FenCheck::Legal: what probes and tables
// need) and as a CQL board (FenCheck::Board: anything the placement field spells, missing or
// extra kings, triple checks, pawns on the last rank). Checked, besides no crash, hang, leak or
// undefined behaviour:
//   - a legal position prints as a FEN that parses back to the same FEN, its legal moves can be
//     made, and its colour flip is legal too;
//   - a board evaluates under a few queries that walk its moves, attacks and legality (CQL
//     evaluates positions no game reaches; legalposition and reachableposition detect them).
// Built with -DEGTB_FUZZ=ON under clang 16 (see tests/query/fuzz_parser.cpp and docs/testing.md):
//   build-fuzz/tests/fuzz/fuzz_fen build-fuzz/corpus-fen tests/fuzz/corpus/fen -max_total_time=600
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "api/batch.hpp"
#include "api/input.hpp"
#include "egtb/core/fen.hpp"
#include "egtb/core/movegen.hpp"
#include "query/eval.hpp"
#include "query/scan.hpp"

namespace {

using namespace egtb;

constexpr const char* Queries[] = {
    "check or mate or stalemate",
    "legalposition or reachableposition",
    "move legal (check or A attacks k)",
    "A->k==1 or R -> n -> k or between(K k) power A distance(K k)",
    "purestalemate or modelmate or idealstalemate",
};

const std::vector<query::ScanQuery>& queries() {
  static const std::vector<query::ScanQuery> compiled = [] {
    std::vector<query::ScanQuery> out;
    for (const char* text : Queries) {
      Expected<query::ScanQuery, query::QueryError> q = query::prepare_query(text);
      if (!q) std::abort();  // the harness's own queries must compile
      out.push_back(std::move(*q));
    }
    return out;
  }();
  return compiled;
}

void check_legal(const Position& pos) {
  const std::string fen = to_fen(pos);
  const Expected<Position, FenError> again = parse_fen(fen);
  if (!again || to_fen(*again) != fen) std::abort();  // printing and reading disagree
  for (const Move m : legal_moves(pos)) {
    Position next = pos;
    next.do_move(m);
    if (validate_table_position(next)) std::abort();  // a legal move left an illegal position
  }
  if (validate(color_flipped(pos))) std::abort();
}

void evaluate_board(const Position& pos) {
  for (const query::ScanQuery& q : queries()) {
    query::Evaluator evaluator(q.program);
    (void)evaluator.evaluate(pos);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  api::LineReader reader(in, 256);
  while (std::optional<api::Line> line = reader.next()) {
    if (line->too_long || !api::is_utf8(line->text)) continue;
    const std::string fen = api::fen_of_line(line->text);
    if (const Expected<Position, FenError> pos = parse_fen(fen)) check_legal(*pos);
    if (const Expected<Position, FenError> board = parse_fen(fen, FenCheck::Board)) evaluate_board(*board);
  }
  return 0;
}
