#include "tools/egtb/options.hpp"

#include <algorithm>
#include <charconv>
#include <iostream>
#include <sstream>
#include <string_view>
#include <utility>

#include "api/options.hpp"
#include "api/signatures.hpp"

namespace egtb::cli {

namespace {

// The hidden option that collects the positional arguments.
constexpr const char* PositionalKey = "positional-arguments";

}  // namespace

CommandLine::CommandLine(std::string name, std::string summary)
    : name_(std::move(name)), summary_(std::move(summary)) {
  options_.add_options()("help,h", "print this help");
}

CommandLine& CommandLine::positional(std::string name, std::string description) {
  positionals_.push_back({std::move(name), std::move(description)});
  return *this;
}

CommandLine& CommandLine::rest(std::string name, std::string description) {
  rest_ = Positional{std::move(name), std::move(description)};
  return *this;
}

std::vector<std::string> CommandLine::rest_arguments() const {
  return {arguments_.begin() + static_cast<std::ptrdiff_t>(positionals_.size()), arguments_.end()};
}

CommandLine& CommandLine::rules_option() {
  options_.add_options()(
      "rules", po::value<std::string>()->value_name("NAME"),
      "lasker (default: stalemate is a lesser win), stalemate-wins (stalemate wins like mate) "
      "or stalemate-passes (a stalemated side passes)");
  return *this;
}

CommandLine& CommandLine::json_option() {
  options_.add_options()("json", "print machine-readable JSON");
  return *this;
}

bool CommandLine::parse(const std::vector<std::string>& args) {
  po::options_description all;
  all.add(options_).add_options()(PositionalKey, po::value<std::vector<std::string>>(&arguments_));
  po::positional_options_description positional;
  positional.add(PositionalKey, -1);
  try {
    po::store(po::command_line_parser(args).options(all).positional(positional).run(), values_);
    if (flag("help")) {
      print_help(std::cout);
      return false;
    }
    po::notify(values_);
  } catch (const po::error& e) {
    throw UsageError(name_ + ": " + e.what());
  }
  check_arguments();
  return true;
}

void CommandLine::check_arguments() const {
  if (arguments_.size() < positionals_.size())
    throw UsageError(name_ + ": missing argument " + positionals_[arguments_.size()].name + " (see egtb " +
                     name_ + " --help)");
  if (arguments_.size() > positionals_.size() && !rest_)
    throw UsageError(name_ + ": unexpected argument '" + arguments_[positionals_.size()] +
                     "' (a FEN must be quoted)");
}

const std::string& CommandLine::argument(const std::string& name) const {
  for (size_t i = 0; i < positionals_.size(); ++i)
    if (positionals_[i].name == name) return arguments_.at(i);
  throw std::logic_error("no positional argument " + name);
}

std::string CommandLine::option(const std::string& name, const std::string& fallback) const {
  return flag(name) ? values_[name].as<std::string>() : fallback;
}

void CommandLine::print_help(std::ostream& out) const {
  out << "Usage: egtb " << name_;
  std::vector<Positional> all = positionals_;
  if (rest_) all.push_back({rest_->name + "...", rest_->description});
  for (const Positional& p : all) out << ' ' << p.name;
  out << " [options]\n\n" << summary_ << "\n";
  if (!all.empty()) {
    size_t width = 0;
    for (const Positional& p : all) width = std::max(width, p.name.size());
    out << "\nArguments:\n";
    for (const Positional& p : all)
      out << "  " << p.name << std::string(width - p.name.size() + 2, ' ') << p.description << '\n';
  }
  out << '\n' << options_;
}

std::optional<int> all_option(const CommandLine& cl, int max_men) {
  if (!cl.flag("all")) return std::nullopt;
  return parse_int(cl.option("all", ""), "--all", 3, max_men);
}

std::vector<Material> parse_signatures(const CommandLine& cl, const std::string& command, int max_men) {
  std::vector<Material> tables = api::signatures(cl.rest_arguments(), all_option(cl, max_men), max_men);
  if (tables.empty())
    throw UsageError(command + ": name at least one signature or --all N (see egtb " + command + " --help)");
  return tables;
}

indexing::Convention convention_option(const CommandLine& cl) {
  return api::convention_named(cl.option("convention", "index462"), "--convention");
}

Rules rules_of(const CommandLine& cl) {
  const std::string name = cl.option("rules", "lasker");
  if (const auto rules = parse_rules(name)) return *rules;
  throw UsageError("--rules must be lasker, stalemate-wins or stalemate-passes, not '" + name + "'");
}

int threads_option(const CommandLine& cl) {
  return parse_int(cl.option("threads", "0"), "--threads", 0, 1024);
}

size_t cache_bytes_option(const CommandLine& cl) {
  return (size_t{1} << 20) *
         static_cast<size_t>(parse_int(cl.option("cache-mb", "1024"), "--cache-mb", 1, 1 << 20));
}

std::vector<int> thread_list_option(const CommandLine& cl) {
  std::vector<int> counts;
  std::istringstream in(cl.option("threads", "1,2"));
  for (std::string item; std::getline(in, item, ',');)
    counts.push_back(parse_int(item, "--threads", 1, 1024));
  if (counts.empty()) throw UsageError("--threads needs a list such as 1,2");
  return counts;
}

int parse_int(const std::string& text, const std::string& what, int min, int max) {
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < min || value > max)
    throw UsageError(what + " must be a whole number from " + std::to_string(min) + " to " +
                     std::to_string(max) + ", not '" + text + "'");
  return value;
}

void print_json(const Json& json) { std::cout << api::json_text(json) << '\n'; }

}  // namespace egtb::cli
