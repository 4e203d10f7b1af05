// Verifying and describing tables for the front ends (generating them: api/generate.hpp).
#pragma once

#include <array>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "egtb/core/material.hpp"
#include "egtb/store/format.hpp"
#include "egtb/store/tablebase.hpp"
#include "egtb/store/value_file.hpp"
#include "indexing/index.hpp"
#include "retro/scheduler.hpp"
#include "retro/verify.hpp"

namespace egtb::api {

struct VerifyRequest {
  std::filesystem::path directory = "tables";
  Rules rules = Rules::Lasker;
  std::optional<std::filesystem::path> gaviota;  // also compare 3-4-man tables with these
  // The full tables a stalemate-only table (--metrics dts) is compared with, entry by entry, after
  // they are verified one ply forward themselves; the forward check cannot read a table without DTM.
  std::optional<std::filesystem::path> full_directory;
  int threads = 0;
  // The share of the entries the forward check covers (retro::VerifyPart); only the whole table is
  // compared with Gaviota's or with its full table.
  retro::VerifyPart part;
  // The decoded-block cache of the subtables read block by block (retro/subtables.hpp). The
  // verifier probes them in the order of the verified table's entries, wherever a promotion
  // lands, so it wants far more than a solve: KPPPk, whose promotions lead into KQPPk, KRPPk,
  // KBPPk and KNPPk, verified in 48 s with 1 GiB, and was stopped after 5 minutes with 64 MiB.
  size_t cache_bytes = size_t{1} << 30;
  // Called now and then during the forward check with the table, the side to move being checked,
  // its entries checked so far and the entries of that side the part checks (may be empty).
  std::function<void(const Material&, Color, uint64_t done, uint64_t total)> progress;
};

// What verifying one table found: one ply forward, and against Gaviota when asked.
struct VerifyOutcome {
  retro::VerifyReport forward;                      // of the full table, for a stalemate-only one
  std::optional<retro::VerifyReport> against_full;  // a stalemate-only table against its full table
  bool gaviota_checked = false;
  uint64_t gaviota_positions = 0;
  uint64_t gaviota_errors = 0;
  std::vector<retro::VerifyError> gaviota_first_errors;
  std::string text;  // the reports as text, ready to print

  [[nodiscard]] bool ok() const {
    return forward.ok() && gaviota_errors == 0 && (!against_full || against_full->ok());
  }
};

// Whether this build can compare with Gaviota (libgaviotatb-dev). Throws InputError when asked to
// and it cannot, or when `dir` is not a directory.
void check_gaviota(const std::optional<std::filesystem::path>& dir);

// Verifies one table (its file, with the subtables its moves lead to); a stalemate-only table
// through its full table in request.full_directory (InputError without one).
[[nodiscard]] VerifyOutcome verify(const Material& table, const VerifyRequest& request);

// The bytes of an entry in memory: one 16-bit Score per entry and side to move (egtb/store/score.hpp).
inline constexpr int BytesPerEntry = 2;

// A signature's index: entries per side to move and positions in the three conventions.
struct SignatureInfo {
  Material material;
  indexing::Index index_size = 0;
  indexing::Index ep_entries = 0;
  std::array<indexing::Counts, 2> positions;  // per side to move
};
[[nodiscard]] SignatureInfo signature_info(const Material& material, int threads = 0);

// A table file's header after every checksum of it was verified (throws FormatError, IoError).
[[nodiscard]] TableHeader file_info(const std::filesystem::path& path, int threads = 0);

// A value file (SIG.egv, egtb/store/value_file.hpp) after every checksum and block of it was
// checked (throws FormatError, IoError).
struct ValueFileInfo {
  TableHeader header;           // the fields it shares with a table file's header
  uint32_t format_version = 0;  // of the value file
  uint64_t table_checksum = 0;  // the file checksum of the table file it was written from
  ValueFileContents contents;   // its blocks by form and its grammar
};
[[nodiscard]] ValueFileInfo value_file_info(const std::filesystem::path& path);

// A table present in a directory, as its header describes it (no block read).
struct PresentTable {
  Material material;   // canonical
  TableHeader header;  // when error is empty
  std::string error;   // why the file cannot be read (truncated, damaged, a link loop), or empty
};

// Every table of 3 to `max_men` men present in the tablebase's directory, in the order of
// all_signatures (fewer men first); one whose header cannot be read is listed with its error, so
// that one bad file does not hide the others.
[[nodiscard]] std::vector<PresentTable> list_tables(const Tablebase& tablebase,
                                                    int max_men = Material::MaxMen);

}  // namespace egtb::api
