// egtb stats SIG... [--all N] [--dir DIR] [--convention C] [--format md|csv|latex|json] [--figures DIR]
// [--threads N]: the article's Tables 1 and 2, depth histograms and figures of finished tables.
//
// JSON, one object per table:
//   {"signature": "KBk", "convention": "index462",
//    "sides": {"w": {"positions": N, "lasker": [n0, n1, n2, n3, n4]}, "b": {...}},
//    "maxdts": {"plies": 17, "positions": 37, "side_to_move": "w", "stalemater": "w",
//               "example": FEN, "line": ["c1d1", ...]},
//    "maxdtm": {... the same with "mater" for "stalemater" ...},
//    "histogram": {"w": {"dtm": {"19": 1, ...}, "dts": {...}}, "b": {...}}}
// lasker[v] counts the positions of value v for the side to move; histogram keys are plies (odd:
// the side to move wins, even: it loses). maxdts is null when no side to move can force a
// stalemate (KQk), maxdtm when none can force mate (KBk); see stats/statistics.hpp.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <stdexcept>

#include "egtb/core/fen.hpp"
#include "egtb/store/error.hpp"
#include "stats/figures.hpp"
#include "stats/report.hpp"
#include "stats/statistics.hpp"
#include "tools/egtb/commands.hpp"
#include "tools/egtb/options.hpp"

namespace egtb::cli {

namespace {

using stats::Convention;

Convention parse_convention(const std::string& text) {
  const auto c = stats::parse_convention(text);
  if (!c) throw UsageError("--convention must be index462, physical or classes, not '" + text + "'");
  return *c;
}

// The text format, or nothing for JSON.
std::optional<stats::TextFormat> parse_format(const std::string& text) {
  if (text == "md") return stats::TextFormat::Markdown;
  if (text == "csv") return stats::TextFormat::Csv;
  if (text == "latex") return stats::TextFormat::Latex;
  if (text == "json") return std::nullopt;
  throw UsageError("--format must be md, csv, latex or json, not '" + text + "'");
}

std::string build_hint(const std::string& what, const std::filesystem::path& dir) {
  return "build it with: egtb generate " + what + " --dir " + dir.string();
}

Material parse_signature(const std::string& text) {
  const auto m = Material::parse(text);
  if (!m) throw UsageError(m.error());
  if (m->is_bare_kings()) throw UsageError("KK has no table: bare kings are a draw");
  return m->normalized();
}

// The named signatures, each with its table in the directory, or those of --all N present there.
std::vector<Material> targets_of(const CommandLine& cl, const Tablebase& tablebase) {
  std::vector<Material> targets;
  const std::filesystem::path& dir = tablebase.directory();
  if (cl.flag("all")) {
    const std::string n = cl.option("all", "");
    for (const Material& m : all_signatures(parse_int(n, "--all", 3, Material::MaxMen)))
      if (tablebase.has_table(m)) targets.push_back(m);
    if (targets.empty())
      throw std::runtime_error("stats: no table of 3 to " + n + " men in " + dir.string() + " (" +
                               build_hint("--all " + n, dir) + ")");
  }
  for (const std::string& text : cl.rest_arguments()) {
    const Material m = parse_signature(text);
    if (!tablebase.has_table(m))
      throw std::runtime_error("stats: no table " + m.str() + " in " + dir.string() + " (" +
                               build_hint(m.str(), dir) + ")");
    targets.push_back(m);
  }
  if (targets.empty())
    throw UsageError("stats: name at least one signature or --all N (see egtb stats --help)");
  return targets;
}

Json deepest_json(const std::optional<stats::Deepest>& d, const char* winner_key) {
  if (!d) return nullptr;
  return {{"plies", d->plies},
          {"positions", d->positions},
          {"side_to_move", std::string(1, color_char(d->side_to_move))},
          {winner_key, std::string(1, color_char(d->winner))},
          {"example", to_fen(d->example)},
          {"line", stats::uci_moves(d->line)}};
}

Json histogram_json(const stats::DepthHistogram& h) {
  Json out = Json::object();
  for (const auto& [plies, n] : h) out[std::to_string(plies)] = n;
  return out;
}

Json table_json(const stats::TableStatistics& t) {
  Json sides = Json::object();
  Json histogram = Json::object();
  for (Color c : {Color::White, Color::Black}) {
    const std::string key(1, color_char(c));
    sides[key] = {{"positions", t.side(c).positions()}, {"lasker", t.side(c).lasker}};
    histogram[key] = {{"dtm", histogram_json(t.side(c).dtm())}, {"dts", histogram_json(t.side(c).dts())}};
  }
  return {{"signature", t.material.str()},
          {"convention", indexing::convention_name(t.convention)},
          {"sides", sides},
          {"maxdts", deepest_json(t.max_dts, "stalemater")},
          {"maxdtm", deepest_json(t.max_dtm, "mater")},
          {"histogram", histogram}};
}

void write_figures(const std::filesystem::path& dir, const std::vector<stats::TableStatistics>& tables) {
  std::filesystem::create_directories(dir);
  size_t count = 0;
  for (const stats::TableStatistics& t : tables)
    for (const stats::Figure& f : stats::figures(t)) {
      const std::filesystem::path path = dir / f.file_name;
      std::ofstream out(path, std::ios::binary);
      out << f.svg;
      if (!out.flush()) throw IoError(path, "cannot write the figure");
      ++count;
    }
  std::cerr << "egtb stats: wrote " << count << " SVG figures to " << dir.string() << '\n';
}

void warn_missing_dts(const stats::TableStatistics& t) {
  if (!t.metrics.dts)
    std::cerr << "egtb stats: " << t.material.str()
              << " was built without DTS (--metrics dtm): its values 3 and 1 count as draws\n";
}

}  // namespace

int cmd_stats(const std::vector<std::string>& args) {
  CommandLine cl(
      "stats",
      "Print the article's Tables 1 (maxDTS, maxDTM) and 2 (Lasker values) and the depth histograms "
      "of finished tables.");
  cl.rest("SIG", "material signatures such as KBk, KNk or KBvK");
  cl.options()("all", po::value<std::string>()->value_name("N"),
               "every table of 3 to N men in the directory")(
      "dir", po::value<std::string>()->value_name("DIR"), "table directory (default ./tables)")(
      "convention", po::value<std::string>()->value_name("C"),
      "index462 (default, the article's), physical or classes")(
      "format", po::value<std::string>()->value_name("F"), "md (default), csv, latex or json")(
      "figures", po::value<std::string>()->value_name("DIR"),
      "also write SVG diagrams and histograms to DIR")("threads", po::value<std::string>()->value_name("N"),
                                                       "worker threads (default: every core)");
  if (!cl.parse(args)) return ExitSuccess;
  const stats::StatsOptions options{parse_convention(cl.option("convention", "index462")),
                                    parse_int(cl.option("threads", "0"), "--threads", 0, 1024)};
  const std::optional<stats::TextFormat> format = parse_format(cl.option("format", "md"));
  const Tablebase tablebase(cl.option("dir", "tables"));
  std::vector<stats::TableStatistics> tables;
  for (const Material& m : targets_of(cl, tablebase)) {
    tables.push_back(stats::compute_statistics(tablebase, m, options));
    warn_missing_dts(tables.back());
  }
  if (format) {
    std::cout << stats::render(tables, *format);
  } else {
    Json out = {{"tables", Json::array()}};
    for (const stats::TableStatistics& t : tables) out["tables"].push_back(table_json(t));
    print_json(out);
  }
  if (cl.flag("figures")) write_figures(cl.option("figures", ""), tables);
  return ExitSuccess;
}

}  // namespace egtb::cli
