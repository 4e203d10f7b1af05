// The subcommands of `egtb`. Each takes the arguments after its name and returns the exit
// status; usage errors and bad input are thrown as UsageError (options.hpp).
//
// Adding a command: write cmd_<name>.cpp, declare it here and list it in main.cpp's table.
#pragma once

#include <string>
#include <vector>

namespace egtb::cli {

int cmd_bench(const std::vector<std::string>& args);
int cmd_fen(const std::vector<std::string>& args);
int cmd_perft(const std::vector<std::string>& args);

}  // namespace egtb::cli
