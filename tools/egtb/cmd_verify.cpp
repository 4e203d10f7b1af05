// egtb verify SIG... [--all N] [--dir DIR] [--gaviota DIR] [--threads N] [--json]: checks tables
// independently of the solver (every position against its successors, one ply forward) and, when
// built with libgaviotatb, values 4/0 and DTM of 3-4-man tables against the Gaviota tables.
#include <iostream>

#include "retro/scheduler.hpp"
#include "retro/verify.hpp"
#ifdef EGTB_HAVE_GAVIOTA
#include "retro/gaviota.hpp"
#endif
#include "tools/egtb/commands.hpp"
#include "tools/egtb/options.hpp"

namespace egtb::cli {

namespace {

Json errors_json(const std::vector<retro::VerifyError>& errors) {
  Json out = Json::array();
  for (const retro::VerifyError& e : errors)
    out.push_back({{"side_to_move", std::string(1, color_char(e.side_to_move))},
                   {"index", e.index},
                   {"fen", e.fen},
                   {"stored", describe(e.stored)},
                   {"expected", describe(e.expected)},
                   {"problem", e.problem}});
  return out;
}

struct TableOutcome {
  Json json;
  bool ok = true;
};

TableOutcome check_one(const Material& m, const CommandLine& cl, int threads) {
  const std::filesystem::path dir = cl.option("dir", "tables");
  const auto table = retro::load_solved_table(retro::table_path(dir, m));
  const retro::Subtables subtables = retro::load_subtables(m, dir, table->has_dts);
  const retro::VerifyReport report = retro::verify_table(*table, subtables, threads);
  if (!cl.json()) std::cout << retro::format_report(report) << std::flush;
  TableOutcome out{{{"signature", m.str()},
                    {"entries_checked", report.entries_checked},
                    {"errors", report.error_count},
                    {"first_errors", errors_json(report.errors)}},
                   report.ok()};
  if (!cl.flag("gaviota") || m.men() > 4) return out;
#ifdef EGTB_HAVE_GAVIOTA
  const retro::GaviotaReport gaviota = retro::compare_with_gaviota(*table, cl.option("gaviota", ""), threads);
  if (!cl.json()) std::cout << retro::format_report(gaviota) << std::flush;
  out.json["gaviota"] = {{"positions_checked", gaviota.positions_checked},
                         {"errors", gaviota.error_count},
                         {"first_errors", errors_json(gaviota.errors)}};
  out.ok = out.ok && gaviota.ok();
#endif
  return out;
}

void check_gaviota_option(const CommandLine& cl) {
  if (!cl.flag("gaviota")) return;
#ifndef EGTB_HAVE_GAVIOTA
  throw UsageError(
      "--gaviota: this egtb was built without libgaviotatb (apt-get install libgaviotatb-dev, then rebuild)");
#else
  if (!std::filesystem::is_directory(cl.option("gaviota", "")))
    throw UsageError("--gaviota: '" + cl.option("gaviota", "") + "' is not a directory");
#endif
}

}  // namespace

int cmd_verify(const std::vector<std::string>& args) {
  CommandLine cl("verify", "Check tables one ply forward, and against the Gaviota tables (values 4/0, DTM).");
  cl.rest("SIG", "material signatures of tables in --dir");
  cl.options()("all", po::value<std::string>()->value_name("N"), "every table of 3 to N men")(
      "dir", po::value<std::string>()->value_name("DIR"), "table directory (default ./tables)")(
      "gaviota", po::value<std::string>()->value_name("DIR"), "also compare 3-4-man tables with Gaviota's")(
      "threads", po::value<std::string>()->value_name("N"), "worker threads (default: every core)");
  cl.json_option();
  if (!cl.parse(args)) return ExitSuccess;
  check_gaviota_option(cl);
  const int threads = parse_int(cl.option("threads", "0"), "--threads", 0, 1024);
  Json tables = Json::array();
  bool ok = true;
  for (const Material& m : parse_signatures(cl, "verify")) {
    TableOutcome outcome = check_one(m, cl, threads);
    ok = ok && outcome.ok;
    tables.push_back(std::move(outcome.json));
  }
  if (cl.json()) print_json({{"ok", ok}, {"tables", tables}});
  return ok ? ExitSuccess : ExitFailure;
}

}  // namespace egtb::cli
