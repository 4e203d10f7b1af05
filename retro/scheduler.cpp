#include "retro/scheduler.hpp"

#include <sys/resource.h>

#include <chrono>
#include <map>
#include <stdexcept>

#include "egtb/store/error.hpp"
#include "egtb/store/reader.hpp"
#include "egtb/store/writer.hpp"

namespace egtb::retro {

namespace {

double cpu_seconds_now() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const auto seconds = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
  };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
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

BuildRecord build_one(const Material& material, const BuildOptions& options) {
  const auto wall_start = std::chrono::steady_clock::now();
  const double cpu_start = cpu_seconds_now();
  const Subtables subtables = load_subtables(material, options.directory, options.dts);
  GeneratorConfig config;
  config.threads = options.threads;
  config.dts = options.dts;
  if (options.progress) config.progress = [&](const Progress& p) { options.progress(material, p); };
  WriteOptions write;
  write.level = options.compression_level;
  write.threads = options.threads;
  const auto solution = solve_table(material, subtables, config);
  BuildRecord record{material, table_path(options.directory, material), true,
                     save_solution(options.directory, *solution, write).stats};
  record.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  record.cpu_seconds = cpu_seconds_now() - cpu_start;
  record.peak_rss_bytes = peak_rss_bytes();
  return record;
}

bool current_layout(const TableHeader& h) {
  return h.index_scheme == indexing::IndexLayoutId && h.index_version == indexing::IndexLayoutVersion;
}

BuildRecord existing(const Material& material, const std::filesystem::path& path) {
  const TableHeader header = read_header(path);
  return BuildRecord{material, path, false, header.stats};
}

}  // namespace

Subtables load_subtables(const Material& material, const std::filesystem::path& directory, bool need_dts) {
  Subtables subtables;
  std::shared_ptr<BlockCache> cache;
  for (const Material& next : material.successors()) {
    if (next.is_bare_kings() || subtables.contains(next)) continue;
    const auto path = table_path(directory, next);
    const bool large = indexing::IndexScheme(next).size() > PagedSubtableEntries;
    if (large && !cache) cache = std::make_shared<BlockCache>(PagedCacheBytes);
    auto table = large ? load_paged_table(path, cache) : load_solved_table(path);
    if (need_dts && !table->has_dts)
      throw std::runtime_error("subtable " + next.str() + " holds DTM only; rebuild it with DTS");
    subtables.add(std::move(table));
  }
  return subtables;
}

int remove_stale_temporaries(const std::filesystem::path& directory) {
  int removed = 0;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(directory, ec)) {
    const std::string name = entry.path().filename().string();
    const size_t at = name.find(".egtb.tmp.");
    if (at == std::string::npos) continue;
    const std::string pid = name.substr(at + 10);
    if (std::filesystem::exists("/proc/" + pid)) continue;
    removed += std::filesystem::remove(entry.path(), ec) ? 1 : 0;
  }
  return removed;
}

std::filesystem::path table_path(const std::filesystem::path& directory, const Material& m) {
  return directory / (m.normalized().str() + ".egtb");
}

bool table_is_usable(const std::filesystem::path& path, bool need_dts) {
  if (!std::filesystem::exists(path)) return false;
  try {
    const TableHeader header = read_header(path);
    return current_layout(header) && header.metrics.dtm && (header.metrics.dts || !need_dts);
  } catch (const StoreError&) {
    return false;
  }
}

std::vector<BuildRecord> build_tables(std::span<const Material> targets, const BuildOptions& options,
                                      const std::function<void(const BuildRecord&)>& on_table) {
  std::filesystem::create_directories(options.directory);
  remove_stale_temporaries(options.directory);
  std::vector<BuildRecord> records;
  for (const Material& m : dependency_closure(targets)) {
    const auto path = table_path(options.directory, m);
    const bool rebuild = options.force && is_target(targets, m);
    records.push_back(!rebuild && table_is_usable(path, options.dts) ? existing(m, path)
                                                                     : build_one(m, options));
    if (on_table) on_table(records.back());
  }
  return records;
}

namespace {

// An empty SolvedTable for the table `reader` opened, after checking that this build can use it.
std::shared_ptr<SolvedTable> checked_table(const TableReader& reader) {
  const auto& path = reader.path();
  const auto material = Material::parse(reader.header().signature);
  if (!material) throw FormatError(path, "bad signature in header: " + material.error());
  if (!current_layout(reader.header()))
    throw FormatError(path, "written with another index layout; rebuild it with egtb generate --force");
  auto table = std::make_shared<SolvedTable>(*material);
  for (Color c : {Color::White, Color::Black})
    if (reader.entries(c) != table->scheme.size())
      throw FormatError(path, "holds " + std::to_string(reader.entries(c)) +
                                  " entries per side, the index has " + std::to_string(table->scheme.size()));
  table->has_dts = reader.header().metrics.dts;
  return table;
}

}  // namespace

std::shared_ptr<SolvedTable> load_solved_table(const std::filesystem::path& path) {
  const TableReader reader(path);
  auto table = checked_table(reader);
  for (Color c : {Color::White, Color::Black})
    table->scores[static_cast<size_t>(to_index(c))] = reader.read_side(c);
  return table;
}

std::shared_ptr<SolvedTable> load_paged_table(const std::filesystem::path& path,
                                              std::shared_ptr<BlockCache> cache) {
  auto paged = std::make_shared<PagedScores>(path, std::move(cache));
  auto table = checked_table(paged->reader());
  table->paged = std::move(paged);
  return table;
}

namespace {

TableDescription describe(const Material& material, bool dts) {
  TableDescription description;
  description.signature = material.str();
  description.metrics = Metrics{true, dts};
  description.index_scheme = indexing::IndexLayoutId;
  description.index_version = indexing::IndexLayoutVersion;
  description.generator = std::string("egtb ") + EGTB_VERSION;
  return description;
}

}  // namespace

std::filesystem::path save_solved_table(const std::filesystem::path& directory, const SolvedTable& table,
                                        const WriteOptions& options) {
  const auto path = table_path(directory, table.scheme.material());
  write_table_file(path, describe(table.scheme.material(), table.has_dts),
                   {std::span<const uint16_t>(table.scores[0]), std::span<const uint16_t>(table.scores[1])},
                   options);
  return path;
}

TableHeader save_solution(const std::filesystem::path& directory, const Solution& solution,
                          const WriteOptions& options) {
  const Material& material = solution.scheme().material();
  const indexing::Index size = solution.scheme().size();
  return write_table_file(
      table_path(directory, material), describe(material, solution.has_dts()), {size, size},
      [&](Color c, uint64_t first, std::span<uint16_t> out) { solution.fill(c, first, out); }, options);
}

}  // namespace egtb::retro
