// egtb generate SIG... [--all N] [--dir DIR] [--threads N] [--metrics dtm,dts] [--force]
// [--compression-level N] [--json]: builds tables with every table they depend on.
#include <iomanip>
#include <iostream>
#include <sstream>

#include "egtb/store/reader.hpp"
#include "egtb/store/writer.hpp"
#include "retro/scheduler.hpp"
#include "tools/egtb/commands.hpp"
#include "tools/egtb/options.hpp"
#include "tools/egtb/progress.hpp"

namespace egtb::cli {

namespace {

// --metrics: "dtm,dts" (the default) or "dtm"; true when DTS is wanted.
bool parse_metrics(const std::string& text) {
  if (text == "dtm,dts" || text == "dts,dtm") return true;
  if (text == "dtm") return false;
  throw UsageError("--metrics must be 'dtm,dts' or 'dtm', not '" + text + "'");
}

std::string progress_text(const Material& m, const retro::Progress& p) {
  std::ostringstream out;
  out << std::left << std::setw(8) << m.str() << ' ' << retro::phase_name(p.phase);
  if (p.phase == retro::Phase::Mates || p.phase == retro::Phase::Stalemates)
    out << " ply " << p.ply << ", " << with_commas(p.resolved) << " positions resolved";
  out << std::fixed << std::setprecision(1) << " (" << p.seconds << " s)";
  return out.str();
}

std::string depth_text(int depth) { return depth < 0 ? "-" : std::to_string(depth); }

std::string summary_line(const retro::BuildRecord& r) {
  std::ostringstream out;
  out << std::left << std::setw(8) << r.material.str() << (r.built ? " built " : " kept  ") << " positions w "
      << with_commas(r.stats[0].positions()) << " b " << with_commas(r.stats[1].positions()) << "  max DTM "
      << depth_text(std::max(r.stats[0].max_dtm, r.stats[1].max_dtm)) << "  max DTS "
      << depth_text(std::max(r.stats[0].max_dts, r.stats[1].max_dts));
  const TableHeader h = read_header(r.path);
  out << "  " << with_commas(h.file_size) << " bytes (" << std::fixed << std::setprecision(4)
      << h.bytes_per_position() << " per position)";
  if (r.built)
    out << std::fixed << std::setprecision(2) << "  " << r.seconds << " s wall, " << r.cpu_seconds
        << " s cpu, peak " << (r.peak_rss_bytes >> 20) << " MB";
  return out.str();
}

Json side_json(const SideStats& s) {
  return {{"positions", s.positions()},
          {"max_dtm", s.max_dtm < 0 ? Json() : Json(s.max_dtm)},
          {"max_dts", s.max_dts < 0 ? Json() : Json(s.max_dts)}};
}

Json record_json(const retro::BuildRecord& r) {
  const TableHeader h = read_header(r.path);
  return {{"signature", r.material.str()},
          {"path", r.path.string()},
          {"built", r.built},
          {"file_size", h.file_size},
          {"bytes_per_position", h.bytes_per_position()},
          {"sides", {{"w", side_json(r.stats[0])}, {"b", side_json(r.stats[1])}}},
          {"seconds", r.seconds},
          {"cpu_seconds", r.cpu_seconds},
          {"peak_rss_bytes", r.peak_rss_bytes}};
}

}  // namespace

int cmd_generate(const std::vector<std::string>& args) {
  CommandLine cl("generate", "Build tables, after every table they depend on (captures, promotions).");
  cl.rest("SIG", "material signatures such as KQk, KRPkr or KQvK");
  cl.options()("all", po::value<std::string>()->value_name("N"), "every signature of 3 to N men")(
      "dir", po::value<std::string>()->value_name("DIR"), "table directory (default ./tables)")(
      "threads", po::value<std::string>()->value_name("N"), "worker threads (default: every core)")(
      "metrics", po::value<std::string>()->value_name("LIST"), "dtm,dts (default) or dtm (mates only)")(
      "force", "rebuild the named tables even when present (not their dependencies)")(
      "compression-level", po::value<std::string>()->value_name("N"),
      "zstd level of the files, 1 to 22 (default 3; 15-19: 13-22% smaller, far slower to write)");
  cl.json_option();
  if (!cl.parse(args)) return ExitSuccess;
  retro::BuildOptions options;
  options.directory = cl.option("dir", "tables");
  options.threads = parse_int(cl.option("threads", "0"), "--threads", 0, 1024);
  options.dts = parse_metrics(cl.option("metrics", "dtm,dts"));
  options.force = cl.flag("force");
  options.compression_level =
      parse_int(cl.option("compression-level", std::to_string(DefaultCompressionLevel)),
                "--compression-level", 1, MaxCompressionLevel);
  const std::vector<Material> targets = parse_signatures(cl, "generate");
  ProgressLine progress;
  options.progress = [&](const Material& m, const retro::Progress& p) {
    progress.update(progress_text(m, p));
  };
  Json tables = Json::array();
  retro::build_tables(targets, options, [&](const retro::BuildRecord& r) {
    progress.clear();
    if (cl.json())
      tables.push_back(record_json(r));
    else
      std::cout << summary_line(r) << std::endl;
  });
  if (cl.json()) print_json({{"directory", options.directory.string()}, {"tables", tables}});
  return ExitSuccess;
}

}  // namespace egtb::cli
