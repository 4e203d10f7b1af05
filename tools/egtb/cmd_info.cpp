// egtb info SIG|FILE [--json]: the index of a signature (size, bytes per entry, positions per side
// to move in each counting convention), or the header of a table file with every checksum verified.
#include <algorithm>
#include <future>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <thread>

#include "egtb/store/reader.hpp"
#include "indexing/index.hpp"
#include "tools/egtb/commands.hpp"
#include "tools/egtb/options.hpp"
#include "tools/egtb/progress.hpp"

namespace egtb::cli {

namespace {

using indexing::Convention;

constexpr int BytesPerEntry = 2;  // one 16-bit Score per entry and side to move (egtb/store/score.hpp)

Json signature_json(const indexing::IndexScheme& scheme, const std::array<indexing::Counts, 2>& counts) {
  Json positions = Json::object();
  for (Convention c : indexing::AllConventions)
    positions[std::string(indexing::convention_name(c))] = {{"w", counts[0].get(c)}, {"b", counts[1].get(c)}};
  return {{"signature", scheme.material().str()},
          {"index_size", scheme.size()},
          {"ep_entries", scheme.ep_size()},
          {"bytes_per_entry", BytesPerEntry},
          {"positions", positions}};
}

void print_signature(const indexing::IndexScheme& scheme, const std::array<indexing::Counts, 2>& counts) {
  std::cout << "signature        " << scheme.material().str() << " (" << scheme.material().syzygy_name()
            << ")\n"
            << "index size       " << with_commas(scheme.size()) << " entries per side to move ("
            << with_commas(scheme.ep_size()) << " with an e.p. right)\n"
            << "bytes per entry  " << BytesPerEntry << " in memory; "
            << with_commas(2 * scheme.size() * BytesPerEntry) << " bytes for both sides before compression\n"
            << "positions        white to move / black to move\n";
  for (Convention c : indexing::AllConventions)
    std::cout << "  " << indexing::convention_name(c)
              << std::string(15 - indexing::convention_name(c).size(), ' ') << with_commas(counts[0].get(c))
              << " / " << with_commas(counts[1].get(c)) << '\n';
}

// The positions of one side to move, counted on every core (the 5-man indexes are large).
indexing::Counts count_in_parallel(const indexing::IndexScheme& scheme, Color stm) {
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::future<indexing::Counts>> parts;
  for (unsigned t = 0; t < threads; ++t) {
    const indexing::Index begin = scheme.size() * t / threads;
    const indexing::Index end = scheme.size() * (t + 1) / threads;
    parts.push_back(std::async(std::launch::async, [&scheme, stm, begin, end] {
      return indexing::count_positions(scheme, stm, begin, end);
    }));
  }
  indexing::Counts total;
  for (auto& part : parts) total += part.get();
  return total;
}

int info_signature(const Material& material, bool json) {
  const indexing::IndexScheme scheme(material);
  const std::array<indexing::Counts, 2> counts = {count_in_parallel(scheme, Color::White),
                                                  count_in_parallel(scheme, Color::Black)};
  if (json)
    print_json(signature_json(scheme, counts));
  else
    print_signature(scheme, counts);
  return ExitSuccess;
}

Json side_json(const SideStats& s) {
  return {{"positions", s.positions()},
          {"invalid", s.invalid},
          {"lasker", s.values},
          {"max_dtm", s.max_dtm < 0 ? Json() : Json(s.max_dtm)},
          {"max_dts", s.max_dts < 0 ? Json() : Json(s.max_dts)}};
}

Json file_json(const std::filesystem::path& path, const TableHeader& h) {
  return {{"file", path.string()},
          {"signature", h.signature},
          {"format_version", h.format_version},
          {"metrics", to_string(h.metrics)},
          {"index_scheme", h.index_scheme},
          {"index_version", h.index_version},
          {"entries", {{"w", h.entries[0]}, {"b", h.entries[1]}}},
          {"blocks", h.block_count},
          {"file_size", h.file_size},
          {"positions", h.positions()},
          {"bytes_per_position", h.bytes_per_position()},
          {"bytes_per_entry", h.bytes_per_entry()},
          {"generator", h.generator},
          {"sides", {{"w", side_json(h.stats[0])}, {"b", side_json(h.stats[1])}}},
          {"checksums", "verified"}};
}

// The file size per position and per index entry, both sides to move together.
std::string size_ratios(const TableHeader& h) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(4) << "bytes/position   " << h.bytes_per_position() << " ("
      << with_commas(h.positions()) << " positions), " << h.bytes_per_entry() << " per index entry";
  return out.str();
}

void print_file(const std::filesystem::path& path, const TableHeader& h) {
  std::cout << "file             " << path.string() << "\nsignature        " << h.signature
            << "\nformat version   " << h.format_version << "\nmetrics          " << to_string(h.metrics)
            << "\nindex            layout " << h.index_scheme << " version " << h.index_version
            << "\nentries          w " << with_commas(h.entries[0]) << " b " << with_commas(h.entries[1])
            << "\nblocks           " << h.block_count << "\nfile size        " << with_commas(h.file_size)
            << " bytes\n"
            << size_ratios(h) << "\ngenerator        " << h.generator << '\n';
  for (int side = 0; side < 2; ++side) {
    const SideStats& s = h.stats[static_cast<size_t>(side)];
    std::cout << (side == 0 ? "white to move    " : "black to move    ") << "4: " << s.values[4]
              << "  3: " << s.values[3] << "  2: " << s.values[2] << "  1: " << s.values[1]
              << "  0: " << s.values[0] << "  max DTM " << s.max_dtm << "  max DTS " << s.max_dts << '\n';
  }
  std::cout << "checksums        verified (header, index and every block)\n";
}

int info_file(const std::filesystem::path& path, bool json) {
  verify_file(path);
  const TableHeader header = read_header(path);
  if (json)
    print_json(file_json(path, header));
  else
    print_file(path, header);
  return ExitSuccess;
}

}  // namespace

int cmd_info(const std::vector<std::string>& args) {
  CommandLine cl("info", "Describe the index of a signature, or a table file (verifying every checksum).");
  cl.positional("SIG|FILE", "a material signature such as KQk, or a table file such as tables/KQk.egtb");
  cl.json_option();
  if (!cl.parse(args)) return ExitSuccess;
  const std::string& what = cl.argument("SIG|FILE");
  if (what.find('/') != std::string::npos || what.ends_with(".egtb")) return info_file(what, cl.json());
  const auto material = Material::parse(what);
  if (!material) throw UsageError(material.error());
  if (material->is_bare_kings()) throw UsageError("KK has no table: bare kings are a draw");
  return info_signature(*material, cl.json());
}

}  // namespace egtb::cli
