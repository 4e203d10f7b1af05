// Helpers of the PGN tests: reading text, comparing game trees, and pgn-extract (Debian's
// pgn-extract package) as an independent reader of what egtb writes.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pgn/game.hpp"
#include "pgn/parser.hpp"

namespace egtb::test {

// Every game of a PGN text, replayed, and every error.
struct ReadResult {
  std::vector<pgn::Game> games;
  std::vector<pgn::PgnError> errors;
};
[[nodiscard]] ReadResult read_text(std::string_view text);

// The first difference between two games' trees (moves, NAGs, comments, variations, start
// position, result) and tags (a tag of one missing in the other, unless it is a seven-tag-roster
// placeholder or the FEN and SetUp the writer adds), or an empty string when there is none.
[[nodiscard]] std::string tree_difference(const pgn::Game& a, const pgn::Game& b);

// What pgn-extract -r reports about a file.
struct PgnExtractReport {
  uint64_t matched = 0;  // "N games matched out of M."
  uint64_t total = 0;
  std::vector<std::string> diagnostics;  // its messages (--quiet), "File ...: Line number: N" left out
};

// pgn-extract: $EGTB_PGN_EXTRACT, /usr/games/pgn-extract or pgn-extract on the PATH; nothing
// when it is not installed.
[[nodiscard]] std::optional<std::filesystem::path> pgn_extract();
// Runs `pgn-extract -r` on the file.
[[nodiscard]] PgnExtractReport run_pgn_extract(const std::filesystem::path& program,
                                               const std::filesystem::path& file);
// The eco.pgn pgn-extract ships ($EGTB_ECO_PGN overrides), or nothing.
[[nodiscard]] std::optional<std::filesystem::path> eco_pgn();

// Writes the text to a file and checks (Catch2) that pgn-extract reads `count` games from it
// without a message; without pgn-extract, warns "SKIPPED: ...".
void check_with_pgn_extract(const std::string& text, uint64_t count, const std::string& name);

// A file name in the temporary directory, unique to this process.
[[nodiscard]] std::filesystem::path temp_file(std::string_view name);

}  // namespace egtb::test
