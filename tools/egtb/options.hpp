// What every subcommand shares: exit codes, the usage-error exception, a command line with
// positional arguments, --help and --json, and parsers for the common argument kinds.
#pragma once

// GCC 12 reports -Wnull-dereference inside Boost's typed_value<T>::notify (a false positive of
// its middle end, raised in system headers once inlined), hence the local suppression.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wnull-dereference"
#include <boost/program_options.hpp>
#pragma GCC diagnostic pop
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "api/errors.hpp"
#include "api/json.hpp"
#include "api/position_input.hpp"
#include "egtb/core/material.hpp"
#include "egtb/core/position.hpp"
#include "egtb/store/rules.hpp"
#include "indexing/index.hpp"

namespace egtb::cli {

namespace po = boost::program_options;
using api::Json;

inline constexpr int ExitSuccess = 0;
inline constexpr int ExitFailure = 1;  // runtime failure
inline constexpr int ExitUsage = 2;    // usage error or bad input

// A usage error or bad input (api/errors.hpp); main prints "egtb: <message>" on stderr and exits
// with ExitUsage.
using UsageError = api::InputError;

// The command line of one subcommand: required positional arguments in order, named options,
// and --help. Example:
//   CommandLine cl("perft", "Count the leaf nodes of the legal move tree.");
//   cl.positional("FEN", "the position").positional("DEPTH", "plies to search");
//   cl.options()("divide", "print the leaf count below each move");
//   cl.json_option();
//   if (!cl.parse(args)) return ExitSuccess;  // --help was printed
class CommandLine {
public:
  CommandLine(std::string name, std::string summary);

  // Adds a required positional argument; they are matched in the order added.
  CommandLine& positional(std::string name, std::string description);
  // Adds named options with Boost's chained syntax: options()("divide", "help text").
  po::options_description_easy_init options() { return options_.add_options(); }
  // Accepts any number of further positional arguments after the required ones (e.g. SIG...).
  CommandLine& rest(std::string name, std::string description);
  // Adds the --json flag.
  CommandLine& json_option();
  // Adds --rules lasker|stalemate-wins|stalemate-passes (egtb/store/rules.hpp).
  CommandLine& rules_option();

  // Parses the arguments after the command name. Returns false when --help was given (the help
  // is then on stdout); throws UsageError on unknown options and missing or extra arguments.
  [[nodiscard]] bool parse(const std::vector<std::string>& args);

  // The value of a positional argument, by the name given to positional().
  [[nodiscard]] const std::string& argument(const std::string& name) const;
  // The arguments after the required ones (see rest()).
  [[nodiscard]] std::vector<std::string> rest_arguments() const;
  // True when a flag (an option without value) was given.
  [[nodiscard]] bool flag(const std::string& name) const { return values_.count(name) > 0; }
  // The value of an option taking a string, or `fallback` when it was not given.
  [[nodiscard]] std::string option(const std::string& name, const std::string& fallback) const;
  [[nodiscard]] bool json() const { return flag("json"); }

  void print_help(std::ostream& out) const;

private:
  struct Positional {
    std::string name;
    std::string description;
  };

  std::string name_;
  std::string summary_;
  std::vector<Positional> positionals_;
  std::optional<Positional> rest_;
  po::options_description options_{"Options"};
  po::variables_map values_;
  std::vector<std::string> arguments_;

  void check_arguments() const;
};

// The position of a FEN argument; "startpos" is the initial position and '_' may stand for a space
// (api/position_input.hpp).
using api::parse_position;

// The canonical signatures of the texts ("KQk", "KQvK"), plus every signature of 3 to N men when
// the command line has --all N (N at most max_men: `egtb plan` estimates tables this build cannot
// generate); a bad or missing signature throws UsageError naming the command.
[[nodiscard]] std::vector<Material> parse_signatures(const CommandLine& cl, const std::string& command,
                                                     int max_men = Material::MaxMen);
// The N of --all N, when given: 3 to max_men.
[[nodiscard]] std::optional<int> all_option(const CommandLine& cl, int max_men = Material::MaxMen);
// --convention: index462, physical or classes (default index462).
[[nodiscard]] indexing::Convention convention_option(const CommandLine& cl);
// --threads N: 0 (every core) to 1024.
[[nodiscard]] int threads_option(const CommandLine& cl);
// --cache-mb N: a decoded-block cache of N MiB (1 to 2^20, default 1024), in bytes.
[[nodiscard]] size_t cache_bytes_option(const CommandLine& cl);
// --rules NAME (default lasker).
[[nodiscard]] Rules rules_of(const CommandLine& cl);

// --threads N,N,...: the thread counts a benchmark runs with (default 1,2).
[[nodiscard]] std::vector<int> thread_list_option(const CommandLine& cl);

// A whole number in [min, max]; `what` names it in the error message.
[[nodiscard]] int parse_int(const std::string& text, const std::string& what, int min, int max);

// Writes JSON to stdout, indented by two spaces, with a final newline.
void print_json(const Json& json);

}  // namespace egtb::cli
