#include "api/statistics.hpp"

#include <algorithm>

#include "api/errors.hpp"
#include "api/probe.hpp"
#include "api/signatures.hpp"
#include "egtb/store/reader.hpp"
#include "pgn/writer.hpp"
#include "stats/report.hpp"

namespace egtb::api {

namespace {

// "Black: stalemate-loss, DTS 16", "White: win, DTE 3": a score for its side to move.
std::string score_comment(Rules rules, Color stm, Score s) {
  std::string text = std::string(stats::color_name(stm)) + ": " + std::string(category(rules, s.value()));
  if (s.value() != Lasker::Draw)
    text += ", " + std::string(metric_name(metric_of(rules, s.value()))) + " " + std::to_string(s.depth());
  return text;
}

// The score of a Deepest row's example for its side to move: the rules' win or loss of its metric,
// at the row's depth (KBk's maxDTS: White to move stalemates, DTS 17).
Score example_score(Rules rules, const stats::Deepest& d) {
  const SolvePhase phase = *phase_of(rules, d.metric);
  return Score(d.side_to_move == d.winner ? phase.win : phase.loss, d.plies);
}

// "KBk maxDTS: White stalemates, 17 plies, 37 positions (index462)".
std::string row_comment(const stats::TableStatistics& t, const stats::Deepest& d) {
  const std::string winner(stats::color_name(d.winner));
  return t.material.str() + " max" + std::string(metric_name(d.metric)) + ": " + winner + " " +
         std::string(value_verb(t.rules, phase_of(t.rules, d.metric)->win)) + ", " + std::to_string(d.plies) +
         " plies, " + stats::with_commas(d.positions) + " positions (" +
         std::string(indexing::convention_name(t.convention)) + ")";
}

// The example's game. Its line is optimal (store/line.hpp checks every step), so the score after
// each move is the previous one negated, one ply less deep: nothing is probed.
pgn::Game example_game(const stats::TableStatistics& t, const stats::Deepest& d, int round) {
  pgn::Game game(d.example);
  game.set_tag("Event", "egtb stats: max" + std::string(metric_name(d.metric)));
  game.set_tag("Site", t.material.str());
  game.set_tag("Round", std::to_string(round));
  game.set_tag("Annotator", "egtb");
  game.node(pgn::Game::Root).comments.push_back(row_comment(t, d));
  const Score start = example_score(t.rules, d);
  Score score = start;
  pgn::NodeId node = pgn::Game::Root;
  for (Move m : d.line) {
    node = game.add_move(node, m);
    score = Score(negate(score.value()), score.depth() - 1);
    game.node(node).comments.push_back(score_comment(t.rules, game.position(node).side_to_move(), score));
  }
  game.result = implied_result(t.rules, start, d.example.side_to_move());
  return game;
}

// The decoded-block cache of the examples' optimal lines. The tables are taken one after another and
// a line probes its own table (and subtables at its captures), so the cache need hold one line's
// blocks, not every table's: over ten 5-man tables (KBNkp ... KQPkp) 64 MiB took the CPU time of
// the tablebase's default 256 MiB, and peaked at 135 MiB of anonymous memory against 499
// (docs/benchmarks.md, *Statistics*).
constexpr size_t LineCacheBytes = size_t{64} << 20;

// What tells the statistics of one table file apart: "KQk/index462/lasker/DEVICE:INODE:SIZE:MTIME".
std::string statistics_key(const Tablebase& tablebase, const Material& m, indexing::Convention convention) {
  const std::filesystem::path path = tablebase.table_path(m);
  const std::optional<FileIdentity> file = file_identity(path);
  if (!file) throw IoError(path, "cannot read the table file");
  return m.str() + "/" + std::string(indexing::convention_name(convention)) + "/" +
         std::string(rules_name(tablebase.rules())) + "/" + std::to_string(file->device) + ":" +
         std::to_string(file->inode) + ":" + std::to_string(file->size) + ":" +
         std::to_string(file->modified_ns);
}

}  // namespace

std::vector<stats::TableStatistics> table_statistics(
    const StatsRequest& request, const std::function<void(const StoreError&)>& on_unreadable) {
  const Tablebase tablebase(request.directory, {LineCacheBytes, request.rules});
  const std::vector<Material> targets = present_tables(tablebase, request.signatures, request.all);
  if (targets.empty()) throw InputError("stats: name at least one signature");
  std::vector<stats::TableStatistics> tables;
  tables.reserve(targets.size());
  for (const Material& m : targets) {
    const bool named =
        std::any_of(request.signatures.begin(), request.signatures.end(),
                    [&](const std::string& s) { return parse_signature(s).normalized() == m; });
    try {
      tables.push_back(stats::compute_statistics(tablebase, m, request.options));
    } catch (const StoreError& e) {
      if (named || !on_unreadable) throw;
      on_unreadable(e);
    }
  }
  return tables;
}

std::shared_ptr<const stats::TableStatistics> StatisticsCache::get(const Tablebase& tablebase,
                                                                   std::string_view signature,
                                                                   const stats::StatsOptions& options) {
  const Material m = present_tables(tablebase, {std::string(signature)}, std::nullopt).front();
  const std::string key = statistics_key(tablebase, m, options.convention);
  {
    const std::lock_guard lock(mutex_);
    if (const auto it = tables_.find(key); it != tables_.end()) return it->second;
  }
  auto table =
      std::make_shared<const stats::TableStatistics>(stats::compute_statistics(tablebase, m, options));
  const std::lock_guard lock(mutex_);
  return tables_.emplace(key, std::move(table)).first->second;
}

std::optional<std::string> incomplete_table_warning(const stats::TableStatistics& t) {
  if (t.metrics.contains(all_metrics(t.rules))) return std::nullopt;
  if (t.metrics == StalemateOnly)
    return t.material.str() +
           " holds stalemates only (--metrics dts): its mates, draws and losses to mate all " +
           "count as value 2 ('not a stalemate win or loss') and it has no DTM; only the counts of values "
           "3 " +
           "and 1 and their DTS are the table's";
  return t.material.str() + " was built without DTS (--metrics dtm): its values 3 and 1 count as draws";
}

std::string examples_pgn(const std::vector<stats::TableStatistics>& tables) {
  std::string out;
  int round = 0;
  for (const stats::TableStatistics& t : tables)
    for (Metric metric : AllMetrics)
      for (Color winner : {Color::White, Color::Black})
        if (const std::optional<stats::Deepest>& d = t.deepest_of(metric, winner))
          out += pgn::to_pgn(example_game(t, *d, ++round));
  return out;
}

std::optional<std::string> incomplete_table_warning(const std::vector<Material>& tables) {
  if (tables.empty()) return std::nullopt;
  std::string names;
  for (const Material& m : tables) names += (names.empty() ? "" : ", ") + m.str();
  return names + (tables.size() == 1 ? " was" : " were") +
         " built without DTS (--metrics dtm): stalemate wins and losses (values 3 and 1) show as draws";
}

}  // namespace egtb::api
