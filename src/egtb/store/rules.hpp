// The rules a table is built under, and the one vocabulary for depths: Metric and MetricSet.
//
// A table stores per position a value code 0..4 (score.hpp: 4 and 3 win for the side to move, 2
// draws, 1 and 0 lose) and a depth in plies. What the codes and depths mean is decided by the
// table's Rules, recorded in its header (format.hpp) and passed from there to every part that
// interprets scores: the solver (which positions end the game and how they score), the verifier,
// optimal lines, statistics, queries and the front ends. The rule sets of docs/design.md §4.3:
//
//   Lasker           stalemating the opponent is a lesser win (docs/design.md §2). Two phases:
//                    mates first (values 4 and 0, depth DTM: plies to mate), then, among the
//                    positions left, stalemates (values 3 and 1, depth DTS: plies to stalemate);
//                    the rest is drawn (2).
//   StalemateWins    a stalemate ends the game as a loss for the stalemated side, exactly like
//                    mate. One phase: wins 4, losses 0, draws 2, depth DTE (plies to the end: the
//                    first mate or stalemate; the winner hurries, the loser delays).
//   StalematePasses  a side to move with no legal move that is not in check passes: the same
//                    placement with the other side to move (a null move, a ply of its own). A
//                    position where neither side can move is a dead draw. One phase: wins 4,
//                    losses 0, draws 2, depth DTM counting passes.
// Values 4 and 0 are win and loss under every rule set, so a table's codes, their depth parity
// (wins odd, losses even) and its file format mean the same under all of them.
//
// Adding a rule set is a new Rules value, its name, its solving phases (which terminal positions
// each phase starts from, which values it decides and which metric their depth is) and its
// category words: nothing else in the code base names a rule set.
//
// Metric: what a depth counts. DTM counts plies to checkmate, DTS plies to stalemate, DTE plies to
// the first mate or stalemate. A table may store fewer metrics than its rules define: `egtb
// generate --metrics dtm` builds Lasker tables that solve mates only, where stalemate wins and
// losses are stored as draws (MetricSet {DTM}); `--metrics dts` builds stalemate-only tables
// (StalemateOnly, MetricSet {DTS}) for engines that have DTM or DTZ tables already (Müller and
// Haworth: "EGTs with only stalemate information may complement existing DTM or DTZ50 EGTs"). Their
// solve is the full one (the mates decide which positions are left to stalemate); their files keep
// values 3 and 1 with their DTS and store every other position, a mate, a draw or a loss to mate,
// as value 2 with depth 0, read as "not a stalemate win or loss" (as_stored). Example (score.hpp's raw
// 16 bits): a side to move mating in 10 (4, DTM 19: 4 | 19 << 3 = 156) is stored as 2, one
// stalemated in 8 plies (1, DTS 8: 1 | 8 << 3 = 65) as 65, as in a full table.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "egtb/store/score.hpp"

namespace egtb {

enum class Metric : uint8_t { Dtm, Dts, Dte };
inline constexpr std::array<Metric, 3> AllMetrics = {Metric::Dtm, Metric::Dts, Metric::Dte};
inline constexpr size_t MetricCount = AllMetrics.size();

constexpr size_t to_index(Metric m) { return static_cast<size_t>(m); }
// "DTM", "DTS", "DTE": how text and tables name a metric.
[[nodiscard]] std::string_view metric_name(Metric m);
// "dtm", "dts", "dte": how options, JSON keys and queries name a metric.
[[nodiscard]] std::string_view metric_key(Metric m);

// A set of metrics, one bit each (bit 0 DTM, bit 1 DTS, bit 2 DTE; the header stores these bits).
class MetricSet {
public:
  constexpr MetricSet() = default;
  constexpr MetricSet(std::initializer_list<Metric> metrics) {
    for (Metric m : metrics) bits_ = static_cast<uint8_t>(bits_ | bit(m));
  }
  [[nodiscard]] static constexpr MetricSet from_bits(uint32_t bits) {
    MetricSet s;
    s.bits_ = static_cast<uint8_t>(bits & ((1u << MetricCount) - 1));
    return s;
  }

  [[nodiscard]] constexpr bool contains(Metric m) const { return (bits_ & bit(m)) != 0; }
  [[nodiscard]] constexpr bool contains(MetricSet other) const { return (other.bits_ & ~bits_) == 0; }
  [[nodiscard]] constexpr uint32_t bits() const { return bits_; }
  constexpr bool operator==(const MetricSet&) const = default;

private:
  uint8_t bits_ = 0;
  static constexpr uint8_t bit(Metric m) { return static_cast<uint8_t>(1u << to_index(m)); }
};

// The metrics of a stalemate-only Lasker table (`egtb generate --metrics dts`): DTS alone.
inline constexpr MetricSet StalemateOnly{Metric::Dts};

// "dtm,dts", "dtm", "dts" or "none".
[[nodiscard]] std::string to_string(MetricSet s);
// "dtm,dts" (or "dts,dtm"), "dtm" and "dts"; nothing for anything else.
[[nodiscard]] std::optional<MetricSet> parse_metric_set(std::string_view text);

enum class Rules : uint8_t { Lasker = 0, StalemateWins = 1, StalematePasses = 2 };
inline constexpr std::array<Rules, 3> AllRules = {Rules::Lasker, Rules::StalemateWins,
                                                  Rules::StalematePasses};

// "lasker", "stalemate-wins", "stalemate-passes": the name in options, file names, headers and JSON.
[[nodiscard]] std::string_view rules_name(Rules r);
[[nodiscard]] std::optional<Rules> parse_rules(std::string_view name);
// The number the table header stores, and back (nothing for an unknown number).
[[nodiscard]] constexpr uint32_t rules_id(Rules r) { return static_cast<uint32_t>(r); }
[[nodiscard]] std::optional<Rules> rules_from_id(uint32_t id);

// One phase of solving: the positions that end the game for the side to move in this phase (a
// checkmate, or a stalemate), the values its wins and losses get, and what their depth counts.
// The solver runs the phases of a table's rules in order, each over the positions the earlier
// ones left undecided; what no phase decides is a draw.
struct SolvePhase {
  Metric metric = Metric::Dtm;
  bool checkmate_ends = false;    // a checkmated side to move loses at depth 0 in this phase
  bool stalemate_ends = false;    // a stalemated side to move loses at depth 0 in this phase
  bool stalemate_passes = false;  // a stalemated side to move passes (its one move, a null move)
  Lasker win = Lasker::Mates;
  Lasker loss = Lasker::Mated;
};

// The phases of a rule set, in solving order (Lasker: mates by DTM, then stalemates by DTS).
[[nodiscard]] std::span<const SolvePhase> solve_phases(Rules r);
// The phase of a metric under these rules, or nothing when the rules have none.
[[nodiscard]] std::optional<SolvePhase> phase_of(Rules r, Metric m);
// Every metric the rules define: a table built with all of them is complete.
[[nodiscard]] MetricSet all_metrics(Rules r);

// The metric of the depth of a decided value (not Draw) under these rules.
[[nodiscard]] Metric metric_of(Rules r, Lasker v);
// The depth of s in metric m: its depth when s is a valid score whose value has metric m.
[[nodiscard]] std::optional<int> depth_in(Rules r, Score s, Metric m);
// The score as a table storing the metrics `stored` holds it: a win or loss whose metric it
// lacks becomes a draw (value 2, depth 0), which a stalemate-only table reads as "not a stalemate
// win or loss".
[[nodiscard]] Score as_stored(Rules r, MetricSet stored, Score s);

// The score of a side to move that has no legal move, when the rules end the game there (nothing
// otherwise): under Lasker, checkmated 0 with DTM 0 and stalemated 1 with DTS 0.
[[nodiscard]] std::optional<Score> terminal_score(Rules r, bool in_check);
// True when a stalemated side to move passes (StalematePasses).
[[nodiscard]] bool stalemate_passes(Rules r);
// True when the rules have the five Lasker values (3 and 1 as well as 4, 2 and 0).
[[nodiscard]] bool five_valued(Rules r);

// The result category of a value for its side to move, in the words of the HTTP API and JSON:
// "win", "stalemate-win", "draw", "stalemate-loss", "loss" under Lasker; "win", "draw", "loss"
// under the other rules.
[[nodiscard]] std::string_view category(Rules r, Lasker v);
// The values the rules give, best first: 4 3 2 1 0 under Lasker, 4 2 0 under the others.
[[nodiscard]] std::span<const Lasker> rule_values(Rules r);
// How text names a value for its side to move: "mates", "stalemates", "draw", "is stalemated",
// "is mated" under Lasker; "wins", "draw", "loses" under the others.
[[nodiscard]] std::string_view value_verb(Rules r, Lasker v);
// How text names the end a metric counts to and its winner: "mate" and "mater", "stalemate" and
// "stalemater", "mate or stalemate" and "winner".
[[nodiscard]] std::string_view metric_end(Metric m);
[[nodiscard]] std::string_view metric_winner(Metric m);
// The metrics of the rules' phases, in solving order (Lasker: DTM, DTS).
[[nodiscard]] std::vector<Metric> rule_metrics(Rules r);

// True when the side to move wins (values 4 and 3) or loses (1 and 0).
constexpr bool is_win(Lasker v) { return v == Lasker::Mates || v == Lasker::Stalemates; }
constexpr bool is_loss(Lasker v) { return v == Lasker::Mated || v == Lasker::Stalemated; }

}  // namespace egtb
