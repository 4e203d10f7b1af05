#include "api/generate.hpp"

#include <algorithm>
#include <chrono>

#include "api/errors.hpp"
#include "api/signatures.hpp"
#include "egtb/store/error.hpp"
#include "egtb/store/reader.hpp"
#include "egtb/store/recompress.hpp"
#include "retro/process_usage.hpp"

namespace egtb::api {

namespace {

// "<option> must be a whole number from <min> to <max>, not '<value>'" unless min <= value <= max.
void check_range(int value, int min, int max, std::string_view option, OptionSpelling spelling) {
  if (value < min || value > max)
    throw InputError(option_name(option, spelling) + " must be a whole number from " + std::to_string(min) +
                     " to " + std::to_string(max) + ", not '" + std::to_string(value) + "'");
}

}  // namespace

std::string option_name(std::string_view option, OptionSpelling spelling) {
  if (spelling == OptionSpelling::CommandLine) return "--" + std::string(option);
  std::string name(option);
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

void check_options(const GenerateRequest& request, OptionSpelling spelling) {
  check_range(request.threads, 0, MaxThreads, "threads", spelling);
  check_range(request.compression_level, 1, MaxCompressionLevel, "compression-level", spelling);
  if (request.metrics && request.rules != Rules::Lasker)
    throw InputError(option_name("metrics", spelling) + " applies to lasker tables only");
  const bool stalemate_only = request.metrics == StalemateOnly;
  if (stalemate_only && !request.full_directory)
    throw InputError(option_name("metrics", spelling) + " dts needs " + option_name("full-dir", spelling) +
                     ": the directory of the full tables its stalemates are solved from");
  if (!stalemate_only && request.full_directory)
    throw InputError(option_name("full-dir", spelling) + " applies to " + option_name("metrics", spelling) +
                     " dts only");
  if (stalemate_only && std::filesystem::weakly_canonical(*request.full_directory) ==
                            std::filesystem::weakly_canonical(request.directory))
    throw InputError(option_name("full-dir", spelling) + " must differ from the directory of the " +
                     "stalemate-only tables (" + request.directory.string() + ")");
}

std::vector<Material> check(const GenerateRequest& request, OptionSpelling spelling) {
  check_options(request, spelling);
  std::vector<Material> targets = signatures(request.signatures, request.all);
  if (targets.empty())
    throw InputError(spelling == OptionSpelling::CommandLine
                         ? "generate: name at least one signature or --all N (see egtb generate --help)"
                         : "generate: name at least one signature, or all=N");
  return targets;
}

namespace {

// The stalemate-only table of a full one as `request` asks: kept when a valid one is at its path,
// the full table was kept too and the table is not a target of --force; else written.
retro::GenerateRecord stalemate_only_table(const retro::GenerateRecord& full, const GenerateRequest& request,
                                           std::span<const Material> targets) {
  const auto start = std::chrono::steady_clock::now();
  retro::GenerateRecord record;
  record.material = full.material;
  record.path = table_path(request.directory, full.material, request.rules);
  const bool forced =
      request.force && std::find(targets.begin(), targets.end(), full.material) != targets.end();
  if (!full.built && !forced) {
    try {
      const TableReader held(record.path, {full.material, request.rules, StalemateOnly});
      held.verify_checksums(request.threads);
      if (held.header().metrics == StalemateOnly) {
        record.header = held.header();
        return record;
      }
      record.replaced = "it holds " + to_string(held.header().metrics) + ", not dts alone";
    } catch (const StoreError& e) {
      record.replaced = std::filesystem::exists(record.path) ? e.what() : "";
    }
  }
  WriteOptions write;
  write.level = StalemateOnlyCompressionLevel;
  write.block_entries = StalemateOnlyBlockEntries;
  write.threads = request.threads;
  write.fill = true;
  write.orders = OrderSet::Any;  // read by probes only, never by a solve
  const double cpu_start = retro::process_cpu_seconds();
  retro::reset_peak_resident();
  record.header = write_metric_subset(full.path, record.path, StalemateOnly, write);
  record.built = true;
  record.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  record.cpu_seconds = retro::process_cpu_seconds() - cpu_start;
  record.peak_rss_bytes = retro::peak_resident_bytes();
  return record;
}

}  // namespace

std::vector<retro::GenerateRecord> generate(const GenerateRequest& request,
                                            const GenerateCallbacks& callbacks, OptionSpelling spelling) {
  const std::vector<Material> targets = check(request, spelling);
  if (request.metrics == StalemateOnly) {
    GenerateRequest full = request;
    full.directory = *request.full_directory;
    full.metrics.reset();
    full.full_directory.reset();
    GenerateCallbacks quiet = callbacks;
    quiet.on_table = nullptr;
    const std::vector<retro::GenerateRecord> full_records = generate(full, quiet, spelling);
    std::filesystem::create_directories(request.directory);
    std::vector<retro::GenerateRecord> records;
    for (const retro::GenerateRecord& r : full_records) {
      records.push_back(stalemate_only_table(r, request, targets));
      if (callbacks.on_table) callbacks.on_table(records.back());
    }
    return records;
  }
  retro::GenerateOptions options;
  options.directory = request.directory;
  options.threads = request.threads;
  options.rules = request.rules;
  options.metrics = request.metrics.value_or(all_metrics(request.rules));
  options.force = request.force;
  options.closure = request.closure;
  options.compression_level = request.compression_level;
  options.max_memory = request.max_memory;
  options.progress = callbacks.progress;
  options.waiting = callbacks.waiting;
  options.warning = callbacks.warning;
  return retro::generate_tables(targets, options, callbacks.on_table);
}

std::vector<std::string> generate_arguments(const GenerateRequest& r) {
  std::vector<std::string> args = r.signatures;
  if (r.all) args.insert(args.end(), {"--all", std::to_string(*r.all)});
  if (!r.closure) args.emplace_back("--no-closure");
  args.insert(args.end(), {"--dir", r.directory.string(), "--rules", std::string(rules_name(r.rules))});
  if (r.max_memory > 0) args.insert(args.end(), {"--max-memory", std::to_string(r.max_memory)});
  if (r.metrics) args.insert(args.end(), {"--metrics", to_string(*r.metrics)});
  if (r.full_directory) args.insert(args.end(), {"--full-dir", r.full_directory->string()});
  if (r.compression_level != DefaultCompressionLevel)
    args.insert(args.end(), {"--compression-level", std::to_string(r.compression_level)});
  if (r.threads > 0) args.insert(args.end(), {"--threads", std::to_string(r.threads)});
  if (r.force) args.emplace_back("--force");
  return args;
}

}  // namespace egtb::api
