// The Gaviota DTM tables as an independent oracle for 3- and 4-man tables (built only with
// Debian's libgaviotatb-dev, which defines EGTB_HAVE_GAVIOTA).
//
// Gaviota scores ordinary chess: tb_probe_hard reports a draw, "White mates" or "Black mates" and
// the DTM in plies. Our values 4 and 0 are exactly its wins and losses with the same DTM; a
// Gaviota draw is any of our values 1, 2 and 3 (docs/design.md §8).
//
// The library keeps its state in globals: one session (a GaviotaProber, or a comparison, which
// opens one) exists at a time in a process, a second one waits for the first to end; its probes
// are serialised too (concurrent tb_probe_hard calls returned wrong DTMs for some KPkp
// positions), so threads only share the work around them.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "egtb/core/material.hpp"
#include "egtb/core/position.hpp"
#include "egtb/store/score.hpp"
#include "retro/subtables.hpp"
#include "retro/verify.hpp"

namespace egtb::retro {

class GaviotaSession;

// Gaviota's tables in one directory, probed position by position. Holds the process's Gaviota
// session for its lifetime: do not call compare_with_gaviota while one exists (it would wait).
class GaviotaProber {
public:
  // Throws std::runtime_error when Gaviota cannot be initialised on the directory.
  explicit GaviotaProber(const std::filesystem::path& gaviota_dir);
  ~GaviotaProber();
  GaviotaProber(const GaviotaProber&) = delete;
  GaviotaProber& operator=(const GaviotaProber&) = delete;

  // Gaviota's score of a 3- or 4-man position for its side to move: Lasker::Mates or
  // Lasker::Mated with the DTM, Score::draw() (our 1, 2 or 3), or nothing when Gaviota has no
  // value (its table is missing). Safe to call from several threads (the calls are serialised).
  [[nodiscard]] std::optional<Score> probe(const Position& pos) const;

private:
  std::unique_ptr<GaviotaSession> session_;
};

// Why our score disagrees with Gaviota's (a Gaviota draw is any of our 1, 2 and 3), or an empty
// string when it agrees: "stored <ours>, Gaviota: <theirs>".
[[nodiscard]] std::string gaviota_disagreement(Score ours, const std::optional<Score>& gaviota);

struct GaviotaReport {
  Material material;
  uint64_t positions_checked = 0;             // valid entries of both sides to move
  std::array<uint64_t, 3> gaviota_results{};  // Gaviota's answers: draws, White mates, Black mates
  uint64_t error_count = 0;
  std::vector<VerifyError> errors;  // the first few mismatches, by side to move and index

  [[nodiscard]] bool ok() const { return error_count == 0; }
};

// The Gaviota file of a table: "kqkr.gtb.cp4" for KQkr.
[[nodiscard]] std::filesystem::path gaviota_file(const std::filesystem::path& gaviota_dir,
                                                 const Material& material);

// Compares every valid entry of a 3- or 4-man table with Gaviota's tables in gaviota_dir.
// Throws IoError when the table's Gaviota file is missing, std::invalid_argument for more than 4 men.
[[nodiscard]] GaviotaReport compare_with_gaviota(const Table& table, const std::filesystem::path& gaviota_dir,
                                                 const VerifyOptions& options);
[[nodiscard]] GaviotaReport compare_with_gaviota(const Table& table, const std::filesystem::path& gaviota_dir,
                                                 int threads);

// A few lines: the table, the counts, the first mismatches with their FEN.
[[nodiscard]] std::string format_report(const GaviotaReport& report);

}  // namespace egtb::retro
