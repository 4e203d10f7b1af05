// Tablebase: a directory of table files answering probes by position.
//
// More directories may be added (add_directory, as python-chess's add_directory and Fathom's
// SyzygyPath "dir1:dir2"): a table is read from the first directory, in the order added, that
// has its file; the first directory is where a missing table is to be built.
//
// Tables open lazily, on the first probe that needs them, and stay open. Each probe decodes at most
// one block, kept in a cache of decoded blocks shared by all tables (block_cache.hpp) within the
// caller's memory limit. Probing is thread-safe.
//
// A table file replaced (another file renamed over it) or rewritten in place while open (egtb serve
// over a directory being regenerated) is opened again: a probe compares the file with the one
// opened (TableReader::file_changed: device, inode, size, modification time) when the table was
// last compared more than TablebaseOptions::file_check_interval ago, and at once when the old
// file's blocks fail their checksums. The table opened again is another Table, whose blocks are
// other keys of the cache, so no block of the old file answers for the new one; a file removed
// is a missing table.
//
// Any orientation of a position is probed: a signature that is the colour flip of a canonical
// one (a Kkq position probes KQk.egtb with the colours swapped, the board flipped vertically, the
// side to move and the e.p. square mirrored; the score, being from the side to move, is the same)
// and any board symmetry (the index scheme maps every position to its stored image). An e.p. square
// counts when a legal e.p. capture exists; the stored value then includes that capture.
//
// Two kinds of failure, as in python-chess's probe/try_probe pair:
//   * what the caller can expect to happen — a missing table, too many men, castling rights, an
//     invalid position — comes back as ProbeError from probe() and as std::nullopt from try_probe();
//   * a damaged or incompatible table file throws FormatError, an unreadable one IoError, from
//     both: a probe never returns a wrong score silently.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <string>
#include <utility>
#include <vector>

#include "egtb/core/expected.hpp"
#include "egtb/core/material.hpp"
#include "egtb/core/position.hpp"
#include "egtb/store/block_cache.hpp"
#include "egtb/store/rules.hpp"
#include "egtb/store/score.hpp"
#include "egtb/store/set_once_slots.hpp"
#include "egtb/store/table.hpp"
#include "egtb/store/value_file.hpp"

namespace egtb {

struct ProbeError {
  enum class Kind : uint8_t {
    MissingTable,     // the table file is not in the directory
    TooManyMen,       // more men than any table has (Material::MaxMen)
    Castling,         // tables hold positions without castling rights
    InvalidPosition,  // not a legal position (validate()) or no entry in its table
    Inconsistent,     // the tables contradict each other (optimal_line, line.hpp)
    MissingMetric,    // the table lacks what is asked: a stalemate-only table asked for the full
                      // score, or a table without DTS asked for stalemates
  };

  Kind kind = Kind::InvalidPosition;
  std::string message;  // complete and ready to print
  std::string table;    // the canonical signature concerned ("KQk"), empty when none

  [[nodiscard]] const std::string& what() const { return message; }
};

// True when a table can hold the position: at most Material::MaxMen men and no castling rights
// (its table may still be missing). Cheap: for screening the positions of games.
[[nodiscard]] bool within_tables(const Position& pos);

struct TablebaseOptions {
  static constexpr size_t DefaultCacheBytes = size_t{256} << 20;

  size_t cache_bytes = DefaultCacheBytes;  // limit of the decoded-block cache
  Rules rules = Rules::Lasker;             // the rules of the tables probed (a table of others is refused)
  // How long an open table's file goes at most without being compared with the one opened (a stat
  // call, some microseconds); 0: at every probe.
  std::chrono::milliseconds file_check_interval{1000};
};

class Tablebase {
public:
  // Throws IoError when `directory` exists but is not a directory (a missing one has no tables).
  explicit Tablebase(std::filesystem::path directory, TablebaseOptions options = {});
  // The same with a block cache shared with other tablebases (options.cache_bytes unused): the
  // tablebases of several rule sets over one directory, within one memory budget (egtb serve).
  Tablebase(std::filesystem::path directory, TablebaseOptions options, std::shared_ptr<BlockCache> cache);
  ~Tablebase();
  Tablebase(const Tablebase&) = delete;
  Tablebase& operator=(const Tablebase&) = delete;

  // The Lasker score of a position for its side to move. Throws FormatError or IoError for a
  // damaged or unreadable table.
  [[nodiscard]] Expected<Score, ProbeError> probe(const Position& pos) const;
  // The same, with every ProbeError as std::nullopt.
  [[nodiscard]] std::optional<Score> try_probe(const Position& pos) const;
  // The score of a position as a stalemate-only table stores it (StalemateOnly, rules.hpp): value
  // 3 or 1 with its DTS, or Score::draw() for "not a stalemate win or loss" (a mate, a draw or a
  // loss to mate), read from a stalemate-only table or a full one alike. probe() refuses a
  // stalemate-only table and this a table without DTS, with ProbeError::Kind::MissingMetric.
  [[nodiscard]] Expected<Score, ProbeError> probe_stalemate(const Position& pos) const;

  // The Lasker value of a position for its side to move (under other rules 4, 2 or 0), from the
  // value files (<SIG>.egv, value_file.hpp) alone: no depth is decoded and no table file opened.
  // Each value file is mapped into memory on its first probe and kept (a file replaced later is
  // not read again). A missing value file is ProbeError::Kind::MissingTable, naming the command that
  // writes it; a damaged one throws FormatError (at its first probe, or at the first probe of a
  // malformed block), an unreadable one IoError, as does a probe of a block the file lost when it
  // was cut short in place while mapped.
  [[nodiscard]] Expected<Lasker, ProbeError> probe_value(const Position& pos) const;

  // Adds a directory searched after those already there. Safe while other threads probe: a table
  // already open stays as it is, a table missing so far is looked for in the new directory too.
  // Throws IoError when `directory` exists but is not a directory.
  void add_directory(std::filesystem::path directory);

  // The first directory (of the constructor), where missing tables are to be built.
  [[nodiscard]] const std::filesystem::path& directory() const { return directory_; }
  // Every directory, in the order searched.
  [[nodiscard]] std::vector<std::filesystem::path> directories() const;
  [[nodiscard]] Rules rules() const { return rules_; }
  // The file of the table of a signature (in either colour orientation): in the first directory
  // that has it, else where it is to be built (in directory()).
  [[nodiscard]] std::filesystem::path table_path(const Material& material) const;
  // The value file of a signature: in the first directory that has it, else beside the table file
  // of table_path().
  [[nodiscard]] std::filesystem::path value_file_path(const Material& material) const;
  // True when something is at that path: a table file, or a file, link (that may loop or lead
  // nowhere) or directory in its place, which opening it reports.
  [[nodiscard]] bool has_table(const Material& material) const;
  // The open table of a signature in either orientation, opening it on first use; nullptr when
  // its file is missing. Throws FormatError or IoError for a damaged or unusable file.
  [[nodiscard]] std::shared_ptr<const Table> table(const Material& material) const;
  // The message for a missing table, naming the command that builds it.
  [[nodiscard]] std::string missing_message(const Material& material) const;
  // The tables opened so far that lack a metric of the rules other than stalemate-only ones (built
  // with --metrics dtm: no DTS, so their values 3 and 1 read as draws), canonical signatures in order.
  [[nodiscard]] std::vector<Material> incomplete_tables() const;
  // What a table without every metric of the rules reads wrong, naming the command that rebuilds
  // it with them all: "KBk was built without DTS (--metrics dtm), so its stalemate wins and losses
  // read as draws (rebuild it with: egtb generate KBk --dir DIR)".
  [[nodiscard]] std::string incomplete_message(const Material& material) const;
  [[nodiscard]] BlockCache::Stats cache_stats() const { return cache_->stats(); }

private:
  // The file of a kind of a signature in the first directory that has it, else in directory().
  [[nodiscard]] std::filesystem::path located(const Material& material, bool value_file) const;
  // The value table of a canonical signature, read on first use; nullptr when its file is missing.
  [[nodiscard]] const ValueTable* find_values(const Material& canonical) const;
  // "egtb generate SIG[ --rules R] --dir DIR": the command that builds a table here with every
  // metric of the rules (replacing one built with fewer).
  [[nodiscard]] std::string generate_command(const Material& material) const;
  // An open table and when its file was last compared with the one opened (steady-clock ticks).
  struct OpenTable {
    explicit OpenTable(std::shared_ptr<const Table> t) : table(std::move(t)) {}
    std::shared_ptr<const Table> table;
    std::atomic<int64_t> checked{std::chrono::steady_clock::now().time_since_epoch().count()};
  };

  // The open table of a canonical signature, or nullptr when its file is missing (no reference
  // count is taken: the tables stay open as long as the Tablebase). Its file is compared with the
  // one opened when file_check_interval has passed since the last comparison (current()).
  [[nodiscard]] const Table* find(const Material& canonical) const;
  // The table of a file, opened for probes.
  [[nodiscard]] std::shared_ptr<const Table> open_table(const Material& canonical) const;
  // True when `open`'s file is due for comparison, which this call then claims.
  [[nodiscard]] bool check_due(OpenTable& open) const;
  // The table to probe for `canonical` given `open`, its table when last looked up: `open` while
  // its file is unchanged, else the table of the file now in its place (opened here unless another
  // thread did), or nullptr when the file is gone. A replaced table is kept (retired_) while the
  // Tablebase lives: other threads may still be reading it.
  [[nodiscard]] const Table* current(const Material& canonical, const Table* open) const;
  // The score of `input` as stored in its table, which must hold `needed`: MissingMetric otherwise.
  [[nodiscard]] Expected<Score, ProbeError> probe_stored(const Position& input, MetricSet needed) const;
  // "KQk holds stalemates only (built with --metrics dts): ..." or "... was built without DTS ...":
  // what a table lacking `needed` cannot answer, and the command that builds the full table.
  [[nodiscard]] std::string lacking_message(const Material& canonical, MetricSet needed) const;
  // The score of `pos` (oriented to `canonical`) in its open table `t`.
  [[nodiscard]] Expected<Score, ProbeError> probe_table(const Table& t, const Position& pos,
                                                        const Material& canonical) const;

  std::filesystem::path directory_;
  mutable std::shared_mutex directories_mutex_;
  std::vector<std::filesystem::path> more_directories_;  // added after the first
  Rules rules_;
  std::shared_ptr<BlockCache> cache_;
  mutable std::shared_mutex tables_mutex_;
  std::chrono::steady_clock::duration file_check_interval_;
  mutable std::map<Material, OpenTable> tables_;
  mutable std::vector<std::shared_ptr<const Table>> retired_;
  mutable std::shared_mutex value_tables_mutex_;
  // The open value tables by canonical signature, kept while the Tablebase lives.
  using ValueTables = std::map<Material, std::unique_ptr<const ValueTable>>;
  mutable ValueTables value_tables_;
  // The entries of value_tables_ again, found without the mutex or the map: a probe writes
  // nothing shared (the mutex's count of readers) and compares a signature or two where it
  // searched the map, 9 ns less a warm probe of the 3-4-man list and 14 ns a first one
  // (docs/benchmarks.md). Searched from the hash's top ValueSlotBits bits (Material::hash); 1,024
  // slots take the 510 canonical signatures of 3 to 6 men, and a table past 768 is found in the
  // map alone.
  static constexpr int ValueSlotBits = 10;
  mutable SetOnceSlots<ValueTables::value_type> value_slots_{ValueSlotBits};
};

}  // namespace egtb
