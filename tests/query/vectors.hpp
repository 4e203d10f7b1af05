// The CQL 6.2 test vectors of ../shared/reference/cql: one row per position with the values of
// mate, stalemate and the six pure/model/ideal filters ("<true>", "<false>", "[c6,b7,a8]", "[]").
#pragma once

#include <array>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace egtb::test {

struct VectorRow {
  std::string label;  // the endgame or the description
  std::string fen;
  std::array<std::string, 8> values;  // mate stalemate puremate modelmate idealmate pure/model/idealstalemate
};

inline constexpr std::array<const char*, 8> VectorColumns = {
    "mate",      "stalemate",     "puremate",       "modelmate",
    "idealmate", "purestalemate", "modelstalemate", "idealstalemate"};

// Splits "a|b|c" on '|'.
inline std::vector<std::string> split_row(const std::string& line) {
  std::vector<std::string> fields(1);
  for (char c : line) {
    if (c == '|')
      fields.emplace_back();
    else if (c != '\n' && c != '\r')
      fields.back() += c;
  }
  return fields;
}

// Calls `each` for every data row of the file (plain, or gzip-compressed when it ends in .gz);
// returns the number of rows, or -1 when the file cannot be read.
inline long for_each_vector(const std::filesystem::path& file,
                            const std::function<void(const VectorRow&)>& each) {
  const bool gz = file.extension() == ".gz";
  const std::string command = "gzip -dc '" + file.string() + "'";
  FILE* in = gz ? popen(command.c_str(), "r") : std::fopen(file.c_str(), "r");
  if (!in) return -1;
  long rows = 0;
  std::string line;
  char buffer[4096];
  while (std::fgets(buffer, sizeof buffer, in)) {
    line = buffer;
    if (line.empty() || line[0] == '#') continue;
    const std::vector<std::string> f = split_row(line);
    if (f.size() != 10) continue;
    VectorRow row{f[0], f[1], {}};
    for (size_t i = 0; i < 8; ++i) row.values[i] = f[i + 2];
    each(row);
    ++rows;
  }
  if (gz)
    pclose(in);
  else
    std::fclose(in);
  return rows;
}

}  // namespace egtb::test
