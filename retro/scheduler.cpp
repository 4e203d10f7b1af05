#include "retro/scheduler.hpp"

#include <sys/resource.h>

#include <chrono>

#include "egtb/store/error.hpp"
#include "egtb/store/reader.hpp"

namespace egtb::retro {

namespace {

double seconds_of(const timeval& t) {
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
}

double cpu_seconds_now() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return seconds_of(usage.ru_utime) + seconds_of(usage.ru_stime);
}

uint64_t peak_rss_bytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<uint64_t>(usage.ru_maxrss) * 1024;
}

bool is_target(std::span<const Material> targets, const Material& m) {
  for (const Material& t : targets)
    if (t == m) return true;
  return false;
}

BuildRecord build_one(const Material& material, const BuildOptions& options, std::string replaced) {
  const auto wall_start = std::chrono::steady_clock::now();
  const double cpu_start = cpu_seconds_now();
  const Subtables subtables = Subtables::load(material, options.directory, options.rules, options.metrics);
  GeneratorConfig config;
  config.threads = options.threads;
  config.rules = options.rules;
  config.metrics = options.metrics;
  if (options.progress) config.progress = [&](const Progress& p) { options.progress(material, p); };
  WriteOptions write;
  write.level = options.compression_level;
  write.threads = options.threads;
  const auto solution = solve_table(material, subtables, config);
  const auto path = table_path(options.directory, material, options.rules);
  const indexing::Index size = solution->scheme().size();
  BuildRecord record{material, path, true, std::move(replaced), {}, 0, 0, 0};
  record.header = write_table_file(
      path, TableDescription::of(material, solution->rules(), solution->metrics()), {size, size},
      [&](Color c, uint64_t first, std::span<uint16_t> out) { solution->fill(c, first, out); }, write);
  record.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  record.cpu_seconds = cpu_seconds_now() - cpu_start;
  record.peak_rss_bytes = peak_rss_bytes();
  return record;
}

// The record of a table that is kept: every checksum of it verifies and it meets the options.
// Nothing, with `why` set, when the file is missing or cannot be kept.
std::optional<BuildRecord> kept(const Material& material, const BuildOptions& options, std::string& why) {
  const auto path = table_path(options.directory, material, options.rules);
  std::error_code ec;
  if (!std::filesystem::exists(path, ec) && !ec) return std::nullopt;
  try {
    const TableReader reader(path, {material, options.rules, options.metrics});
    reader.verify(options.threads);
    return BuildRecord{material, path, false, {}, reader.header(), 0, 0, 0};
  } catch (const StoreError& e) {
    why = e.what();
    return std::nullopt;
  }
}

}  // namespace

std::vector<BuildRecord> build_tables(std::span<const Material> targets, const BuildOptions& options,
                                      const std::function<void(const BuildRecord&)>& on_table) {
  std::filesystem::create_directories(options.directory);
  remove_stale_temporaries(options.directory);
  std::vector<BuildRecord> records;
  for (const Material& m : dependency_closure(targets)) {
    std::string why;
    std::optional<BuildRecord> record;
    if (!(options.force && is_target(targets, m))) record = kept(m, options, why);
    records.push_back(record ? std::move(*record) : build_one(m, options, why));
    if (on_table) on_table(records.back());
  }
  return records;
}

}  // namespace egtb::retro
