#include "api/signatures.hpp"

#include "api/errors.hpp"

namespace egtb::api {

Material parse_oriented_signature(std::string_view text, int max_men) {
  const auto m = Material::parse(text, max_men);
  if (!m) throw InputError(m.error());
  if (m->is_bare_kings()) throw InputError("KK has no table: bare kings are a draw");
  return *m;
}

Material parse_signature(std::string_view text, int max_men) {
  return parse_oriented_signature(text, max_men).normalized();
}

int check_men(int men, int max_men) {
  if (men < 3 || men > max_men)
    throw InputError("--all must be a whole number from 3 to " + std::to_string(max_men) + ", not '" +
                     std::to_string(men) + "'");
  return men;
}

std::vector<Material> signatures(const std::vector<std::string>& texts, std::optional<int> all, int max_men) {
  std::vector<Material> tables;
  if (all) tables = all_signatures(check_men(*all, max_men));
  for (const std::string& text : texts) tables.push_back(parse_signature(text, max_men));
  return tables;
}

std::vector<Material> available_tables(const Tablebase& tablebase, int max_men) {
  std::vector<Material> tables;
  for (const Material& m : all_signatures(check_men(max_men)))
    if (tablebase.has_table(m)) tables.push_back(m);
  return tables;
}

namespace {

// Every table of 3 to `max_men` men present; throws MissingTableError when there is none.
std::vector<Material> some_tables(const Tablebase& tablebase, int max_men) {
  std::vector<Material> tables = available_tables(tablebase, max_men);
  if (tables.empty())
    throw MissingTableError("no table of 3 to " + std::to_string(max_men) + " men in " +
                                tablebase.directory().string() + " (build them with: egtb generate --all " +
                                std::to_string(max_men) + " --dir " + tablebase.directory().string() + ")",
                            "");
  return tables;
}

}  // namespace

std::vector<Material> scan_tables(const Tablebase& tablebase, const std::vector<std::string>& texts,
                                  std::optional<int> all) {
  std::vector<Material> tables;
  if (all) tables = some_tables(tablebase, *all);
  if (texts.size() == 1 && texts[0] == "all") {
    const std::vector<Material> every = some_tables(tablebase, Material::MaxMen);
    tables.insert(tables.end(), every.begin(), every.end());
    return tables;
  }
  for (const std::string& text : texts) tables.push_back(parse_oriented_signature(text));
  return tables;
}

std::vector<Material> present_tables(const Tablebase& tablebase, const std::vector<std::string>& texts,
                                     std::optional<int> all) {
  std::vector<Material> tables;
  if (all) tables = some_tables(tablebase, *all);
  for (const std::string& text : texts) {
    const Material m = parse_signature(text);
    if (!tablebase.has_table(m)) throw MissingTableError(tablebase.missing_message(m), m.str());
    tables.push_back(m);
  }
  return tables;
}

}  // namespace egtb::api
