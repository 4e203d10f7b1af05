#include "api/tables.hpp"

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "api/errors.hpp"
#include "api/signatures.hpp"
#include "egtb/store/error.hpp"
#include "egtb/store/reader.hpp"
#include "egtb/store/table.hpp"
#include "egtb/store/value_file.hpp"
#include "retro/process_usage.hpp"
#ifdef EGTB_HAVE_GAVIOTA
#include "retro/gaviota.hpp"
#endif

namespace egtb::api {

namespace {

void compare_with_gaviota([[maybe_unused]] const Table& table, [[maybe_unused]] const VerifyRequest& request,
                          [[maybe_unused]] VerifyOutcome& out) {
#ifdef EGTB_HAVE_GAVIOTA
  const retro::GaviotaReport g = retro::compare_with_gaviota(table, *request.gaviota, request.threads);
  out.gaviota_checked = true;
  out.gaviota_positions = g.positions_checked;
  out.gaviota_errors = g.error_count;
  out.gaviota_first_errors = g.errors;
  out.text += retro::format_report(g);
#endif
}

}  // namespace

void check_gaviota(const std::optional<std::filesystem::path>& dir) {
  if (!dir) return;
#ifndef EGTB_HAVE_GAVIOTA
  throw InputError(
      "--gaviota: this egtb was built without libgaviotatb (apt-get install libgaviotatb-dev, then rebuild)");
#else
  if (!std::filesystem::is_directory(*dir))
    throw InputError("--gaviota: '" + dir->string() + "' is not a directory");
#endif
}

namespace {

// Whether a table of `entries` per side is verified one side at a time (verify_table_by_side):
// when holding it whole, two bytes an entry, would take more than half the machine's memory.
// Example: KQRBkr, 6.8 G entries a side, 27 GB whole, is checked with 13.6 GB in memory.
bool verified_by_side(indexing::Index entries) {
  return 2 * 2 * entries > retro::physical_memory_bytes() / 2;
}

// Verifies the table of `m` in `directory` one ply forward (and against Gaviota when asked).
VerifyOutcome verify_forward(const Material& m, const std::filesystem::path& directory,
                             const VerifyRequest& request) {
  const auto path = table_path(directory, m, request.rules);
  const TableRequirements required{m, request.rules, {}};
  const TableReader reader(path, required);
  const retro::Subtables subtables =
      retro::Subtables::load(m, directory, reader.rules(), reader.header().metrics, request.cache_bytes);
  const indexing::Index size = reader.scheme().size();
  retro::VerifyOptions options;
  options.threads = request.threads;
  options.part = request.part;
  if (request.progress)
    options.progress = [&request, &m, size](Color c, uint64_t done) {
      const auto [first, end] = request.part.range(c, size);
      request.progress(m, c, done, end - first);
    };
  VerifyOutcome out;
  if (verified_by_side(size)) {
    std::shared_ptr<const Table> held;
    const auto cache = std::make_shared<BlockCache>(request.cache_bytes);
    const auto table_for = [&](Color c) -> const Table& {
      held.reset();  // the other side's entries go before this one's are read
      held = Table::load_side(path, required, ~c, cache);
      return *held;
    };
    out.forward = retro::verify_table_by_side(size, table_for, subtables, options);
    out.forward.material = m;
    out.text = retro::format_report(out.forward);
    return out;
  }
  const auto table = Table::load(path, required);
  out.forward = retro::verify_table(*table, subtables, options);
  out.text = retro::format_report(out.forward);
  if (request.gaviota && m.men() <= 4) compare_with_gaviota(*table, request, out);
  return out;
}

}  // namespace

VerifyOutcome verify(const Material& m, const VerifyRequest& request) {
  const auto path = table_path(request.directory, m, request.rules);
  const TableReader reader(path, {m, request.rules, {}});
  if (!request.part.whole() && (request.gaviota || reader.header().metrics == StalemateOnly))
    throw InputError("verify " + m.str() + ": " +
                     (request.gaviota ? "--gaviota compares the whole table"
                                      : "a stalemate-only table is compared with its full table whole") +
                     ", without --part");
  if (reader.header().metrics != StalemateOnly) return verify_forward(m, request.directory, request);
  if (!request.full_directory)
    throw InputError(path.string() +
                     " holds stalemates only (--metrics dts), which are verified against the " +
                     "full table: give --full-dir DIR");
  VerifyOutcome out = verify_forward(m, *request.full_directory, request);
  const auto subset = Table::load(path, {m, request.rules, {}});
  const auto full =
      Table::load(table_path(*request.full_directory, m, request.rules), {m, request.rules, {}});
  retro::VerifyOptions options;
  options.threads = request.threads;
  out.against_full = retro::compare_with_full(*subset, *full, options);
  out.text += "against the full table, " + retro::format_report(*out.against_full);
  return out;
}

SignatureInfo signature_info(const Material& material, int threads) {
  const indexing::IndexScheme scheme(material);
  SignatureInfo info{material, scheme.size(), scheme.ep_size(), {}};
  // Counted from the index (indexing::count_positions), one task per side to move.
  tbb::task_arena arena(threads > 0 ? threads : tbb::task_arena::automatic);
  arena.execute([&] {
    tbb::parallel_for(0, 2, [&](int side) {
      const Color c = side == 0 ? Color::White : Color::Black;
      info.positions[static_cast<size_t>(side)] = indexing::count_positions(scheme, c);
    });
  });
  return info;
}

std::vector<PresentTable> list_tables(const Tablebase& tablebase, int max_men) {
  std::vector<PresentTable> tables;
  for (const Material& m : available_tables(tablebase, max_men)) {
    PresentTable& t = tables.emplace_back(m);
    try {
      t.header = TableReader(tablebase.table_path(m), TableRequirements::file_only()).header();
    } catch (const StoreError& e) {
      t.error = e.what();
    }
  }
  return tables;
}

TableHeader file_info(const std::filesystem::path& path, int threads) {
  const TableReader reader(path, TableRequirements::file_only());
  reader.verify(threads);
  return reader.header();
}

ValueFileInfo value_file_info(const std::filesystem::path& path) {
  const ValueTable values(path, {});
  const ValueFileContents contents = values.check_every_block();
  return {values.header(), ValueFileVersion, values.table_checksum(), contents};
}

}  // namespace egtb::api
