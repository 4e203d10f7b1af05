#include "api/json.hpp"

#include <algorithm>

#include "api/rules_words.hpp"
#include "egtb/core/fen.hpp"
#include "egtb/core/movegen.hpp"
#include "egtb/core/notation.hpp"

namespace egtb::api {

namespace {

std::string side_key(Color c) { return std::string(1, color_char(c)); }

// The depth of a score in each metric of its rules ("dtm" and "dts" under Lasker, "dte" or "dtm"
// under the others), added to `object`.
void add_depths(Json& object, Rules rules, Score s) {
  for (Metric m : rule_metrics(rules)) object[std::string(metric_key(m))] = depth_json(depth_in(rules, s, m));
}

// "lasker", "dtm" and "dts" of a score, added to `object`; under other rules "value" (4 win,
// 2 draw, 0 loss) and the depth of each metric of the rules.
void add_score(Json& object, Rules rules, Score s) {
  object[rules == Rules::Lasker ? "lasker" : "value"] = s.is_valid() ? Json(to_index(s.value())) : Json();
  add_depths(object, rules, s);
}

// "category", "lasker", "dtm", "dts" of a valid score.
void add_valued(Json& object, Rules rules, Score s) {
  object["category"] = category(rules, s.value());
  add_score(object, rules, s);
}

// The depths of a valid score signed from its side to move's view, as the lichess tablebase API
// gives "dtm": "signed_dtm", "signed_dts" under Lasker ("signed_dte" or "signed_dtm" under the
// others), each the depth when the side to move wins, minus the depth when it loses, null when
// the value has no depth in that metric. Examples: mate in 3 plies 3; mated in 2 plies -2;
// checkmated 0; a stalemate win has a signed_dts and a null signed_dtm.
void add_signed_depths(Json& object, Rules rules, Score s) {
  const int sign = is_loss(s.value()) ? -1 : 1;
  for (Metric m : rule_metrics(rules)) {
    const std::optional<int> depth = depth_in(rules, s, m);
    object["signed_" + std::string(metric_key(m))] = depth ? Json(sign * *depth) : Json();
  }
}

// "checkmate", "stalemate" and "insufficient_material" of a position.
void add_end(Json& object, const Position& pos) {
  object["checkmate"] = is_checkmate(pos);
  object["stalemate"] = is_stalemate(pos);
  object["insufficient_material"] = is_insufficient_material(pos);
}

// The board of a position for a page to draw without reading FEN: "side_to_move" ("w" or "b"),
// "fullmove_number" and "men", the men by square ({"b1": "k", "b3": "N", "d1": "K"}, FEN letters).
void add_board(Json& object, const Position& pos) {
  object["side_to_move"] = side_key(pos.side_to_move());
  object["fullmove_number"] = pos.fullmove_number();
  Json men = Json::object();
  for (Bitboard b = pos.pieces(); b;) {
    const Square s = pop_lsb(b);
    men[square_name(s)] = std::string(1, piece_char(pos.piece_on(s)));
  }
  object["men"] = std::move(men);
}

// The side a score wins for, with `stm` to move: "w" or "b" (a mate or, under Lasker, a lesser
// stalemate win too), null for a draw: the lichess mainline's "winner".
Json winner_json(Score s, Color stm) {
  if (is_win(s.value())) return side_key(stm);
  if (is_loss(s.value())) return side_key(~stm);
  return nullptr;
}

// {"w": row(White), "b": row(Black)}: a Table 1 field keyed by the winner.
template <typename Row>
Json by_winner(Row row) {
  Json out = Json::object();
  for (Color winner : {Color::White, Color::Black}) out[side_key(winner)] = row(winner);
  return out;
}

// The deepest positions of a metric keyed by the winner, each {...} or null.
Json deepest_json(const stats::TableStatistics& t, Metric metric) {
  return by_winner([&](Color winner) {
    const std::optional<stats::Deepest>& d = t.deepest_of(metric, winner);
    return d ? Json{{"plies", d->plies},
                    {"positions", d->positions},
                    {"side_to_move", side_key(d->side_to_move)},
                    {"example", to_fen(d->example)},
                    {"line", uci_line(d->line)}}
             : Json();
  });
}

// The depths of a metric's Table 1 rows from a table's header, keyed by the winner: {"plies",
// "side_to_move"} or null.
Json deepest_json(const TableHeader& h, Metric metric) {
  return by_winner([&](Color winner) {
    const std::optional<stats::DeepestDepth> d = stats::deepest_depth(h.rules, h.stats, metric, winner);
    return d ? Json{{"plies", d->plies}, {"side_to_move", side_key(d->side_to_move)}} : Json();
  });
}

// "maxdts", "maxdtm", "maxdte" (in that order) of the metrics of the rules, each `deepest(metric)`.
template <typename Deepest>
void add_maxima(Json& object, Rules rules, Deepest deepest) {
  const std::vector<Metric> metrics = rule_metrics(rules);
  for (Metric m : {Metric::Dts, Metric::Dtm, Metric::Dte})
    if (std::find(metrics.begin(), metrics.end(), m) != metrics.end())
      object["max" + std::string(metric_key(m))] = deepest(m);
}

Json histogram_json(const stats::DepthHistogram& h) {
  Json out = Json::object();
  for (const auto& [plies, n] : h) out[std::to_string(plies)] = n;
  return out;
}

std::vector<std::string> square_names(Bitboard b) {
  std::vector<std::string> names;
  while (b) names.push_back(square_name(pop_lsb(b)));
  return names;
}

int max_depth(const TableHeader& h, int side, Metric m) {
  return h.stats[static_cast<size_t>(side)].max_depth(h.rules, m);
}

Json depth_or_null(int depth) { return depth < 0 ? Json() : Json(depth); }

Json spot_json(const GameSpot& s) {
  return {{"ply", s.ply}, {"move", s.move}, {"mainline", s.mainline}, {"fen", s.fen}};
}

}  // namespace

std::string json_line(const Json& json) { return json.dump(-1, ' ', false, Json::error_handler_t::replace); }

std::string json_text(const Json& json) { return json.dump(2, ' ', false, Json::error_handler_t::replace); }

Json depth_json(std::optional<int> depth) { return depth ? Json(*depth) : Json(); }

Json to_json(const ProbeReport& r, ProbeDetail detail) {
  Json out = {{"fen", to_fen(r.position)}};
  if (detail == ProbeDetail::ValueFile) {
    out[r.rules == Rules::Lasker ? "lasker" : "value"] = to_index(r.score.value());
    return out;
  }
  if (detail == ProbeDetail::Value) {
    add_score(out, r.rules, r.score);
    return out;
  }
  add_valued(out, r.rules, r.score);
  add_end(out, r.position);
  add_signed_depths(out, r.rules, r.score);
  add_board(out, r.position);
  Json moves = Json::array();
  for (const MoveValue& m : r.moves) {
    Json move = {{"uci", to_uci(m.move)}, {"san", to_san(r.position, m.move)}};
    add_valued(move, r.rules, m.score);
    const Position after = r.position.after(m.move);
    add_end(move, after);
    add_signed_depths(move, r.rules, m.score);
    move["fen"] = to_fen(after);
    moves.push_back(std::move(move));
  }
  out["moves"] = std::move(moves);
  if (detail == ProbeDetail::Full) out["pv"] = uci_line(r.line);
  return out;
}

Json to_json(const StalemateReport& r) {
  const bool stalemate = r.score.value() != Lasker::Draw;
  return {{"fen", to_fen(r.position)},
          {"category", stalemate ? std::string(category(Rules::Lasker, r.score.value())) : "no-stalemate"},
          {"lasker", to_index(r.score.value())},
          {"dts", depth_json(depth_in(Rules::Lasker, r.score, Metric::Dts))}};
}

Json mainline_json(const ProbeReport& r) {
  Json out = {{"fen", to_fen(r.position)}};
  add_valued(out, r.rules, r.score);
  add_signed_depths(out, r.rules, r.score);
  add_board(out, r.position);
  Json steps = Json::array();
  Position pos = r.position;
  Score s = r.score;
  for (Move m : r.line) {
    Json step = {{"uci", to_uci(m)}, {"san", to_san(pos, m)}};
    pos.do_move(m);
    s = Score(negate(s.value()), s.depth() - 1);
    step["fen"] = to_fen(pos);
    add_valued(step, r.rules, s);
    add_signed_depths(step, r.rules, s);
    steps.push_back(std::move(step));
  }
  out["mainline"] = std::move(steps);
  out["winner"] = winner_json(r.score, r.position.side_to_move());
  Json end = {{"fen", to_fen(pos)}};
  add_end(end, pos);
  out["final"] = std::move(end);
  return out;
}

Json to_json(const GameAnnotation& a, Rules rules) {
  Json first = nullptr;
  if (const auto& f = a.first) {
    first = {{"ply", f->ply}, {"after", f->after}, {"fen", f->fen}};
    add_valued(first, rules, f->score);
    first["implied_result"] = f->implied_result;
    first["agrees"] = f->agrees ? Json(*f->agrees) : Json();
  }
  Json concessions = Json::array();
  for (const Concession& k : a.concessions) {
    Json c = spot_json(k.spot);
    c["from"] = category(rules, k.before);
    c["to"] = category(rules, k.after);
    c["best"] = k.best;
    concessions.push_back(std::move(c));
  }
  Json duals = Json::array();
  for (const Dual& d : a.duals) {
    Json j = spot_json(d.spot);
    j["keeping"] = d.keeping;
    j["optimal"] = d.optimal;
    duals.push_back(std::move(j));
  }
  Json stalemates = Json::array();
  for (const StalemateEnd& e : a.stalemates) {
    Json j = spot_json(e.spot);
    const query::StalemateClass& k = e.kind;
    j["class"] = k.counts();
    j.update(
        {{"vs", k.vacant}, {"b", k.blocks}, {"sb", k.self_blocks}, {"p", k.pinned}, {"bm", k.blocked_men}});
    j["pure"] = k.pure;
    j["model"] = k.model;
    stalemates.push_back(std::move(j));
  }
  return {{"game", a.game},
          {"white", a.white},
          {"black", a.black},
          {"event", a.event},
          {"result", a.result},
          {"positions", a.positions},
          {"first", first},
          {"concessions", concessions},
          {"duals", duals},
          {"stalemates", stalemates},
          {"value_duals", a.value_duals},
          {"depth_duals", a.depth_duals},
          {"unprobed", a.unprobed},
          {"missing_tables", a.missing_tables}};
}

Json batch_error_json(size_t line, const std::string& input, const std::string& error) {
  return {{"line", line}, {"input", input}, {"error", error}};
}

Json error_json(const std::string& message, const std::optional<InputLocation>& location,
                const std::string& missing_table) {
  Json out = {{"error", message}};
  if (location && location->fen_field > 0) out["location"] = {{"fen_field", location->fen_field}};
  if (location && location->line > 0)
    out["location"] = {{"line", location->line},
                       {"column", location->column},
                       {"end_line", location->end_line},
                       {"end_column", location->end_column}};
  if (!missing_table.empty()) out["table"] = missing_table;
  return out;
}

Json to_json(const PresentTable& t) {
  if (!t.error.empty())
    return {{"signature", t.material.str()}, {"men", t.material.men()}, {"error", t.error}};
  const TableHeader& h = t.header;
  Json sides = Json::object();
  for (Color c : {Color::White, Color::Black}) {
    const SideStats& s = h.stats[static_cast<size_t>(to_index(c))];
    sides[side_key(c)] = {{"positions", s.positions()}, {"lasker", s.values}};
  }
  Json out = {{"signature", t.material.str()},
              {"men", t.material.men()},
              {"file_size", h.file_size},
              {"metrics", to_string(h.metrics)}};
  if (h.rules != Rules::Lasker) out["rules"] = rules_name(h.rules);
  out["sides"] = sides;
  add_maxima(out, h.rules, [&](Metric m) { return deepest_json(h, m); });
  return out;
}

Json to_json(const stats::TableStatistics& t) {
  Json sides = Json::object();
  Json histogram = Json::object();
  for (Color c : {Color::White, Color::Black}) {
    sides[side_key(c)] = {{"positions", t.side(c).positions()}, {"lasker", t.side(c).lasker}};
    Json metrics = Json::object();
    for (Metric m : rule_metrics(t.rules))
      metrics[std::string(metric_key(m))] = histogram_json(t.side(c).histogram(t.rules, m));
    histogram[side_key(c)] = std::move(metrics);
  }
  Json out = {{"signature", t.material.str()}, {"convention", indexing::convention_name(t.convention)}};
  if (t.rules != Rules::Lasker) out["rules"] = rules_name(t.rules);
  out["sides"] = sides;
  add_maxima(out, t.rules, [&](Metric m) { return deepest_json(t, m); });
  out["histogram"] = histogram;
  return out;
}

Json to_json(const query::Match& m, Rules rules) {
  Json j = {{"fen", to_fen(m.position)}};
  if (rules == Rules::Lasker) {
    add_score(j, rules, m.score);
  } else {  // "value" is the query's: the table's value is named by its category
    j["category"] = m.score.is_valid() ? Json(category(rules, m.score.value())) : Json();
    add_depths(j, rules, m.score);
  }
  if (m.value.kind == query::FilterKind::Set) j["value"] = square_names(m.value.squares);
  if (m.value.kind == query::FilterKind::Numeric && m.value.has_number) j["value"] = m.value.number;
  if (!m.notes.empty()) j["notes"] = m.notes;
  return j;
}

Json to_json(const pgn::Game& game, const PositionMatch& m, Rules rules) {
  Json j = {{"game", game.number},
            {"ply", game.ply(m.node)},
            {"move", m.node == pgn::Game::Root ? Json() : Json(pgn::numbered_san(game, m.node))},
            {"mainline", game.is_mainline(m.node)}};
  j.update(to_json(m.match, rules));
  return j;
}

Json to_json(const PgnQuerySummary& s) {
  return {{"games", s.games},
          {"errors", s.errors},
          {"positions", s.positions},
          {"matched_games", s.matched_games},
          {"matched_positions", s.matched_positions}};
}

Json to_json(const query::ScanSummary& s, indexing::Convention convention) {
  if (s.tables.empty()) return {{"matches", s.matches}};
  Json tables = Json::array();
  for (const query::TableTally& t : s.tables)
    tables.push_back({{"signature", t.table.str()},
                      {"matches", t.matches},
                      {"entries", t.entries},
                      {"evaluated", t.evaluated}});
  return {{"convention", indexing::convention_name(convention)}, {"tables", tables}, {"matches", s.matches}};
}

Json to_json(const Material& table, const retro::Progress& p) {
  const bool solving = p.stage == retro::Stage::Solving;
  const char* stage = solving ? "solving" : p.stage == retro::Stage::Setup ? "setup" : "finish";
  return {{"signature", table.str()},
          {"stage", stage},
          {"metric", solving ? Json(metric_key(p.metric)) : Json()},
          {"ply", p.ply},
          {"resolved", p.resolved},
          {"seconds", p.seconds},
          {"slice", p.slice},
          {"slices", p.slices}};
}

Json rules_json(Rules r) {
  const RulesWords words = rules_words(r);
  Json values = Json::array();
  for (Lasker v : rule_values(r)) {
    const ValueWords w = value_words_of(r, v);
    const bool decided = v != Lasker::Draw;
    values.push_back({{"category", category(r, v)},
                      {"value", to_index(v)},
                      {"metric", decided ? Json(metric_key(metric_of(r, v))) : Json()},
                      {"goal", w.goal},
                      {"title", w.title},
                      {"verb", w.verb},
                      {"ends", decided ? Json(w.ends) : Json()},
                      {"share", value_verb(r, v)}});
  }
  Json maxima = Json::object();
  add_maxima(maxima, r, [](Metric m) {
    return Json{{"name", "max" + std::string(metric_name(m))},
                {"description", "deepest forced " + std::string(metric_end(m)) + " in plies, per " +
                                    std::string(metric_winner(m)) + " (w, b), either side to move"}};
  });
  return {{"name", rules_name(r)},
          {"summary", words.summary},
          {"metrics", words.metrics},
          {"stalemated", words.stalemated},
          {"stalemate_passes", stalemate_passes(r)},
          {"values", std::move(values)},
          {"maxima", std::move(maxima)}};
}

Json all_rules_json(Rules default_rules) {
  Json list = Json::array();
  for (Rules r : AllRules) list.push_back(rules_json(r));
  return {{"default", rules_name(default_rules)}, {"rules", std::move(list)}};
}

Json tables_json(const std::vector<PresentTable>& tables, Rules rules) {
  Json list = Json::array();
  for (const PresentTable& t : tables) list.push_back(to_json(t));
  return {{"rules", rules_name(rules)}, {"tables", std::move(list)}};
}

Json to_json(const BoundedResult& r, indexing::Convention convention, Rules rules) {
  Json matches = Json::array();
  for (const query::Match& m : r.matches) {
    Json match = to_json(m, rules);
    match["table"] = m.table.str();
    matches.push_back(std::move(match));
  }
  return {{"convention", indexing::convention_name(convention)},
          {"matches", std::move(matches)},
          {"count", r.matches.size()},
          {"complete", !r.limit_reached && !r.out_of_time},
          {"limit_reached", r.limit_reached},
          {"out_of_time", r.out_of_time},
          {"entries", r.summary.entries},
          {"evaluated", r.summary.evaluated},
          {"seconds", r.summary.seconds}};
}

Json to_json(const RecompressedTable& t) {
  return {{"signature", t.material.str()},
          {"path", t.path.string()},
          {"bytes_before", t.result.bytes_before},
          {"bytes_after", t.result.bytes_after},
          {"cpu_seconds", t.cpu_seconds}};
}

Json to_json(const retro::GenerateRecord& r) {
  const TableHeader& h = r.header;
  Json out = {{"signature", r.material.str()},
              {"path", r.path.string()},
              {"built", r.built},
              {"file_size", h.file_size},
              {"bytes_per_position", h.bytes_per_position()},
              {"index_order", index_order_name(h)},
              {"sides", {{"w", side_json(h, 0, false)}, {"b", side_json(h, 1, false)}}},
              {"seconds", r.seconds},
              {"cpu_seconds", r.cpu_seconds},
              {"peak_rss_bytes", r.peak_rss_bytes}};
  if (r.built) {
    out["slices"] = r.slices;
    out["lean"] = r.lean;
    out["stage_seconds"] = {{"load", r.stages.load},
                            {"solve", r.stages.solve},
                            {"order", r.stages.order},
                            {"write", r.stages.write}};
  }
  if (!r.replaced.empty()) out["replaced"] = r.replaced;
  if (!r.built) out["by_other_process"] = r.by_other_process;
  if (!r.waited_for.empty()) {
    Json held = Json::array();
    for (const Material& m : r.waited_for) held.push_back(m.str());
    out["waited_for"] = held;
    out["wait_seconds"] = r.wait_seconds;
  }
  return out;
}

Json to_json(const Plan& plan) {
  Json tables = Json::array();
  for (const PlannedTable& t : plan.tables) {
    Json dependencies = Json::array();
    for (const Material& d : t.dependencies) dependencies.push_back(d.str());
    tables.push_back({{"signature", t.material.str()},
                      {"file", t.file.string()},
                      {"dependencies", dependencies},
                      {"entries_per_side", t.cost.entries_per_side},
                      {"layout_positions_per_side", t.cost.layout_positions_per_side},
                      {"whole_subtable_entries", t.cost.whole_subtable_entries},
                      {"pages_subtables", t.cost.pages_subtables},
                      {"estimated_cpu_seconds", t.cost.cpu_seconds},
                      {"estimated_peak_bytes", t.cost.peak_bytes},
                      {"slices", t.cost.slices},
                      {"estimated_sliced_peak_bytes", t.cost.sliced_peak_bytes},
                      {"joined_slices", t.cost.joined_slices},
                      {"estimated_joined_peak_bytes", t.cost.joined_peak_bytes},
                      {"estimated_lean_peak_bytes", t.cost.lean_peak_bytes},
                      {"sliced", t.solve.sliced()},
                      {"lean", t.solve.lean},
                      {"planned_slices", t.solve.slices},
                      {"planned_peak_bytes", t.solve.peak_bytes},
                      {"buildable", t.buildable},
                      {"cpus", t.cpus},
                      {"memory_bytes", t.memory_bytes},
                      {"command", t.command}});
  }
  return {{"directory", plan.request.jobs.directory.string()},
          {"rules", rules_name(plan.request.jobs.rules)},
          {"tables", tables}};
}

Json errors_json(const std::vector<retro::VerifyError>& errors) {
  Json out = Json::array();
  for (const retro::VerifyError& e : errors)
    out.push_back({{"side_to_move", side_key(e.side_to_move)},
                   {"index", e.index},
                   {"fen", e.fen},
                   {"stored", describe(e.stored)},
                   {"expected", describe(e.expected)},
                   {"problem", e.problem}});
  return out;
}

// One side's counts of a verification: the entries checked [first, first + entries), the positions
// among them, the duplicate entries, the positions per Lasker value 0-4 and the failed checks.
Json to_json(const retro::VerifySideCounts& s) {
  return {{"first", s.first},           {"entries", s.entries}, {"positions", s.positions},
          {"duplicates", s.duplicates}, {"lasker", s.values},   {"errors", s.errors}};
}

Json to_json(const retro::VerifyReport& report) {
  return {{"signature", report.material.str()},
          {"part", {{"number", report.part.number}, {"count", report.part.count}}},
          {"entries_checked", report.entries_checked},
          {"errors", report.error_count},
          {"sides", {{"w", to_json(report.sides[0])}, {"b", to_json(report.sides[1])}}},
          {"first_errors", errors_json(report.errors)}};
}

Json side_json(const TableHeader& h, int side, bool details) {
  const SideStats& s = h.stats[static_cast<size_t>(side)];
  Json out = {{"positions", s.positions()}};
  if (details) {
    out["invalid"] = s.invalid;
    out["lasker"] = s.values;
  }
  for (Metric m : rule_metrics(h.rules))
    out["max_" + std::string(metric_key(m))] = depth_or_null(max_depth(h, side, m));
  return out;
}

namespace {

// The fields a table file and a value file share, in that order: rules, metrics, index scheme,
// version and order, entries per side.
void add_index_fields(Json& out, const TableHeader& h) {
  out["rules"] = rules_name(h.rules);
  out["metrics"] = to_string(h.metrics);
  out["index_scheme"] = h.index_scheme;
  out["index_version"] = h.index_version;
  out["index_order"] = index_order_name(h);
  out["entries"] = {{"w", h.entries[0]}, {"b", h.entries[1]}};
}

}  // namespace

Json header_json(const std::filesystem::path& path, const TableHeader& h) {
  Json out = {{"file", path.string()},
              {"signature", h.signature},
              {"format_version", h.format_version},
              {"filled", h.filled},
              {"packed", h.packed}};
  add_index_fields(out, h);
  out["blocks"] = h.block_count;
  out["file_size"] = h.file_size;
  out["positions"] = h.positions();
  out["bytes_per_position"] = h.bytes_per_position();
  out["bytes_per_entry"] = h.bytes_per_entry();
  out["generator"] = h.generator;
  out["sides"] = {{"w", side_json(h, 0, true)}, {"b", side_json(h, 1, true)}};
  out["checksums"] = "verified";
  return out;
}

Json value_file_json(const std::filesystem::path& path, const ValueFileInfo& info) {
  const TableHeader& h = info.header;
  Json out = {{"file", path.string()},
              {"kind", "value file"},
              {"signature", h.signature},
              {"format_version", info.format_version}};
  add_index_fields(out, h);
  out["block_entries"] = h.block_entries;
  out["blocks"] = h.block_count;
  out["file_size"] = h.file_size;
  out["table_checksum"] = info.table_checksum;
  out["grammar_rules"] = info.contents.grammar_rules;
  Json forms = Json::object();
  for (size_t f = 0; f < ValueBlockForms.size(); ++f)
    forms[ValueBlockForms[f]] = {{"blocks", info.contents.blocks[f]}, {"bytes", info.contents.bytes[f]}};
  out["block_forms"] = forms;
  out["checksums"] = "verified";
  return out;
}

Json generate_json(const std::filesystem::path& directory,
                   const std::vector<retro::GenerateRecord>& records) {
  Json tables = Json::array();
  for (const retro::GenerateRecord& r : records) tables.push_back(to_json(r));
  return {{"directory", directory.string()}, {"tables", tables}};
}

Json stats_json(const std::vector<stats::TableStatistics>& tables) {
  Json out = {{"tables", Json::array()}};
  for (const stats::TableStatistics& t : tables) out["tables"].push_back(to_json(t));
  return out;
}

Json to_json(const VerifyOutcome& o) {
  Json out = to_json(o.forward);
  if (o.gaviota_checked)
    out["gaviota"] = {{"positions_checked", o.gaviota_positions},
                      {"errors", o.gaviota_errors},
                      {"first_errors", errors_json(o.gaviota_first_errors)}};
  if (o.against_full) out["against_full"] = to_json(*o.against_full);
  return out;
}

Json to_json(const CombinedVerification& combined) {
  const retro::VerifyReport& t = combined.total;
  Json files = Json::array();
  for (const auto& f : combined.files) files.push_back(f.string());
  return {{"ok", combined.ok()},
          {"signature", t.material.str()},
          {"parts", combined.part_count},
          {"files", files},
          {"entries_checked", t.entries_checked},
          {"errors", t.error_count},
          {"sides", {{"w", to_json(t.sides[0])}, {"b", to_json(t.sides[1])}}},
          {"problems", combined.problems}};
}

Json verify_json(const std::vector<VerifyOutcome>& outcomes) {
  Json tables = Json::array();
  bool ok = true;
  for (const VerifyOutcome& o : outcomes) {
    ok = ok && o.ok();
    tables.push_back(to_json(o));
  }
  return {{"ok", ok}, {"tables", tables}};
}

Json to_json(const SignatureInfo& info) {
  Json positions = Json::object();
  for (indexing::Convention c : indexing::AllConventions)
    positions[std::string(indexing::convention_name(c))] = {{"w", info.positions[0].get(c)},
                                                            {"b", info.positions[1].get(c)}};
  return {{"signature", info.material.str()},
          {"index_size", info.index_size},
          {"ep_entries", info.ep_entries},
          {"bytes_per_entry", BytesPerEntry},
          {"positions", positions}};
}

Json to_json(const std::string& input, const PositionReport& report) {
  Json list = Json::array();
  for (const MoveText& m : report.moves) list.push_back({{"san", m.san}, {"uci", m.uci}});
  return {{"input", input},
          {"fen", to_fen(report.position)},
          {"side_to_move", report.position.side_to_move() == Color::White ? "white" : "black"},
          {"state", report.state},
          {"moves", list}};
}

Json to_json(const PerftReport& report) {
  Json out = {{"fen", to_fen(report.position)}, {"depth", report.depth}, {"nodes", report.nodes}};
  if (!report.divide) return out;
  Json divide = Json::object();
  for (const PerftLine& l : *report.divide) divide[l.move] = l.nodes;
  out["divide"] = divide;
  return out;
}

}  // namespace egtb::api
