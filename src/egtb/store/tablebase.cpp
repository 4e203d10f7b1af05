#include "egtb/store/tablebase.hpp"

#include <mutex>
#include <utility>

#include "egtb/core/fen.hpp"
#include "egtb/store/error.hpp"
#include "egtb/store/format.hpp"
#include "indexing/index.hpp"

namespace egtb {

namespace {

Unexpected<ProbeError> fail(ProbeError::Kind kind, std::string message, std::string table = {}) {
  return unexpected(ProbeError{kind, std::move(message), std::move(table)});
}

std::string castling_text(CastlingRights rights) {
  std::string text;
  for (const auto& [bit, letter] : {std::pair{1, 'K'}, {2, 'Q'}, {4, 'k'}, {8, 'q'}})
    if (rights & bit) text += letter;
  return text;
}

// Why a position cannot be probed before any table is consulted, if it cannot.
std::optional<ProbeError> check_probeable(const Position& pos) {
  using Kind = ProbeError::Kind;
  if (pos.castling_rights() != 0)
    return ProbeError{Kind::Castling,
                      "the position has castling rights (" + castling_text(pos.castling_rights()) +
                          "); tables hold positions without castling rights",
                      {}};
  // The tables hold every position whose side not to move is not in check, including those no game
  // reaches (three men checking the king, as in 8/8/8/8/8/6N1/5QB1/3K1k2 b, an example of KQBNk's
  // statistics), so those are probed too.
  if (const auto problem = validate_table_position(pos))
    return ProbeError{Kind::InvalidPosition, "invalid position: " + *problem, {}};
  if (const int men = popcount(pos.pieces()); men > Material::MaxMen)
    return ProbeError{Kind::TooManyMen,
                      "the position has " + std::to_string(men) + " men; tables exist for at most " +
                          std::to_string(Material::MaxMen),
                      {}};
  return std::nullopt;
}

// Throws IoError when `directory` exists but is not a directory (a missing one has no tables).
void check_directory(const std::filesystem::path& directory) {
  std::error_code ec;
  if (!directory.empty() && std::filesystem::exists(directory, ec) &&
      !std::filesystem::is_directory(directory, ec))
    throw IoError(directory, "is not a directory (the table directory, --dir)");
}

// True when something is at `path`: a file, or a link (that may loop or lead nowhere) or directory,
// which opening it as a table reports.
bool occupied(const std::filesystem::path& path) {
  std::error_code error;
  return std::filesystem::exists(std::filesystem::symlink_status(path, error));
}

// True when nothing is at `path`, a link leading nowhere included; false when something is or
// it cannot tell (a link that loops), which opening it as a table reports.
bool absent(const std::filesystem::path& path) {
  std::error_code ec;
  return !std::filesystem::exists(path, ec) && !ec;
}

}  // namespace

bool within_tables(const Position& pos) {
  return pos.castling_rights() == 0 && popcount(pos.pieces()) <= Material::MaxMen;
}

Tablebase::Tablebase(std::filesystem::path directory, TablebaseOptions options)
    : Tablebase(std::move(directory), options,
                std::make_shared<BlockCache>(options.cache_bytes, BlockCache::Memory::HugePagePool)) {
  check_directory(directory_);
}

Tablebase::Tablebase(std::filesystem::path directory, TablebaseOptions options,
                     std::shared_ptr<BlockCache> cache)
    : directory_(std::move(directory)),
      rules_(options.rules),
      cache_(std::move(cache)),
      file_check_interval_(options.file_check_interval) {}

Tablebase::~Tablebase() = default;

void Tablebase::add_directory(std::filesystem::path directory) {
  check_directory(directory);
  const std::unique_lock lock(directories_mutex_);
  more_directories_.push_back(std::move(directory));
}

std::vector<std::filesystem::path> Tablebase::directories() const {
  const std::shared_lock lock(directories_mutex_);
  std::vector<std::filesystem::path> all{directory_};
  all.insert(all.end(), more_directories_.begin(), more_directories_.end());
  return all;
}

std::filesystem::path Tablebase::located(const Material& material, bool value_file) const {
  const auto file = [&](const std::filesystem::path& directory) {
    std::filesystem::path path = egtb::table_path(directory, material, rules_);
    return value_file ? egtb::value_file_path(path) : path;
  };
  const std::filesystem::path first = file(directory_);
  const std::shared_lock lock(directories_mutex_);
  if (more_directories_.empty() || occupied(first)) return first;
  for (const std::filesystem::path& d : more_directories_)
    if (auto path = file(d); occupied(path)) return path;
  return first;
}

std::filesystem::path Tablebase::table_path(const Material& material) const {
  return located(material, false);
}

std::filesystem::path Tablebase::value_file_path(const Material& material) const {
  return located(material, true);
}

bool Tablebase::has_table(const Material& material) const { return occupied(table_path(material)); }

std::string Tablebase::generate_command(const Material& material) const {
  const std::string rules = rules_ == Rules::Lasker ? "" : " --rules " + std::string(rules_name(rules_));
  return "egtb generate " + material.normalized().str() + rules + " --dir " + directory_.string();
}

std::string Tablebase::missing_message(const Material& material) const {
  const std::vector<std::filesystem::path> all = directories();
  std::string missing = table_path(material).string() + " is missing";
  if (all.size() > 1) {
    missing = egtb::table_path({}, material, rules_).string() + " is in none of the directories ";
    for (size_t i = 0; i < all.size(); ++i) {
      if (i > 0) missing += ", ";
      missing += all[i].string();
    }
  }
  return "no table for " + material.normalized().str() + ": " + missing +
         " (build it with: " + generate_command(material) + ")";
}

std::string Tablebase::incomplete_message(const Material& material) const {
  return material.normalized().str() + " was built without DTS (--metrics dtm), so its stalemate wins and " +
         "losses read as draws (rebuild it with: " + generate_command(material) + ")";
}

std::shared_ptr<const Table> Tablebase::table(const Material& material) const {
  const Material canonical = material.normalized();
  if (!find(canonical)) return nullptr;
  const std::shared_lock lock(tables_mutex_);
  const auto it = tables_.find(canonical);  // the newest, should another thread have opened it again
  return it == tables_.end() ? nullptr : it->second.table;
}

std::vector<Material> Tablebase::incomplete_tables() const {
  std::vector<Material> out;
  const std::shared_lock lock(tables_mutex_);
  for (const auto& [material, open] : tables_)
    if (!open.table->metrics().contains(all_metrics(rules_)) && open.table->metrics() != StalemateOnly)
      out.push_back(material);
  return out;
}

const Table* Tablebase::find(const Material& canonical) const {
  const Table* open = nullptr;
  bool due = false;
  {
    const std::shared_lock lock(tables_mutex_);
    if (const auto it = tables_.find(canonical); it != tables_.end()) {
      open = it->second.table.get();
      due = check_due(it->second);
    }
  }
  if (open) return due ? current(canonical, open) : open;
  if (absent(table_path(canonical))) return nullptr;
  auto opened = open_table(canonical);
  const std::unique_lock lock(tables_mutex_);
  return tables_.try_emplace(canonical, std::move(opened)).first->second.table.get();
}

std::shared_ptr<const Table> Tablebase::open_table(const Material& canonical) const {
  TableRequirements required{canonical, rules_, {}};
  required.positions_only = true;  // probes ask for legal positions: filled blocks read as stored
  required.mapped = true;          // and read blocks at random
  return Table::page(table_path(canonical), required, cache_);
}

bool Tablebase::check_due(OpenTable& open) const {
  const int64_t now = std::chrono::steady_clock::now().time_since_epoch().count();
  int64_t last = open.checked.load(std::memory_order_relaxed);
  return now - last >= file_check_interval_.count() &&
         open.checked.compare_exchange_strong(last, now, std::memory_order_relaxed);
}

const Table* Tablebase::current(const Material& canonical, const Table* open) const {
  if (!open->file_changed()) return open;
  std::shared_ptr<const Table> fresh = absent(table_path(canonical)) ? nullptr : open_table(canonical);
  const std::unique_lock lock(tables_mutex_);
  const auto it = tables_.find(canonical);
  if (it == tables_.end()) return nullptr;                            // removed by another thread
  if (it->second.table.get() != open) return it->second.table.get();  // opened again by another
  retired_.push_back(std::move(it->second.table));
  if (!fresh) {
    tables_.erase(it);
    return nullptr;
  }
  it->second.table = std::move(fresh);
  return it->second.table.get();
}

Expected<Score, ProbeError> Tablebase::probe_table(const Table& t, const Position& pos,
                                                   const Material& canonical) const {
  const std::optional<indexing::Index> index = t.scheme().index_of(pos);
  if (!index)
    return fail(ProbeError::Kind::InvalidPosition, "the position has no entry in " + canonical.str(),
                canonical.str());
  const Score score = t.at(pos.side_to_move(), *index);
  if (!score.is_valid())
    throw FormatError(t.path(), "entry " + std::to_string(*index) + " is marked " + describe(score) +
                                    " but holds the legal position " + to_fen(pos));
  return score;
}

std::string Tablebase::lacking_message(const Material& canonical, MetricSet needed) const {
  if (needed.contains(Metric::Dtm))
    return canonical.str() +
           " holds stalemates only (built with --metrics dts): ask it for stalemates (egtb " +
           "probe --stalemate, egtb_probe_stalemate, Tablebase.probe_stalemate) or build the full table "
           "with: " +
           generate_command(canonical);
  return canonical.str() +
         " was built without DTS (--metrics dtm), so it cannot tell stalemates (rebuild it " +
         "with: " + generate_command(canonical) + ")";
}

Expected<Score, ProbeError> Tablebase::probe(const Position& input) const {
  return probe_stored(input, MetricSet{Metric::Dtm});
}

Expected<Score, ProbeError> Tablebase::probe_stalemate(const Position& input) const {
  auto score = probe_stored(input, StalemateOnly);
  if (!score) return score;
  return as_stored(rules_, StalemateOnly, *score);
}

Expected<Score, ProbeError> Tablebase::probe_stored(const Position& input, MetricSet needed) const {
  if (auto problem = check_probeable(input)) return unexpected(std::move(*problem));
  const Material material = Material::from(input);
  if (material.is_bare_kings()) return Score::draw();
  const TableOrientation orientation = orientation_of(material);
  const Table* t = find(orientation.canonical);
  if (!t) return fail(ProbeError::Kind::MissingTable, missing_message(material), orientation.canonical.str());
  if (rules_ == Rules::Lasker && !t->metrics().contains(needed))
    return fail(ProbeError::Kind::MissingMetric, lacking_message(orientation.canonical, needed),
                orientation.canonical.str());
  const Position pos = orientation.oriented(input);
  try {
    return probe_table(*t, pos, orientation.canonical);
  } catch (const StoreError&) {  // the file may have been rewritten since it was last compared
    const Table* fresh = current(orientation.canonical, t);
    if (fresh == t) throw;
    if (!fresh)
      return fail(ProbeError::Kind::MissingTable, missing_message(material), orientation.canonical.str());
    return probe_table(*fresh, pos, orientation.canonical);
  }
}

const ValueTable* Tablebase::find_values(const Material& canonical) const {
  const uint64_t hash = canonical.hash();
  const auto is_it = [&](const ValueTables::value_type& open) { return open.first == canonical; };
  if (const ValueTables::value_type* open = value_slots_.find(hash, is_it)) return open->second.get();
  {
    const std::shared_lock lock(value_tables_mutex_);
    if (const auto it = value_tables_.find(canonical); it != value_tables_.end()) return it->second.get();
  }
  const std::filesystem::path path = value_file_path(canonical);
  if (absent(path)) return nullptr;
  const MetricSet needed = rules_ == Rules::Lasker ? MetricSet{Metric::Dtm} : MetricSet{};
  auto opened = std::make_unique<const ValueTable>(path, TableRequirements{canonical, rules_, needed});
  const std::unique_lock lock(value_tables_mutex_);
  const auto [it, added] = value_tables_.try_emplace(canonical, std::move(opened));
  if (added) (void)value_slots_.add(hash, &*it);
  return it->second.get();
}

Expected<Lasker, ProbeError> Tablebase::probe_value(const Position& input) const {
  if (auto problem = check_probeable(input)) return unexpected(std::move(*problem));
  const Material material = Material::from(input);
  if (material.is_bare_kings()) return Lasker::Draw;
  const TableOrientation orientation = orientation_of(material);
  const ValueTable* values = find_values(orientation.canonical);
  if (!values)
    return fail(ProbeError::Kind::MissingTable,
                "no value file for " + orientation.canonical.str() + ": " +
                    value_file_path(orientation.canonical).string() +
                    " is missing (write it from the table file with: egtb recompress " +
                    orientation.canonical.str() + " --value-files --dir " + directory_.string() + ")",
                orientation.canonical.str());
  const Position pos = orientation.oriented(input);
  const std::optional<indexing::Index> index = values->scheme().index_of(pos);
  if (!index)
    return fail(ProbeError::Kind::InvalidPosition,
                "the position has no entry in " + orientation.canonical.str(), orientation.canonical.str());
  return values->at(pos.side_to_move(), *index);
}

std::optional<Score> Tablebase::try_probe(const Position& pos) const {
  auto result = probe(pos);
  if (!result) return std::nullopt;
  return *result;
}

}  // namespace egtb
