// egtb probe [--dir DIR] [--json] FEN, or egtb probe [--dir DIR] --epd FILE [--value-only]: the
// Lasker value and depth of positions, the value of every move and the optimal line.
#include <algorithm>
#include <array>
#include <atomic>
#include <exception>
#include <fstream>
#include <iostream>
#include <string_view>
#include <thread>

#include "egtb/core/fen.hpp"
#include "egtb/store/tablebase.hpp"
#include "tools/egtb/commands.hpp"
#include "tools/egtb/options.hpp"
#include "tools/egtb/probe_report.hpp"

namespace egtb::cli {

namespace {

// Batch lines are read ChunkLines at a time and handed to the threads Grain lines at a time.
constexpr size_t ChunkLines = 4096;
constexpr size_t Grain = 16;

constexpr const char* Summary =
    "Probe positions: the Lasker value (4 mates, 3 stalemates the opponent, 2 draw, 1 is stalemated,\n"
    "0 is mated) and DTM or DTS of the side to move, every legal move with the value and depth it\n"
    "leads to (best first), and the optimal line to the mate or stalemate with its final FEN.\n\n"
    "With --epd, each line of FILE (- for standard input) holds a FEN or an EPD (four fields, then\n"
    "operations, which are ignored); each gives one line of compact JSON, in order, and a bad line\n"
    "gives {\"line\": N, \"input\": ..., \"error\": ...} while the batch goes on. Blank lines are "
    "skipped.\n\n"
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
std::string fen_of_line(std::string_view line) {
  std::array<std::string_view, 6> fields;
  size_t count = 0;
  for (size_t at = line.find_first_not_of(" \t"); at != std::string_view::npos && count < fields.size();
       at = line.find_first_not_of(" \t", at)) {
    const size_t end = std::min(line.find_first_of(" \t", at), line.size());
    fields[count++] = line.substr(at, end - at);
    at = end;
  }
  const auto is_number = [](std::string_view s) {
    return s.find_first_not_of("0123456789") == std::string_view::npos;
  };
  const size_t keep =
      count == 6 && is_number(fields[4]) && is_number(fields[5]) ? 6 : std::min<size_t>(count, 4);
  std::string fen;
  for (size_t i = 0; i < keep; ++i) (fen += i ? " " : "") += fields[i];
  return fen;
}

struct BatchLine {
  size_t number = 0;  // 1-based line number in the input
  std::string input;
  std::string output;  // one line of compact JSON
  bool ok = true;      // false: output is an error object
};

// Makes `line` the error object {"line", "input", "error"}.
void fail_line(BatchLine& line, const std::string& message) {
  line.ok = false;
  line.output = Json{{"line", line.number}, {"input", line.input}, {"error", message}}.dump();
}

void probe_line(const Tablebase& tb, BatchLine& line, bool value_only) {
  const auto pos = parse_fen(fen_of_line(line.input));
  if (!pos) return fail_line(line, pos.error().message);
  const auto report = make_report(tb, *pos, value_only);
  if (!report) return fail_line(line, report.error().message);
  line.output = report_json(*report, value_only).dump();
}

// Reads up to ChunkLines non-blank lines; false at the end of the input.
bool read_chunk(std::istream& in, size_t& line_number, std::vector<BatchLine>& chunk) {
  chunk.clear();
  for (std::string input; chunk.size() < ChunkLines && std::getline(in, input);) {
    ++line_number;
    if (!input.empty() && input.back() == '\r') input.pop_back();
    if (input.find_first_not_of(" \t") != std::string::npos)
      chunk.push_back({line_number, std::move(input), {}, true});
  }
  return !chunk.empty();
}

// Probes the lines of a chunk on `threads` threads, each taking the next few lines in turn. The
// first exception of a worker (a damaged table) is rethrown here.
void probe_chunk(const Tablebase& tb, std::vector<BatchLine>& chunk, bool value_only, int threads) {
  std::atomic<size_t> next{0};
  std::vector<std::exception_ptr> errors(static_cast<size_t>(threads));
  const auto work = [&](size_t worker) {
    try {
      for (size_t at = next.fetch_add(Grain); at < chunk.size(); at = next.fetch_add(Grain))
        for (size_t i = at; i < std::min(at + Grain, chunk.size()); ++i) probe_line(tb, chunk[i], value_only);
    } catch (...) {
      errors[worker] = std::current_exception();
    }
  };
  std::vector<std::thread> pool;
  for (size_t w = 1; w < errors.size(); ++w) pool.emplace_back(work, w);
  work(0);
  for (std::thread& t : pool) t.join();
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
}

// Probes every line of `in`, printing one JSON line each in input order; true when no line failed.
bool probe_batch(const Tablebase& tb, std::istream& in, bool value_only, int threads) {
  bool ok = true;
  size_t line_number = 0;
  std::vector<BatchLine> chunk;
  while (read_chunk(in, line_number, chunk)) {
    probe_chunk(tb, chunk, value_only, threads);
    for (const BatchLine& line : chunk) {
      std::cout << line.output << '\n';
      ok = ok && line.ok;
    }
  }
  return ok;
}

int run_batch(const Tablebase& tb, const std::string& file, bool value_only, int threads) {
  if (file == "-") return probe_batch(tb, std::cin, value_only, threads) ? ExitSuccess : ExitFailure;
  std::ifstream in(file);
  if (!in) throw UsageError("probe: cannot open EPD file '" + file + "'");
  return probe_batch(tb, in, value_only, threads) ? ExitSuccess : ExitFailure;
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
  const auto report = make_report(tb, pos, false);
  if (!report) raise(report.error());
  if (cl.json())
    print_json(report_json(*report, false));
  else
    print_report(std::cout, *report);
  return ExitSuccess;
}

void add_options(CommandLine& cl) {
  cl.rest("FEN", "the position (quoted, or its fields as separate arguments)");
  const auto text = [](const char* name) { return po::value<std::string>()->value_name(name); };
  cl.options()("dir", text("DIR"), "the table directory (default: tables)");
  cl.options()("epd", text("FILE"), "probe every FEN or EPD line of FILE (- for stdin)");
  cl.options()("value-only", "with --epd: print only fen, lasker, dtm and dts (no moves, no pv)");
  cl.options()("threads", text("N"), "with --epd: probing threads (default: every core)");
  cl.options()("cache-mb", text("MB"), "decoded-block cache limit in MiB (default 1024)");
  cl.json_option();
}

TablebaseOptions tablebase_options(const CommandLine& cl) {
  TablebaseOptions options;
  options.cache_bytes = size_t{1} << 20;
  options.cache_bytes *=
      static_cast<size_t>(parse_int(cl.option("cache-mb", "1024"), "--cache-mb", 1, 1 << 20));
  return options;
}

int batch_threads(const CommandLine& cl) {
  const auto cores = std::max(1u, std::thread::hardware_concurrency());
  return parse_int(cl.option("threads", std::to_string(cores)), "--threads", 1, 256);
}

}  // namespace

int cmd_probe(const std::vector<std::string>& args) {
  CommandLine cl("probe", Summary);
  add_options(cl);
  if (!cl.parse(args)) return ExitSuccess;
  const Tablebase tb(cl.option("dir", "tables"), tablebase_options(cl));
  if (!cl.flag("epd")) {
    if (cl.flag("value-only")) throw UsageError("probe: --value-only needs --epd");
    return run_single(tb, cl);
  }
  if (!cl.rest_arguments().empty()) throw UsageError("probe: give either a FEN or --epd FILE, not both");
  return run_batch(tb, cl.option("epd", "-"), cl.flag("value-only"), batch_threads(cl));
}

}  // namespace egtb::cli
