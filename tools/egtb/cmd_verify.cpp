// egtb verify SIG... [--all N] [--dir DIR] [--gaviota DIR] [--full-dir DIR] [--threads N] [--json]:
// checks tables independently of the solver (every position against its successors, one ply
// forward) and, when built with libgaviotatb, values 4/0 and DTM of 3-4-man tables against the
// Gaviota tables; a stalemate-only table against its full table in --full-dir.
#include <iostream>

#include "api/json.hpp"
#include "api/tables.hpp"
#include "tools/egtb/commands.hpp"
#include "tools/egtb/options.hpp"

namespace egtb::cli {

int cmd_verify(const std::vector<std::string>& args) {
  CommandLine cl("verify", "Check tables one ply forward, and against the Gaviota tables (values 4/0, DTM).");
  cl.rest("SIG", "material signatures of tables in --dir");
  cl.options()("all", po::value<std::string>()->value_name("N"), "every table of 3 to N men")(
      "dir", po::value<std::string>()->value_name("DIR"), "table directory (default ./tables)")(
      "gaviota", po::value<std::string>()->value_name("DIR"), "also compare 3-4-man tables with Gaviota's")(
      "full-dir", po::value<std::string>()->value_name("DIR"),
      "the full tables that stalemate-only ones (--metrics dts) are checked against, entry by entry")(
      "threads", po::value<std::string>()->value_name("N"), "worker threads (default: every core)")(
      "cache-mb", po::value<std::string>()->value_name("MB"),
      "decoded-block cache of the subtables read block by block, in MiB (default 1024)");
  cl.rules_option().json_option();
  if (!cl.parse(args)) return ExitSuccess;
  api::VerifyRequest request;
  request.directory = cl.option("dir", "tables");
  if (cl.flag("gaviota")) request.gaviota = cl.option("gaviota", "");
  if (cl.flag("full-dir")) request.full_directory = cl.option("full-dir", "");
  request.threads = threads_option(cl);
  request.cache_bytes = cache_bytes_option(cl);
  request.rules = rules_of(cl);
  api::check_gaviota(request.gaviota);
  std::vector<api::VerifyOutcome> outcomes;
  bool ok = true;
  for (const Material& m : parse_signatures(cl, "verify")) {
    outcomes.push_back(api::verify(m, request));
    if (!cl.json()) std::cout << outcomes.back().text << std::flush;
    ok = ok && outcomes.back().ok();
  }
  if (cl.json()) print_json(api::verify_json(outcomes));
  return ok ? ExitSuccess : ExitFailure;
}

}  // namespace egtb::cli
