// libFuzzer target for the PGN reader: the input is a PGN file as `annotate` and `query --pgn-in`
// read it (pgn::GameReader: the lexer, the parser with its per-game limits, replay). Checked,
// besides no crash, hang, leak or undefined behaviour: every game read writes as PGN that reads
// back as one game without error and writes again to the same text (pgn/writer.hpp's round trip).
// Built with -DEGTB_FUZZ=ON under clang 16 (see tests/query/fuzz_parser.cpp and README.md):
//   build-fuzz/tests/fuzz/fuzz_pgn build-fuzz/corpus-pgn tests/fuzz/corpus/pgn -max_total_time=600
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>

#include "pgn/reader.hpp"
#include "pgn/writer.hpp"

namespace {

using namespace egtb;

[[noreturn]] void fail(const std::string& what, const std::string& text) {
  std::cerr << "fuzz_pgn: " << what << ":\n" << text << '\n';
  std::abort();
}

// The game written, read back and written again.
void check_round_trip(const pgn::Game& game) {
  const std::string text = pgn::to_pgn(game);
  std::istringstream in(text);
  pgn::GameReader reader(in);
  auto again = reader.next();
  if (!again) fail("the written game reads as no game", text);
  if (!*again)
    fail("the written game does not read back: " + pgn::format_error(again->error(), "written"), text);
  if (reader.next()) fail("the written game reads as more than one game", text);
  if (pgn::to_pgn(**again) != text) fail("the game read back writes otherwise", text);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  pgn::GameReader reader(in);
  while (auto game = reader.next())
    if (*game) check_round_trip(**game);
  return 0;
}
