// egtb generate SIG... [--all N] [--dir DIR] [--threads N] [--metrics dtm,dts] [--full-dir DIR] [--force]
// [--no-closure] [--compression-level N] [--max-memory SIZE] [--json]: builds tables with every table they
// depend on (api/tables.hpp).
#include <iomanip>
#include <iostream>
#include <sstream>
#include <utility>

#include "api/generate.hpp"
#include "api/json.hpp"
#include "api/options.hpp"
#include "tools/egtb/commands.hpp"
#include "tools/egtb/options.hpp"
#include "tools/egtb/progress.hpp"

namespace egtb::cli {

namespace {

std::string progress_text(const Material& m, const retro::Progress& p) {
  std::ostringstream out;
  out << std::left << std::setw(8) << m.str() << ' ';
  if (p.stage == retro::Stage::Solving && p.slices > 1) out << "slice " << p.slice << '/' << p.slices << ' ';
  if (p.stage == retro::Stage::Solving)
    out << metric_name(p.metric) << " ply " << p.ply << ", " << with_commas(p.resolved)
        << " positions resolved";
  else
    out << (p.stage == retro::Stage::Setup ? "setup" : "finish");
  out << std::fixed << std::setprecision(1) << " (" << p.seconds << " s)";
  return out.str();
}

std::string depth_text(int depth) { return depth < 0 ? "-" : std::to_string(depth); }

int max_depth(const TableHeader& h, Metric m) {
  return std::max(h.stats[0].max_depth(h.rules, m), h.stats[1].max_depth(h.rules, m));
}

std::string summary_line(const retro::GenerateRecord& r) {
  std::ostringstream out;
  const TableHeader& h = r.header;
  out << std::left << std::setw(8) << r.material.str() << (r.built ? " built " : " kept  ") << " positions w "
      << with_commas(h.stats[0].positions()) << " b " << with_commas(h.stats[1].positions());
  for (Metric m : rule_metrics(h.rules))
    out << "  max " << metric_name(m) << ' ' << depth_text(max_depth(h, m));
  out << "  " << with_commas(h.file_size) << " bytes (" << std::fixed << std::setprecision(4)
      << h.bytes_per_position() << " per position)";
  if (r.built)
    out << std::fixed << std::setprecision(2) << "  " << r.seconds << " s wall, " << r.cpu_seconds
        << " s cpu, peak " << (r.peak_rss_bytes >> 20) << " MB"
        << (r.slices > 1 ? " in " + std::to_string(r.slices) + " slices" : "")
        << (r.lean ? " on the lean path" : "");
  if (r.by_other_process) out << "  (built by another process)";
  if (!r.replaced.empty()) out << "\n  (replaced " << r.replaced << ")";
  return out.str();
}

// "waiting  for KQk, KRk (being built by another process)".
std::string waiting_line(const std::vector<Material>& held) {
  std::string list;
  for (const Material& m : held) list += (list.empty() ? "" : ", ") + m.str();
  return "waiting  for " + list + " (being built by another process)";
}

// The request of the command line; api::generate checks it.
api::GenerateRequest generate_request(const CommandLine& cl) {
  api::GenerateRequest request;
  request.signatures = cl.rest_arguments();
  request.all = all_option(cl);
  request.directory = cl.option("dir", "tables");
  request.threads = threads_option(cl);
  request.rules = rules_of(cl);
  if (cl.flag("metrics")) request.metrics = api::metrics_named(cl.option("metrics", "dtm,dts"), "--metrics");
  if (cl.flag("full-dir")) request.full_directory = cl.option("full-dir", "");
  request.force = cl.flag("force");
  request.closure = !cl.flag("no-closure");
  request.compression_level =
      parse_int(cl.option("compression-level", std::to_string(DefaultCompressionLevel)),
                "--compression-level", 1, MaxCompressionLevel);
  if (cl.flag("max-memory"))
    request.max_memory = api::bytes_named(cl.option("max-memory", ""), "--max-memory");
  return request;
}

}  // namespace

int cmd_generate(const std::vector<std::string>& args) {
  CommandLine cl("generate", "Build tables, after every table they depend on (captures, promotions).");
  cl.rest("SIG", "material signatures such as KQk, KRPkr or KQvK");
  cl.options()("all", po::value<std::string>()->value_name("N"), "every signature of 3 to N men")(
      "dir", po::value<std::string>()->value_name("DIR"), "table directory (default ./tables)")(
      "threads", po::value<std::string>()->value_name("N"), "worker threads (default: every core)")(
      "metrics", po::value<std::string>()->value_name("LIST"),
      "dtm,dts (default), dtm (mates only) or dts (stalemate-only files: values 3 and 1 with their DTS, "
      "everything else one value; needs --full-dir)")(
      "full-dir", po::value<std::string>()->value_name("DIR"),
      "with --metrics dts: the full tables to write them from, built there first when missing")(
      "force",
      "rebuild the named tables even when present (not their dependencies), once: a rebuild by another "
      "process after this one started counts")(
      "no-closure", "build the named tables alone; fail, naming them, when tables they need are missing")(
      "compression-level", po::value<std::string>()->value_name("N"),
      "zstd level of the files, 1 to 22 (default 3; 15-19: 13-22% smaller, far slower to write)")(
      "max-memory", po::value<std::string>()->value_name("SIZE"),
      "memory a table may take, such as 800M or 2G: a table estimated above it is solved one slice at a time "
      "(KRPkr in 235 MB instead of 1.5 GB) or on the lean path, in scratch files in --dir (default: each "
      "table in the least memory that costs no time and fits the machine's, KRPkr in 21 slices); a table "
      "that cannot be solved in the machine's memory is refused before any is built");
  cl.rules_option().json_option();
  if (!cl.parse(args)) return ExitSuccess;
  const api::GenerateRequest request = generate_request(cl);
  ProgressLine progress;
  api::GenerateCallbacks callbacks;
  callbacks.progress = [&](const Material& m, const retro::Progress& p) {
    progress.update([&] { return progress_text(m, p); });
  };
  callbacks.warning = [&](const Material&, const std::string& message) {
    progress.clear();
    std::cerr << "egtb generate: warning: " << message << std::endl;
  };
  std::vector<Material> waited_for;  // the last line shown: a line when what is waited for changes
  callbacks.waiting = [&](const std::vector<Material>& held) {
    if (held == std::exchange(waited_for, held)) return;
    progress.clear();
    if (!cl.json()) std::cout << waiting_line(held) << std::endl;
  };
  std::vector<retro::GenerateRecord> records;
  callbacks.on_table = [&](const retro::GenerateRecord& r) {
    waited_for.clear();
    progress.clear();
    if (cl.json())
      records.push_back(r);
    else
      std::cout << summary_line(r) << std::endl;
  };
  api::generate(request, callbacks, api::OptionSpelling::CommandLine);
  if (cl.json()) print_json(api::generate_json(request.directory, records));
  return ExitSuccess;
}

}  // namespace egtb::cli
