#include "egtb/store/tablebase.hpp"

#include <mutex>

#include "egtb/core/fen.hpp"
#include "egtb/store/error.hpp"
#include "egtb/store/format.hpp"
#include "egtb/store/reader.hpp"
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
  if (const auto problem = validate(pos))
    return ProbeError{Kind::InvalidPosition, "invalid position: " + *problem, {}};
  if (const int men = popcount(pos.pieces()); men > Material::MaxMen)
    return ProbeError{Kind::TooManyMen,
                      "the position has " + std::to_string(men) + " men; tables exist for at most " +
                          std::to_string(Material::MaxMen),
                      {}};
  return std::nullopt;
}

}  // namespace

struct Tablebase::OpenTable {
  OpenTable(const std::filesystem::path& path, const Material& material)
      : reader(path), scheme(check_compatible(reader.header(), path)) {
    if (!(scheme.material() == material))
      throw FormatError(path, "holds " + reader.header().signature + ", not " + material.str());
  }

  TableReader reader;
  indexing::IndexScheme scheme;
  uint32_t id = 0;  // the table's number in the block cache keys
};

Tablebase::Tablebase(std::filesystem::path directory, TablebaseOptions options)
    : directory_(std::move(directory)), cache_(options.cache_bytes) {}

Tablebase::~Tablebase() = default;

std::filesystem::path Tablebase::table_path(const Material& material) const {
  return directory_ / table_file_name(material.normalized().str());
}

bool Tablebase::has_table(const Material& material) const {
  return std::filesystem::is_regular_file(table_path(material));
}

const Tablebase::OpenTable* Tablebase::find_table(const Material& canonical) const {
  {
    const std::shared_lock lock(tables_mutex_);
    if (const auto it = tables_.find(canonical); it != tables_.end()) return it->second.get();
  }
  const std::filesystem::path path = table_path(canonical);
  if (!std::filesystem::exists(path)) return nullptr;
  auto table = std::make_unique<OpenTable>(path, canonical);
  const std::unique_lock lock(tables_mutex_);
  table->id = static_cast<uint32_t>(tables_.size());
  return tables_.try_emplace(canonical, std::move(table)).first->second.get();
}

Score Tablebase::lookup(const OpenTable& table, Color stm, uint64_t index) const {
  const BlockCache::Key key{table.id, table.reader.block_of(stm, index)};
  const BlockCache::Block block =
      cache_.find_or_load(key, [&](std::vector<uint16_t>& out) { table.reader.read_block(key.block, out); });
  return Score::from_raw((*block)[table.reader.offset_in_block(index)]);
}

Expected<Score, ProbeError> Tablebase::probe(const Position& input) const {
  if (auto problem = check_probeable(input)) return unexpected(std::move(*problem));
  const Material material = Material::from(input);
  if (material.is_bare_kings()) return Score::draw();
  const Material canonical = material.normalized();
  const OpenTable* table = find_table(canonical);
  if (!table)
    return fail(ProbeError::Kind::MissingTable,
                "no table for " + canonical.str() + ": " + table_path(canonical).string() +
                    " is missing (build it with: egtb generate " + canonical.str() + " --dir " +
                    directory_.string() + ")",
                canonical.str());
  const Position pos = material == canonical ? input : color_flipped(input);
  const std::optional<indexing::Index> index = table->scheme.index_of(pos);
  if (!index)
    return fail(ProbeError::Kind::InvalidPosition, "the position has no entry in " + canonical.str(),
                canonical.str());
  const Score score = lookup(*table, pos.side_to_move(), *index);
  if (!score.is_valid())
    throw FormatError(table->reader.path(), "entry " + std::to_string(*index) + " is marked " +
                                                describe(score) + " but holds the legal position " +
                                                to_fen(pos));
  return score;
}

std::optional<Score> Tablebase::try_probe(const Position& pos) const {
  auto result = probe(pos);
  if (!result) return std::nullopt;
  return *result;
}

}  // namespace egtb
