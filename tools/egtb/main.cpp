// egtb <command> [arguments]: dispatches to the subcommands of commands.hpp and turns
// exceptions into exit codes (1 runtime failure, 2 usage error or bad input, 141 standard output
// closed by its reader). Standard output is checked (output.hpp): a write that fails ends the
// command.
#include <exception>
#include <filesystem>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "tools/egtb/commands.hpp"
#include "tools/egtb/options.hpp"
#include "tools/egtb/output.hpp"

namespace egtb::cli {

namespace {

struct Command {
  std::string_view name;
  std::string_view summary;
  int (*run)(const std::vector<std::string>&);
};

// One line per command, in the order `egtb --help` lists them.
constexpr Command Commands[] = {
    {"generate", "build tables with every table they depend on", cmd_generate},
    {"plan", "the jobs of a set of tables for Make, Slurm or another engine", cmd_plan},
    {"probe", "the value and depth of a position, of each move, and the optimal line", cmd_probe},
    {"info", "describe a signature's index or a table file (verifying its checksums)", cmd_info},
    {"recompress", "rewrite finished tables at a higher zstd level: the same entries in fewer bytes",
     cmd_recompress},
    {"verify", "check tables one ply forward and against the Gaviota tables", cmd_verify},
    {"query", "run a CQL query over every position of tables, a list of FENs or PGN games", cmd_query},
    {"annotate", "check PGN games and studies against the tables: values, only moves, duals, concessions",
     cmd_annotate},
    {"stats", "print the article's Tables 1 and 2, depth histograms and SVG figures of tables", cmd_stats},
    {"compare", "one endgame under the three rule sets side by side: value changes, deepest wins",
     cmd_compare},
    {"serve", "a local web page and HTTP API to probe, explore and query tables", cmd_serve},
    {"perft", "count the leaf nodes of the legal move tree of a position", cmd_perft},
    {"fen", "check a FEN, print it normalised with the legal moves in SAN", cmd_fen},
    {"bench", "time a workload (bench perft)", cmd_bench},
};

void print_usage(std::ostream& out) {
  out << "Usage: egtb <command> [arguments] [options]\n"
         "       egtb <command> --help\n\n"
         "Chess endgame tables for Lasker chess (stalemate is a lesser win).\n\nCommands:\n";
  for (const Command& c : Commands)
    out << "  " << c.name << std::string(12 - c.name.size(), ' ') << c.summary << '\n';
  out << "\nOptions:\n  -h [ --help ]  print this help\n  --version      print the version\n";
}

int dispatch(const std::vector<std::string>& args) {
  if (args.empty()) throw UsageError("missing command (see egtb --help)");
  const std::string& name = args.front();
  if (name == "--help" || name == "-h" || name == "help") {
    print_usage(std::cout);
    return ExitSuccess;
  }
  if (name == "--version") {
    std::cout << "egtb " << EGTB_VERSION << '\n';
    return ExitSuccess;
  }
  for (const Command& c : Commands)
    if (name == c.name) return c.run({args.begin() + 1, args.end()});
  throw UsageError("unknown command '" + name + "' (see egtb --help)");
}

// "cannot create directories PATH: Not a directory": the operation, the path (and the second
// path of a copy or rename) and the reason, without the library's "filesystem error:" wording.
std::string filesystem_message(const std::filesystem::filesystem_error& e) {
  std::string operation = e.what();
  constexpr std::string_view Prefix = "filesystem error: ";
  if (operation.starts_with(Prefix)) operation.erase(0, Prefix.size());
  operation = operation.substr(0, operation.find(": " + e.code().message()));
  std::string paths = e.path1().string();
  if (!e.path2().empty()) paths += " and " + e.path2().string();
  return operation + (paths.empty() ? "" : " " + paths) + ": " + e.code().message();
}

// A failed write on standard output: quiet when the reader has gone (`| head`), else a message.
int output_failed(const OutputError& e) {
  std::cout.exceptions(std::ios::goodbit);  // the stream is bad now; nothing more is written
  if (e.broken_pipe()) return ExitBrokenPipe;
  std::cerr << "egtb: " << e.what() << '\n';
  return ExitFailure;
}

}  // namespace

int run(const std::vector<std::string>& args) {
  int status = ExitFailure;
  try {
    status = dispatch(args);
  } catch (const OutputError& e) {
    return output_failed(e);
  } catch (const UsageError& e) {
    std::cerr << "egtb: " << e.what() << '\n';
    status = ExitUsage;
  } catch (const std::filesystem::filesystem_error& e) {
    std::cerr << "egtb: " << filesystem_message(e) << '\n';
  } catch (const std::exception& e) {
    std::cerr << "egtb: " << e.what() << '\n';
  }
  try {
    finish_stdout();  // what a failing command printed before its error goes out too
  } catch (const OutputError& e) {
    return output_failed(e);
  }
  return status;
}

}  // namespace egtb::cli

int main(int argc, char** argv) {
  egtb::cli::check_stdout();
  return egtb::cli::run({argv + 1, argv + argc});
}
