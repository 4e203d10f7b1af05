// egtb info SIG|FILE [--json]: the index of a signature (size, bytes per entry, positions per side
// to move in each counting convention), or the header of a table file or value file with every
// checksum verified (api/tables.hpp).
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>

#include "api/json.hpp"
#include "api/signatures.hpp"
#include "api/tables.hpp"
#include "egtb/store/value_file.hpp"
#include "tools/egtb/commands.hpp"
#include "tools/egtb/options.hpp"
#include "tools/egtb/progress.hpp"

namespace egtb::cli {

namespace {

using indexing::Convention;

using api::BytesPerEntry;

void print_signature(const api::SignatureInfo& info) {
  std::cout << "signature        " << info.material.str() << " (" << info.material.syzygy_name() << ")\n"
            << "index size       " << with_commas(info.index_size) << " entries per side to move ("
            << with_commas(info.ep_entries) << " with an e.p. right)\n"
            << "bytes per entry  " << BytesPerEntry << " in memory; "
            << with_commas(2 * info.index_size * BytesPerEntry)
            << " bytes for both sides before compression\n"
            << "positions        white to move / black to move\n";
  for (Convention c : indexing::AllConventions)
    std::cout << "  " << indexing::convention_name(c)
              << std::string(15 - indexing::convention_name(c).size(), ' ')
              << with_commas(info.positions[0].get(c)) << " / " << with_commas(info.positions[1].get(c))
              << '\n';
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
            << "\nformat version   " << h.format_version
            << (h.filled ? " (filled: the entries that hold no position store their neighbours' scores)" : "")
            << (h.packed ? " (packed: blocks of a few bits per entry, which probes read in place)" : "")
            << "\nrules            " << rules_name(h.rules) << "\nmetrics          " << to_string(h.metrics)
            << "\nindex            layout " << h.index_scheme << " version " << h.index_version << ", order "
            << index_order_name(h) << "\nentries          w " << with_commas(h.entries[0]) << " b "
            << with_commas(h.entries[1]) << "\nblocks           " << h.block_count << "\nfile size        "
            << with_commas(h.file_size) << " bytes\n"
            << size_ratios(h) << "\ngenerator        " << h.generator << '\n';
  for (int side = 0; side < 2; ++side) {
    const SideStats& s = h.stats[static_cast<size_t>(side)];
    std::cout << (side == 0 ? "white to move    " : "black to move    ") << "4: " << s.values[4]
              << "  3: " << s.values[3] << "  2: " << s.values[2] << "  1: " << s.values[1]
              << "  0: " << s.values[0] << "  max DTM " << s.max_depth(h.rules, Metric::Dtm) << "  max DTS "
              << s.max_depth(h.rules, Metric::Dts) << '\n';
  }
  std::cout << "checksums        verified (header, index and every block)\n";
}

void print_value_file(const std::filesystem::path& path, const api::ValueFileInfo& info) {
  const TableHeader& h = info.header;
  std::cout
      << "file             " << path.string()
      << "\nkind             value file (the values of a table without its depths, for probes in search)"
      << "\nsignature        " << h.signature << "\nformat version   " << info.format_version
      << "\nrules            " << rules_name(h.rules) << "\nmetrics          " << to_string(h.metrics)
      << " (of the table it was written from)\nindex            layout " << h.index_scheme << " version "
      << h.index_version << ", order " << index_order_name(h) << "\nentries          w "
      << with_commas(h.entries[0]) << " b " << with_commas(h.entries[1]) << "\nblocks           "
      << h.block_count << " of " << h.block_entries << " entries\nfile size        "
      << with_commas(h.file_size) << " bytes\ntable checksum   " << std::hex << std::setw(16)
      << std::setfill('0') << info.table_checksum << std::dec << std::setfill(' ')
      << " (of the table file it was written from)\ngrammar          "
      << with_commas(info.contents.grammar_rules) << " rules (symbols of " << info.contents.symbol_bits
      << " bits)\nblock forms     ";
  const char* separator = " ";  // the forms the file holds, in the order of ValueBlockForms
  for (size_t f = 0; f < ValueBlockForms.size(); ++f) {
    if (info.contents.blocks[f] == 0) continue;
    std::cout << separator << ValueBlockForms[f] << ' ' << with_commas(info.contents.blocks[f]) << " ("
              << with_commas(info.contents.bytes[f]) << " bytes)";
    separator = ", ";
  }
  std::cout << "\nchecksums        verified (header, index and every block; every block read)\n";
}

// A file named after another signature than the one it holds (KQk.egtb holding KBk: renamed or
// copied over another; the tables refuse it), or nothing.
std::optional<std::string> misnamed_warning(const std::filesystem::path& path, const TableHeader& h) {
  const std::string name = path.filename().string();
  const Expected<Material, std::string> named = Material::parse(name.substr(0, name.find('.')));
  if (!named || named->normalized().str() == h.signature) return std::nullopt;
  return "the file is named after " + named->normalized().str() + " but holds the table " + h.signature +
         " (renamed or copied over another?): the tables of " + named->normalized().str() + " refuse it";
}

}  // namespace

int cmd_info(const std::vector<std::string>& args) {
  CommandLine cl(
      "info", "Describe the index of a signature, or a table file or value file (verifying every checksum).");
  cl.positional("SIG|FILE",
                "a material signature such as KQk, a table file such as tables/KQk.egtb, or a value file "
                "such as tables/KQk.egv");
  cl.json_option();
  if (!cl.parse(args)) return ExitSuccess;
  const std::string& what = cl.argument("SIG|FILE");
  if (what.ends_with(ValueFileExtension)) {
    const api::ValueFileInfo info = api::value_file_info(what);
    if (cl.json())
      print_json(api::value_file_json(what, info));
    else
      print_value_file(what, info);
    return ExitSuccess;
  }
  if (what.find('/') != std::string::npos || what.ends_with(".egtb")) {
    const TableHeader header = api::file_info(what);
    const std::optional<std::string> warning = misnamed_warning(what, header);
    if (warning) std::cerr << "egtb info: warning: " << *warning << '\n';
    if (cl.json()) {
      Json json = api::header_json(what, header);
      if (warning) json["warning"] = *warning;
      print_json(json);
    } else {
      print_file(what, header);
    }
    return ExitSuccess;
  }
  const api::SignatureInfo info = api::signature_info(api::parse_oriented_signature(what));
  if (cl.json())
    print_json(api::to_json(info));
  else
    print_signature(info);
  return ExitSuccess;
}

}  // namespace egtb::cli
