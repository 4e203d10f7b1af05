// egtb probe [--dir DIR] [--json] FEN, or egtb probe [--dir DIR] --epd FILE [--value-only]: the
// Lasker value and depth of positions, the value of every move and the optimal line.
#include <fstream>
#include <iostream>
#include <sstream>

#include "egtb/core/fen.hpp"
#include "egtb/store/tablebase.hpp"
#include "tools/egtb/commands.hpp"
#include "tools/egtb/options.hpp"
#include "tools/egtb/probe_report.hpp"

namespace egtb::cli {

namespace {

constexpr const char* Summary =
    "Probe positions: the Lasker value (4 mates, 3 stalemates the opponent, 2 draw, 1 is stalemated,\n"
    "0 is mated) and DTM or DTS of the side to move, every legal move with the value and depth it\n"
    "leads to (best first), and the optimal line to the mate or stalemate with its final FEN.\n\n"
    "With --epd, each line of FILE (- for standard input) holds a FEN or an EPD (four fields, then\n"
    "operations, which are ignored); each gives one line of compact JSON, in order, and a bad line\n"
    "gives {\"line\": N, \"input\": ..., \"error\": ...} while the batch goes on. Blank lines are skipped.\n\n"
    "Exit status: 0 success; 1 a table is missing, damaged or inconsistent, or (with --epd) some\n"
    "line failed; 2 a bad FEN, castling rights, more men than any table, or a usage error.";

// A probe failure as main() reports it: bad input exits 2, a table problem 1.
[[noreturn]] void raise(const ProbeError& e) {
  switch (e.kind) {
    case ProbeError::Kind::Castling:
    case ProbeError::Kind::TooManyMen:
    case ProbeError::Kind::InvalidPosition: throw UsageError(e.message);
    case ProbeError::Kind::MissingTable:
    case ProbeError::Kind::Inconsistent: break;
  }
  throw std::runtime_error(e.message);
}

// The FEN of a FEN or EPD line: the four position fields, and the two counters when fields five
// and six are numbers (otherwise they are EPD operations, ignored).
std::string fen_of_line(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> fields;
  for (std::string field; fields.size() < 6 && in >> field;) fields.push_back(field);
  const auto is_number = [](const std::string& s) { return s.find_first_not_of("0123456789") == std::string::npos; };
  const size_t keep = fields.size() == 6 && is_number(fields[4]) && is_number(fields[5]) ? 6 : 4;
  std::string fen;
  for (size_t i = 0; i < fields.size() && i < keep; ++i) fen += (i ? " " : "") + fields[i];
  return fen;
}

Json error_json(size_t line_number, const std::string& input, const std::string& message) {
  return {{"line", line_number}, {"input", input}, {"error", message}};
}

// The JSON line of one batch input; `ok` is cleared when it is an error object.
Json batch_line(const Tablebase& tb, const std::string& input, size_t line_number, bool value_only, bool& ok) {
  const auto pos = parse_fen(fen_of_line(input));
  if (!pos) {
    ok = false;
    return error_json(line_number, input, pos.error().message);
  }
  const auto report = make_report(tb, *pos, value_only);
  if (!report) {
    ok = false;
    return error_json(line_number, input, report.error().message);
  }
  return report_json(*report, value_only);
}

// Probes every line of `in`, printing one JSON line each; true when no line failed.
bool probe_batch(const Tablebase& tb, std::istream& in, bool value_only) {
  bool ok = true;
  size_t line_number = 0;
  for (std::string input; std::getline(in, input);) {
    ++line_number;
    if (!input.empty() && input.back() == '\r') input.pop_back();
    if (input.find_first_not_of(" \t") == std::string::npos) continue;
    std::cout << batch_line(tb, input, line_number, value_only, ok).dump() << '\n';
  }
  return ok;
}

int run_batch(const Tablebase& tb, const std::string& file, bool value_only) {
  if (file == "-") return probe_batch(tb, std::cin, value_only) ? ExitSuccess : ExitFailure;
  std::ifstream in(file);
  if (!in) throw UsageError("probe: cannot open EPD file '" + file + "'");
  return probe_batch(tb, in, value_only) ? ExitSuccess : ExitFailure;
}

// The FEN from the arguments: one quoted argument, or its fields as separate arguments.
std::string fen_argument(const std::vector<std::string>& words) {
  if (words.empty()) throw UsageError("probe: missing argument FEN (see egtb probe --help)");
  std::string fen;
  for (const std::string& w : words) fen += (fen.empty() ? "" : " ") + w;
  return fen;
}

int run_single(const Tablebase& tb, const CommandLine& cl) {
  const Position pos = parse_position(fen_argument(cl.rest_arguments()));
  const bool json = cl.json();
  const auto report = make_report(tb, pos, false);
  if (!report) raise(report.error());
  if (json)
    print_json(report_json(*report, false));
  else
    print_report(std::cout, *report);
  return ExitSuccess;
}

}  // namespace

int cmd_probe(const std::vector<std::string>& args) {
  CommandLine cl("probe", Summary);
  cl.rest("FEN", "the position (quoted, or its fields as separate arguments)");
  cl.options()("dir", po::value<std::string>()->value_name("DIR"), "the table directory (default: tables)")(
      "epd", po::value<std::string>()->value_name("FILE"), "probe every FEN or EPD line of FILE (- for stdin)")(
      "value-only", "with --epd: print only fen, lasker, dtm and dts (no moves, no pv)")(
      "cache-mb", po::value<std::string>()->value_name("MB"), "decoded-block cache limit in MiB (default 1024)");
  cl.json_option();
  if (!cl.parse(args)) return ExitSuccess;
  TablebaseOptions options;
  options.cache_bytes = static_cast<size_t>(parse_int(cl.option("cache-mb", "1024"), "--cache-mb", 1, 1 << 20)) << 20;
  const Tablebase tb(cl.option("dir", "tables"), options);
  if (!cl.flag("epd")) {
    if (cl.flag("value-only")) throw UsageError("probe: --value-only needs --epd");
    return run_single(tb, cl);
  }
  if (!cl.rest_arguments().empty()) throw UsageError("probe: give either a FEN or --epd FILE, not both");
  return run_batch(tb, cl.option("epd", "-"), cl.flag("value-only"));
}

}  // namespace egtb::cli
