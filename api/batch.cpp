#include "api/batch.hpp"

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <array>
#include <vector>

#include "api/input.hpp"
#include "api/json.hpp"
#include "egtb/core/fen.hpp"
#include "egtb/store/error.hpp"

namespace egtb::api {

namespace {

// Lines are read ChunkLines at a time and handed to the threads Grain lines at a time.
constexpr size_t ChunkLines = 4096;
constexpr size_t Grain = 16;

void fail_line(BatchLine& line, const std::string& message) {
  line.ok = false;
  line.output = json_line(batch_error_json(line.number, line.input, message));
}

void probe_line(const Tablebase& tb, BatchLine& line, ProbeDetail detail) {
  if (!is_utf8(line.input)) return fail_line(line, "the line is not valid UTF-8 text");
  const auto pos = parse_fen(fen_of_line(line.input));
  if (!pos) return fail_line(line, pos.error().message);
  try {
    const auto report = probe(tb, *pos, detail);
    if (!report) return fail_line(line, report.error().message);
    line.output = json_line(to_json(*report, detail));
  } catch (const StoreError& e) {
    fail_line(line, e.what());
  }
}

// Reads up to ChunkLines non-blank lines; false at the end of the input.
bool read_chunk(LineReader& reader, std::vector<BatchLine>& chunk) {
  chunk.clear();
  while (chunk.size() < ChunkLines) {
    std::optional<Line> line = reader.next();
    if (!line) break;
    if (line->too_long) {  // ends the chunk, so that it is reported before the rest is skipped
      BatchLine& l = chunk.emplace_back(BatchLine{line->number, "", "", true});
      fail_line(l, "the line is longer than " + std::to_string(MaxLineBytes) + " bytes");
      break;
    }
    if (line->text.find_first_not_of(" \t") != std::string::npos)
      chunk.push_back({line->number, std::move(line->text), {}, true});
  }
  return !chunk.empty();
}

}  // namespace

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

BatchSummary probe_batch(const Tablebase& tb, std::istream& in, const BatchOptions& options,
                         const std::function<void(const BatchLine&)>& out) {
  BatchSummary summary;
  LineReader reader(in);
  std::vector<BatchLine> chunk;
  tbb::task_arena arena(options.threads > 0 ? options.threads : tbb::task_arena::automatic);
  while (read_chunk(reader, chunk)) {
    arena.execute([&] {
      tbb::parallel_for(tbb::blocked_range<size_t>(0, chunk.size(), Grain),
                        [&](const tbb::blocked_range<size_t>& r) {
                          for (size_t i = r.begin(); i != r.end(); ++i)
                            if (chunk[i].output.empty()) probe_line(tb, chunk[i], options.detail);
                        });
    });
    for (const BatchLine& line : chunk) {
      ++summary.lines;
      summary.failed += line.ok ? 0 : 1;
      out(line);
    }
  }
  return summary;
}

}  // namespace egtb::api
