// egtb compare SIG... [--all N] [--dir DIR]: one endgame under the three rule sets side by side
// (stats/rules_comparison.hpp), as Markdown: value changes, deepest wins, examples with lines.
#include <iostream>

#include "api/errors.hpp"
#include "stats/rules_comparison.hpp"
#include "tools/egtb/commands.hpp"
#include "tools/egtb/options.hpp"

namespace egtb::cli {

int cmd_compare(const std::vector<std::string>& args) {
  CommandLine cl(
      "compare",
      "Compare tables under the three rule sets (lasker, stalemate-wins, stalemate-passes): values that "
      "change, deepest wins per winner, and examples with their optimal lines.");
  cl.rest("SIG", "material signatures whose tables of all three rule sets are in --dir");
  cl.options()("all", po::value<std::string>()->value_name("N"), "every table of 3 to N men")(
      "dir", po::value<std::string>()->value_name("DIR"), "table directory (default ./tables)");
  if (!cl.parse(args)) return ExitSuccess;
  const std::filesystem::path dir = cl.option("dir", "tables");
  std::vector<stats::RulesComparison> tables;
  for (const Material& m : parse_signatures(cl, "compare")) {
    for (Rules r : AllRules)
      if (const std::filesystem::path path = table_path(dir, m, r); !std::filesystem::exists(path))
        throw api::MissingTableError(path.string() + " is missing (build it with: egtb generate " + m.str() +
                                         " --rules " + std::string(rules_name(r)) + " --dir " + dir.string() +
                                         ")",
                                     m.normalized().str());
    tables.push_back(stats::compare_rules(dir, m));
  }
  std::cout << stats::rules_report(tables) << std::flush;
  return ExitSuccess;
}

}  // namespace egtb::cli
