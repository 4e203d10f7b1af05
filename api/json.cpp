#include "api/json.hpp"

#include "egtb/core/fen.hpp"
#include "egtb/core/movegen.hpp"
#include "egtb/core/notation.hpp"

namespace egtb::api {

namespace {

std::string side_key(Color c) { return std::string(1, color_char(c)); }

// "lasker", "dtm" and "dts" of a score, added to `object`.
void add_score(Json& object, Rules rules, Score s) {
  object["lasker"] = s.is_valid() ? Json(to_index(s.value())) : Json();
  object["dtm"] = depth_json(depth_in(rules, s, Metric::Dtm));
  object["dts"] = depth_json(depth_in(rules, s, Metric::Dts));
}

// "category", "lasker", "dtm", "dts" of a valid score.
void add_valued(Json& object, Rules rules, Score s) {
  object["category"] = category(rules, s.value());
  add_score(object, rules, s);
}

// "checkmate" and "stalemate" of a position.
void add_end(Json& object, const Position& pos) {
  object["checkmate"] = is_checkmate(pos);
  object["stalemate"] = is_stalemate(pos);
}

// {"w": {...} | null, "b": {...} | null}: the deepest positions of a metric keyed by the winner.
Json deepest_json(const stats::TableStatistics& t, Metric metric) {
  Json out = Json::object();
  for (Color winner : {Color::White, Color::Black}) {
    const std::optional<stats::Deepest>& d = t.deepest_of(metric, winner);
    out[side_key(winner)] = d ? Json{{"plies", d->plies},
                                     {"positions", d->positions},
                                     {"side_to_move", side_key(d->side_to_move)},
                                     {"example", to_fen(d->example)},
                                     {"line", uci_line(d->line)}}
                              : Json();
  }
  return out;
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
  if (detail == ProbeDetail::Value) {
    add_score(out, r.rules, r.score);
    return out;
  }
  add_valued(out, r.rules, r.score);
  add_end(out, r.position);
  Json moves = Json::array();
  for (const MoveValue& m : r.moves) {
    Json move = {{"uci", to_uci(m.move)}, {"san", to_san(r.position, m.move)}};
    add_valued(move, r.rules, m.score);
    add_end(move, r.position.after(m.move));
    moves.push_back(std::move(move));
  }
  out["moves"] = std::move(moves);
  out["pv"] = uci_line(r.line);
  return out;
}

Json mainline_json(const ProbeReport& r) {
  Json out = {{"fen", to_fen(r.position)}};
  add_valued(out, r.rules, r.score);
  Json steps = Json::array();
  Position pos = r.position;
  Score s = r.score;
  for (Move m : r.line) {
    Json step = {{"uci", to_uci(m)}, {"san", to_san(pos, m)}};
    pos.do_move(m);
    s = Score(negate(s.value()), s.depth() - 1);
    step["fen"] = to_fen(pos);
    add_valued(step, r.rules, s);
    steps.push_back(std::move(step));
  }
  out["mainline"] = std::move(steps);
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
  return {{"game", a.game},
          {"white", a.white},
          {"black", a.black},
          {"event", a.event},
          {"result", a.result},
          {"positions", a.positions},
          {"first", first},
          {"concessions", concessions},
          {"duals", duals},
          {"value_duals", a.value_duals},
          {"depth_duals", a.depth_duals},
          {"unprobed", a.unprobed},
          {"missing_tables", a.missing_tables}};
}

Json batch_error_json(size_t line, const std::string& input, const std::string& error) {
  return {{"line", line}, {"input", input}, {"error", error}};
}

Json to_json(const stats::TableStatistics& t) {
  Json sides = Json::object();
  Json histogram = Json::object();
  for (Color c : {Color::White, Color::Black}) {
    sides[side_key(c)] = {{"positions", t.side(c).positions()}, {"lasker", t.side(c).lasker}};
    histogram[side_key(c)] = {{"dtm", histogram_json(t.side(c).dtm())},
                              {"dts", histogram_json(t.side(c).dts())}};
  }
  return {{"signature", t.material.str()},
          {"convention", indexing::convention_name(t.convention)},
          {"sides", sides},
          {"maxdts", deepest_json(t, Metric::Dts)},
          {"maxdtm", deepest_json(t, Metric::Dtm)},
          {"histogram", histogram}};
}

Json to_json(const query::Match& m, Rules rules) {
  Json j = {{"fen", to_fen(m.position)}};
  add_score(j, rules, m.score);
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

Json to_json(const retro::BuildRecord& r) {
  const TableHeader& h = r.header;
  Json out = {{"signature", r.material.str()},
              {"path", r.path.string()},
              {"built", r.built},
              {"file_size", h.file_size},
              {"bytes_per_position", h.bytes_per_position()},
              {"sides", {{"w", side_json(h, 0, false)}, {"b", side_json(h, 1, false)}}},
              {"seconds", r.seconds},
              {"cpu_seconds", r.cpu_seconds},
              {"peak_rss_bytes", r.peak_rss_bytes}};
  if (!r.replaced.empty()) out["replaced"] = r.replaced;
  return out;
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

Json to_json(const retro::VerifyReport& report) {
  return {{"signature", report.material.str()},
          {"entries_checked", report.entries_checked},
          {"errors", report.error_count},
          {"first_errors", errors_json(report.errors)}};
}

Json side_json(const TableHeader& h, int side, bool details) {
  const SideStats& s = h.stats[static_cast<size_t>(side)];
  Json out = {{"positions", s.positions()}};
  if (details) {
    out["invalid"] = s.invalid;
    out["lasker"] = s.values;
  }
  out["max_dtm"] = depth_or_null(max_depth(h, side, Metric::Dtm));
  out["max_dts"] = depth_or_null(max_depth(h, side, Metric::Dts));
  return out;
}

Json header_json(const std::filesystem::path& path, const TableHeader& h) {
  return {{"file", path.string()},
          {"signature", h.signature},
          {"format_version", h.format_version},
          {"rules", rules_name(h.rules)},
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
          {"sides", {{"w", side_json(h, 0, true)}, {"b", side_json(h, 1, true)}}},
          {"checksums", "verified"}};
}

}  // namespace egtb::api
