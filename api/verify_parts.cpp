#include "api/verify_parts.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

#include "api/errors.hpp"
#include "api/json.hpp"
#include "egtb/store/reader.hpp"
#include "egtb/store/table.hpp"

namespace egtb::api {

namespace {

// One part's report as its file gives it.
struct PartReport {
  std::filesystem::path file;
  retro::VerifyReport report;
};

// The value of `key` in `object`, of JSON type T; throws InputError naming the file and the field.
template <class T>
T field(const Json& object, const char* key, const std::filesystem::path& file) {
  const auto it = object.find(key);
  if (it == object.end() || it->is_null())
    throw InputError(file.string() + ": not a report of egtb verify --json: no field \"" + key + "\"");
  try {
    return it->get<T>();
  } catch (const Json::exception&) {
    throw InputError(file.string() + ": field \"" + key + "\" is " + it->dump() +
                     ", not what egtb verify writes");
  }
}

retro::VerifySideCounts side_counts(const Json& side, const std::filesystem::path& file) {
  retro::VerifySideCounts s;
  s.first = field<uint64_t>(side, "first", file);
  s.entries = field<uint64_t>(side, "entries", file);
  s.positions = field<uint64_t>(side, "positions", file);
  s.duplicates = field<uint64_t>(side, "duplicates", file);
  s.values = field<std::array<uint64_t, 5>>(side, "lasker", file);
  s.errors = field<uint64_t>(side, "errors", file);
  return s;
}

// A report of egtb verify --json is a few KB (at most 20 errors in full a table); a larger file in
// the directory is refused unread rather than parsed into memory.
constexpr uintmax_t MaxReportBytes = uintmax_t{1} << 24;

// The report of `table` in `file`, or nothing when the file reports other tables only.
std::optional<retro::VerifyReport> report_in(const std::filesystem::path& file, const Material& table) {
  if (const uintmax_t bytes = std::filesystem::file_size(file); bytes > MaxReportBytes)
    throw InputError(file.string() + ": " + std::to_string(bytes) +
                     " bytes, too large for a report of egtb verify --json (at most " +
                     std::to_string(MaxReportBytes) + ")");
  std::ifstream in(file);
  if (!in) throw InputError(file.string() + ": cannot be read");
  const Json document = Json::parse(in, nullptr, false);
  if (document.is_discarded() || !document.is_object())
    throw InputError(file.string() + ": not JSON (a report of egtb verify --json)");
  for (const Json& t : field<Json>(document, "tables", file)) {
    if (field<std::string>(t, "signature", file) != table.str()) continue;
    retro::VerifyReport r;
    r.material = table;
    const Json part = field<Json>(t, "part", file);
    r.part.number = field<uint64_t>(part, "number", file);
    r.part.count = field<uint64_t>(part, "count", file);
    r.entries_checked = field<uint64_t>(t, "entries_checked", file);
    r.error_count = field<uint64_t>(t, "errors", file);
    const Json sides = field<Json>(t, "sides", file);
    r.sides[0] = side_counts(field<Json>(sides, "w", file), file);
    r.sides[1] = side_counts(field<Json>(sides, "b", file), file);
    return r;
  }
  return std::nullopt;
}

// Every report of `table` in the *.json files of `parts`, in the order of their file names.
std::vector<PartReport> read_parts(const Material& table, const std::filesystem::path& parts) {
  std::error_code error;
  if (!std::filesystem::is_directory(parts, error))
    throw InputError(parts.string() + ": not a directory of reports of egtb verify --part K/N --json");
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(parts))
    if (entry.path().extension() == ".json" && entry.is_regular_file()) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  std::vector<PartReport> out;
  for (const auto& file : files)
    if (auto report = report_in(file, table)) out.push_back({file, std::move(*report)});
  if (out.empty())
    throw InputError(parts.string() + ": no report of " + table.str() + " among its " +
                     std::to_string(files.size()) + " JSON files");
  return out;
}

std::string part_name(const PartReport& p) {
  return "part " + std::to_string(p.report.part.number) + " of " + std::to_string(p.report.part.count) +
         " (" + p.file.string() + ")";
}

// N of the split most reports are parts of (the smallest N on a tie).
uint64_t split_of(const std::vector<PartReport>& parts) {
  std::map<uint64_t, size_t> reports;
  for (const PartReport& p : parts) ++reports[p.report.part.count];
  return std::max_element(reports.begin(), reports.end(),
                          [](const auto& a, const auto& b) { return a.second < b.second; })
      ->first;
}

// The problems of the set of parts: one split (of `count` parts, split_of), every part once, each
// where its split puts it.
std::vector<std::string> coverage_problems(const std::vector<PartReport>& parts, uint64_t count,
                                           indexing::Index size) {
  std::vector<std::string> problems;
  const PartReport& first_of_split = *std::find_if(
      parts.begin(), parts.end(), [count](const PartReport& p) { return p.report.part.count == count; });
  std::map<uint64_t, const PartReport*> by_number;
  for (const PartReport& p : parts) {
    const retro::VerifyPart part = p.report.part;
    if (part.count != count) {
      problems.push_back(part_name(p) + " is of another split than " + part_name(first_of_split));
      continue;
    }
    if (part.number < 1 || part.number > count) {
      problems.push_back(part_name(p) + " does not exist");
      continue;
    }
    if (const auto [it, added] = by_number.emplace(part.number, &p); !added)
      problems.push_back(part_name(p) + " is given twice, also by " + it->second->file.string());
    for (Color c : {Color::White, Color::Black}) {
      const auto [first, end] = part.range(c, size);
      const retro::VerifySideCounts& s = p.report.sides[static_cast<size_t>(to_index(c))];
      if ((end > first && s.first != first) || s.entries != end - first)
        problems.push_back(part_name(p) + " checked " + std::to_string(s.entries) + " entries of " +
                           (c == Color::White ? "White" : "Black") + " to move from " +
                           std::to_string(s.first) + ", where this table's part holds " +
                           std::to_string(end - first) + " from " + std::to_string(first) +
                           " (a report of another table file?)");
    }
  }
  for (uint64_t k = 1; k <= count; ++k)
    if (!by_number.contains(k))
      problems.push_back("part " + std::to_string(k) + " of " + std::to_string(count) + " is missing");
  return problems;
}

retro::VerifyReport added_up(const Material& table, const std::vector<PartReport>& parts) {
  retro::VerifyReport total;
  total.material = table;
  for (const PartReport& p : parts) {
    total.entries_checked += p.report.entries_checked;
    total.error_count += p.report.error_count;
    for (size_t c = 0; c < 2; ++c) total.sides[c].add(p.report.sides[c]);
  }
  return total;
}

// The sums' positions per value against the header's entries per value, side by side.
std::vector<std::string> count_problems(const retro::VerifyReport& total, const TableHeader& header) {
  std::vector<std::string> problems;
  for (Color c : {Color::White, Color::Black}) {
    const size_t side = static_cast<size_t>(to_index(c));
    if (total.sides[side].values == header.stats[side].values) continue;
    std::ostringstream text;
    text << (c == Color::White ? "White" : "Black") << " to move: the parts count positions of values 0-4";
    for (uint64_t n : total.sides[side].values) text << ' ' << n;
    text << ", the table file";
    for (uint64_t n : header.stats[side].values) text << ' ' << n;
    problems.push_back(text.str());
  }
  return problems;
}

std::string outcome_text(const CombinedVerification& c) {
  std::string text = retro::format_report(c.total);
  text += "  added up from " + std::to_string(c.files.size()) + " report" + (c.files.size() == 1 ? "" : "s");
  text += c.problems.empty()
              ? ", parts 1-" + std::to_string(c.part_count) + " of " + std::to_string(c.part_count) +
                    " once each, the positions per value the table file's\n"
              : ", which do not add up:\n";
  for (const std::string& p : c.problems) text += "  " + p + '\n';
  return text;
}

}  // namespace

CombinedVerification combine_verify_parts(const Material& table, const VerifyRequest& request,
                                          const std::filesystem::path& parts) {
  const TableReader reader(table_path(request.directory, table, request.rules), {table, request.rules, {}});
  std::vector<PartReport> reports = read_parts(table, parts);
  std::sort(reports.begin(), reports.end(), [](const PartReport& a, const PartReport& b) {
    return std::pair(a.report.part.count, a.report.part.number) <
           std::pair(b.report.part.count, b.report.part.number);
  });
  CombinedVerification out;
  out.part_count = split_of(reports);
  out.problems = coverage_problems(reports, out.part_count, reader.scheme().size());
  out.total = added_up(table, reports);
  if (out.problems.empty()) out.problems = count_problems(out.total, reader.header());
  for (const PartReport& p : reports) out.files.push_back(p.file);
  out.text = outcome_text(out);
  return out;
}

}  // namespace egtb::api
