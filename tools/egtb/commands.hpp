// The subcommands of `egtb`. Each takes the arguments after its name and returns the exit
// status; usage errors and bad input are thrown as UsageError (options.hpp).
//
// Adding a command: write cmd_<name>.cpp, declare it here and list it in main.cpp's table.
#pragma once

#include <string>
#include <vector>

namespace egtb::cli {

int cmd_annotate(const std::vector<std::string>& args);
int cmd_bench(const std::vector<std::string>& args);
// `egtb bench generate` (bench_generate.cpp).
int bench_generate(const std::vector<std::string>& args);
// `egtb bench index` (bench_index.cpp).
int bench_index(const std::vector<std::string>& args);
// `egtb bench pgn` (bench_pgn.cpp).
int bench_pgn(const std::vector<std::string>& args);
// `egtb bench probe` (bench_probe.cpp).
int bench_probe(const std::vector<std::string>& args);
// `egtb bench query` (bench_query.cpp).
int bench_query(const std::vector<std::string>& args);
int cmd_compare(const std::vector<std::string>& args);
int cmd_fen(const std::vector<std::string>& args);
int cmd_generate(const std::vector<std::string>& args);
int cmd_info(const std::vector<std::string>& args);
int cmd_plan(const std::vector<std::string>& args);
int cmd_perft(const std::vector<std::string>& args);
int cmd_probe(const std::vector<std::string>& args);
int cmd_query(const std::vector<std::string>& args);
int cmd_recompress(const std::vector<std::string>& args);
int cmd_serve(const std::vector<std::string>& args);
int cmd_stats(const std::vector<std::string>& args);
int cmd_verify(const std::vector<std::string>& args);

}  // namespace egtb::cli
