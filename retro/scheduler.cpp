#include "retro/scheduler.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <map>
#include <optional>
#include <thread>
#include <utility>

#include "egtb/store/error.hpp"
#include "egtb/store/order_choice.hpp"
#include "egtb/store/reader.hpp"
#include "egtb/store/table_lock.hpp"
#include "retro/cost_model.hpp"
#include "retro/process_usage.hpp"

namespace egtb::retro {

namespace {

bool is_target(std::span<const Material> targets, const Material& m) {
  for (const Material& t : targets)
    if (t == m) return true;
  return false;
}

// The machine's memory in bytes: options.machine_memory, else its physical memory.
uint64_t machine_memory(const GenerateOptions& options) {
  return options.machine_memory > 0 ? options.machine_memory : physical_memory_bytes();
}

// Warns, through options.warning, of each subtable whose file will make the solve of `material`
// slow, naming the command that rewrites it. Example: "KPPPk reads its subtable KBPPk block by
// block, and that file leads its index with a pawn group ("PP Kk B", ...) ...".
void warn_of_slow_subtables(const Material& material, const Subtables& subtables,
                            const GenerateOptions& options) {
  if (!options.warning) return;
  for (const Material& slow : subtables.slowly_paged()) {
    const std::string order = subtables.find(slow)->scheme().order().str(slow);
    std::string rewrite =
        "egtb recompress " + slow.str() + " --orders solvable --dir " + options.directory.string();
    if (options.rules != Rules::Lasker) rewrite += " --rules " + std::string(rules_name(options.rules));
    options.warning(material, material.str() + " reads its subtable " + slow.str() +
                                  " block by block, and that file leads its index with a pawn group (\"" +
                                  order +
                                  "\", an order for probes): the solve gives the same table but may take "
                                  "many times longer. Rewrite the subtable for solving with: " +
                                  rewrite);
  }
}

GenerateRecord generate_one(const Material& material, const GenerateOptions& options, std::string replaced) {
  const auto wall_start = std::chrono::steady_clock::now();
  const double cpu_start = process_cpu_seconds();
  reset_peak_resident();
  SolveConfig config;
  config.threads = options.threads;
  config.rules = options.rules;
  config.metrics = options.metrics;
  const SolvePlan plan = choose_plan(estimate_cost(material), options.max_memory, machine_memory(options));
  config.slicing = plan.slicing;
  config.lean = plan.lean;
  config.scratch_directory = options.directory;
  if (options.progress) config.progress = [&](const Progress& p) { options.progress(material, p); };
  WriteOptions write;
  write.level = options.compression_level;
  write.threads = options.threads;
  // The subtables are let go before the table is written: its peak is the solver's, not that
  // plus the subtables.
  GenerateRecord record;
  auto stage_start = std::chrono::steady_clock::now();
  const auto stage_seconds = [&] {
    const auto now = std::chrono::steady_clock::now();
    return std::chrono::duration<double>(now - std::exchange(stage_start, now)).count();
  };
  const auto solution = [&] {
    const Subtables subtables = Subtables::load(material, options.directory, options.rules, options.metrics);
    record.stages.load = stage_seconds();
    warn_of_slow_subtables(material, subtables, options);
    return solve_table(material, subtables, config);
  }();
  record.stages.solve = stage_seconds();
  const auto path = table_path(options.directory, material, options.rules);
  const indexing::Index size = solution->scheme().size();
  record.material = material;
  record.path = path;
  record.built = true;
  record.slices = solution->slices();
  record.lean = config.lean;
  record.replaced = std::move(replaced);
  // An order gathered (Solution::gather) takes at most what the solve was planned to hold, which is
  // let go by now.
  const auto gather = [&](const indexing::IndexScheme& scheme) {
    solution->gather(scheme, plan.peak_bytes, options.threads);
  };
  const indexing::IndexOrder order = choose_index_order(
      material,
      [&](const indexing::IndexScheme& scheme, Color c, uint64_t first, std::span<uint16_t> out) {
        solution->fill(scheme, c, first, out);
      },
      write, gather);
  record.stages.order = stage_seconds();
  const indexing::IndexScheme storage(material, order);
  gather(storage);
  record.header = write_table_file(
      path, TableDescription::of(material, solution->rules(), solution->metrics(), order), {size, size},
      [&](Color c, uint64_t first, std::span<uint16_t> out) { solution->fill(storage, c, first, out); },
      write);
  record.stages.write = stage_seconds();
  record.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  record.cpu_seconds = process_cpu_seconds() - cpu_start;
  record.peak_rss_bytes = peak_resident_bytes();
  return record;
}

// The record of a table that is kept: every checksum of it verifies and it meets the options.
// Nothing, with `why` set, when the file is missing or cannot be kept.
std::optional<GenerateRecord> kept(const Material& material, const GenerateOptions& options,
                                   std::string& why) {
  const auto path = table_path(options.directory, material, options.rules);
  std::error_code ec;
  if (!std::filesystem::exists(path, ec) && !ec) return std::nullopt;
  try {
    const TableReader reader(path, {material, options.rules, options.metrics});
    reader.verify_checksums(options.threads);
    GenerateRecord record;
    record.material = material;
    record.path = path;
    record.header = reader.header();
    return record;
  } catch (const StoreError& e) {
    why = e.what();
    return std::nullopt;
  }
}

// Throws FormatError when the file at `path` is a whole table of another signature or rule set
// than `material`'s (put under a wrong name by hand): building over it would lose it, so the user
// decides where it goes. A damaged file, or one of this table, is left to kept() and the build.
void refuse_other_table(const std::filesystem::path& path, const Material& material,
                        const GenerateOptions& options) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return;
  TableHeader held;
  try {
    const TableReader reader(path, TableRequirements::file_only());
    held = reader.header();
    if (held.signature == material.str() && held.rules == options.rules) return;
    reader.verify_checksums(options.threads);
  } catch (const StoreError&) {
    return;
  }
  const auto other = Material::parse(held.signature);
  const std::string right = other ? table_path(options.directory, *other, held.rules).string() : "its name";
  throw FormatError(
      path, "holds the whole table of " + held.signature + " under " + std::string(rules_name(held.rules)) +
                " rules, not " + material.str() + " under " + std::string(rules_name(options.rules)) +
                ": kept, not built over; move it to " + right + " (or remove it) and run again");
}

// What tells one file at a path from another: its device and inode, modification time and size.
// A table another process renamed into place is a new file, so its inode differs from the one a
// run saw at its start (the inode alone could be reused once that file is gone; the time and size
// alone could match a byte-identical rebuild within the file system's time resolution, 1 s on
// some). Compared with what the same process saw, never with its clock: on NFS the server sets
// the times. Nothing when there is no file.
struct FileStamp {
  dev_t device = 0;
  ino_t inode = 0;
  timespec modified{};
  off_t size = 0;

  friend bool operator==(const FileStamp& a, const FileStamp& b) {
    return a.device == b.device && a.inode == b.inode && a.modified.tv_sec == b.modified.tv_sec &&
           a.modified.tv_nsec == b.modified.tv_nsec && a.size == b.size;
  }
};

std::optional<FileStamp> stamp_of(const std::filesystem::path& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return std::nullopt;
  return FileStamp{st.st_dev, st.st_ino, st.st_mtim, st.st_size};
}

// The tables this run builds or keeps, in build order: the targets' closure, or the targets alone
// without options.closure, when every table they need is there (else MissingSubtables).
std::vector<Material> tables_to_build(std::span<const Material> targets, const GenerateOptions& options) {
  std::vector<Material> tables = dependency_closure(targets);
  if (options.closure) return tables;
  std::erase_if(tables, [&](const Material& m) { return !is_target(targets, m); });
  std::vector<std::pair<Material, Material>> missing;
  for (const Material& m : tables)
    for (const Material& d : direct_dependencies(m))
      if (!is_target(targets, d) && !stamp_of(table_path(options.directory, d, options.rules)))
        missing.emplace_back(m, d);
  if (!missing.empty()) throw MissingSubtables(options.directory, missing);
  return tables;
}

// Throws TableTooLarge, before any table is built, for the first of `tables` this run would build
// (no file yet, or a target of options.force) whose smallest plan exceeds the machine's memory.
void refuse_too_large(std::span<const Material> tables, std::span<const Material> targets,
                      const GenerateOptions& options) {
  const uint64_t machine = machine_memory(options);
  for (const Material& m : tables) {
    if (stamp_of(table_path(options.directory, m, options.rules)) &&
        !(options.force && is_target(targets, m)))
      continue;
    const uint64_t needed = smallest_plan(estimate_cost(m)).peak_bytes;
    if (needed > machine) throw TableTooLarge(m, needed, machine);
  }
}

// A run's tables not yet finished, and what this process knows of each.
class Worklist {
public:
  Worklist(std::vector<Material> tables, const GenerateOptions& options) : pending_(std::move(tables)) {
    for (const Material& m : pending_) stamps_[m] = stamp_of(table_path(options.directory, m, options.rules));
  }
  [[nodiscard]] bool empty() const { return pending_.empty(); }
  // The first pending table whose subtables are finished and whose file is kept, without taking
  // its lock: keeping reads a whole file, safe while another process renames a new one into place,
  // so a directory of finished tables this process cannot write (read-only) is reported kept.
  std::optional<GenerateRecord> take_kept(std::span<const Material> targets,
                                          const GenerateOptions& options) const {
    for (const Material& m : pending_) {
      if (!ready(m) || (options.force && is_target(targets, m))) continue;
      std::string why;
      if (auto record = kept(m, options, why)) {
        record->by_other_process = stamp_of(record->path) != stamps_.at(m);
        return record;
      }
    }
    return std::nullopt;
  }
  // The stamp of a table's file when the run started.
  [[nodiscard]] const std::optional<FileStamp>& stamp_at_start(const Material& m) const {
    return stamps_.at(m);
  }

  // The first pending table whose subtables are finished and whose lock this process takes, with
  // the lock; nothing when there is none, and then `held` lists the ready tables others hold.
  std::optional<std::pair<Material, TableLock>> claim(const GenerateOptions& options,
                                                      std::vector<Material>& held) {
    held.clear();
    for (const Material& m : pending_) {
      if (!ready(m)) continue;
      if (auto lock = TableLock::try_acquire(table_path(options.directory, m, options.rules)))
        return std::pair{m, std::move(*lock)};
      held.push_back(m);
    }
    return std::nullopt;
  }
  void finish(const Material& m) { std::erase(pending_, m); }

private:
  std::vector<Material> pending_;
  std::map<Material, std::optional<FileStamp>> stamps_;

  [[nodiscard]] bool ready(const Material& m) const {
    for (const Material& d : direct_dependencies(m))
      if (std::find(pending_.begin(), pending_.end(), d) != pending_.end()) return false;
    return true;
  }
};

// Builds or keeps one table whose lock this process holds. A file that changed since this run
// started was renamed into place by another process meanwhile: it is kept when valid, also as a
// target of options.force (rebuilt once during this run is what --force asks, so N --force
// processes on one directory rebuild each table once, not N times).
GenerateRecord finish_table(const Material& m, const TableLock& lock, const Worklist& work,
                            std::span<const Material> targets, const GenerateOptions& options) {
  const auto path = table_path(options.directory, m, options.rules);
  remove_stale_temporaries(path, lock);
  refuse_other_table(path, m, options);
  const std::optional<FileStamp> now = stamp_of(path);
  const bool changed = now != work.stamp_at_start(m);
  std::string why;
  std::optional<GenerateRecord> record;
  if (!(options.force && is_target(targets, m) && !changed)) record = kept(m, options, why);
  if (!record) return generate_one(m, options, why);
  record->by_other_process = changed;
  return *record;
}

// Waits a little (20 ms, doubling up to half a second) for a lock to be released, telling
// options.waiting first.
class Waiter {
public:
  void wait(const std::vector<Material>& held, const GenerateOptions& options) {
    if (options.waiting) options.waiting(held);
    for (const Material& m : held)
      if (std::find(waited_.begin(), waited_.end(), m) == waited_.end()) waited_.push_back(m);
    const auto start = std::chrono::steady_clock::now();
    std::this_thread::sleep_for(pause_);
    pause_ = std::min(pause_ * 2, std::chrono::milliseconds(500));
    seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  // Puts what was waited for since the last record into `record`, and starts again.
  void report(GenerateRecord& record) {
    record.waited_for = std::exchange(waited_, {});
    record.wait_seconds = std::exchange(seconds_, 0.0);
    pause_ = std::chrono::milliseconds(20);
  }

private:
  std::vector<Material> waited_;
  double seconds_ = 0;
  std::chrono::milliseconds pause_{20};
};

}  // namespace

namespace {

// "DIR: tables missing, not built without their closure: KRPkr needs KQRkr, KRBkr; build them
// first (egtb generate KQRkr KRBkr --dir DIR)".
std::string missing_text(const std::filesystem::path& directory,
                         const std::vector<std::pair<Material, Material>>& missing) {
  std::string text = directory.string() + ": tables missing, not built without their closure";
  std::vector<Material> subtables;
  for (size_t i = 0; i < missing.size(); ++i) {
    const auto& [table, subtable] = missing[i];
    const bool first = i == 0 || missing[i - 1].first != table;
    text += first ? (i == 0 ? ": " : "; ") + table.str() + " needs " + subtable.str() : ", " + subtable.str();
    if (std::find(subtables.begin(), subtables.end(), subtable) == subtables.end())
      subtables.push_back(subtable);
  }
  text += "; build them first (egtb generate";
  for (const Material& m : subtables) text += " " + m.str();
  return text + " --dir " + directory.string() + ")";
}

}  // namespace

MissingSubtables::MissingSubtables(const std::filesystem::path& directory,
                                   const std::vector<std::pair<Material, Material>>& missing)
    : std::runtime_error(missing_text(directory, missing)) {}

namespace {

// "KNNNNk: its solve is estimated at 16.5 GiB in the least memory this build can (egtb plan
// KNNNNk), more than this machine's 16.0 GiB: nothing was built; it needs --max-memory 16893M or
// more, on a machine with that much memory" (the lean path's estimate, cost_model.hpp).
std::string too_large_text(const Material& table, uint64_t needed_bytes, uint64_t machine_bytes) {
  const auto size = [](uint64_t bytes) {
    std::array<char, 32> text{};
    const auto b = static_cast<double>(bytes);
    if (bytes < (uint64_t{1} << 30))
      std::snprintf(text.data(), text.size(), "%.0f MiB", b / static_cast<double>(1 << 20));
    else
      std::snprintf(text.data(), text.size(), "%.1f GiB", b / static_cast<double>(1 << 30));
    return std::string(text.data());
  };
  const uint64_t mib = (needed_bytes + (1 << 20) - 1) >> 20;
  return table.str() + ": its solve is estimated at " + size(needed_bytes) +
         " in the least memory this build can (egtb plan " + table.str() + "), more than this machine's " +
         size(machine_bytes) + ": nothing was built; it needs --max-memory " + std::to_string(mib) +
         "M or more, on a machine with that much memory";
}

}  // namespace

TableTooLarge::TableTooLarge(const Material& table, uint64_t needed_bytes, uint64_t machine_bytes)
    : std::runtime_error(too_large_text(table, needed_bytes, machine_bytes)) {}

std::vector<GenerateRecord> generate_tables(std::span<const Material> targets, const GenerateOptions& options,
                                            const std::function<void(const GenerateRecord&)>& on_table) {
  std::filesystem::create_directories(options.directory);
  remove_stale_temporaries(options.directory);
  const std::vector<Material> tables = tables_to_build(targets, options);
  refuse_too_large(tables, targets, options);
  Worklist work(tables, options);
  Waiter waiter;
  std::vector<GenerateRecord> records;
  std::vector<Material> held;
  while (!work.empty()) {
    if (std::optional<GenerateRecord> record = work.take_kept(targets, options)) {
      records.push_back(std::move(*record));
      work.finish(records.back().material);
      if (on_table) on_table(records.back());
      continue;
    }
    auto claimed = work.claim(options, held);
    if (!claimed) {
      waiter.wait(held, options);
      continue;
    }
    const Material m = claimed->first;
    records.push_back(finish_table(m, claimed->second, work, targets, options));
    claimed.reset();  // releases the lock
    waiter.report(records.back());
    work.finish(m);
    if (on_table) on_table(records.back());
  }
  return records;
}

}  // namespace egtb::retro
