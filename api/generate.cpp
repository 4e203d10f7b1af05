#include "api/generate.hpp"

#include <algorithm>

#include "api/errors.hpp"
#include "api/signatures.hpp"

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

std::vector<retro::GenerateRecord> generate(const GenerateRequest& request,
                                            const GenerateCallbacks& callbacks, OptionSpelling spelling) {
  const std::vector<Material> targets = check(request, spelling);
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
  if (r.compression_level != DefaultCompressionLevel)
    args.insert(args.end(), {"--compression-level", std::to_string(r.compression_level)});
  if (r.threads > 0) args.insert(args.end(), {"--threads", std::to_string(r.threads)});
  if (r.force) args.emplace_back("--force");
  return args;
}

}  // namespace egtb::api
