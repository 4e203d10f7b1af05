#include "egtb/store/rules.hpp"

namespace egtb {

namespace {

constexpr std::array<SolvePhase, 2> LaskerPhases = {
    SolvePhase{Metric::Dtm, true, false, false, Lasker::Mates, Lasker::Mated},
    SolvePhase{Metric::Dts, false, true, false, Lasker::Stalemates, Lasker::Stalemated},
};
constexpr std::array<SolvePhase, 1> StalemateWinsPhases = {
    SolvePhase{Metric::Dte, true, true, false, Lasker::Mates, Lasker::Mated},
};
constexpr std::array<SolvePhase, 1> StalematePassesPhases = {
    SolvePhase{Metric::Dtm, true, false, true, Lasker::Mates, Lasker::Mated},
};

}  // namespace

std::string_view metric_name(Metric m) {
  switch (m) {
    case Metric::Dtm: return "DTM";
    case Metric::Dts: return "DTS";
    case Metric::Dte: return "DTE";
  }
  return "?";
}

std::string_view metric_key(Metric m) {
  switch (m) {
    case Metric::Dtm: return "dtm";
    case Metric::Dts: return "dts";
    case Metric::Dte: return "dte";
  }
  return "?";
}

std::string to_string(MetricSet s) {
  std::string text;
  for (Metric m : AllMetrics)
    if (s.contains(m)) (text += text.empty() ? "" : ",") += metric_key(m);
  return text.empty() ? "none" : text;
}

std::optional<MetricSet> parse_metric_set(std::string_view text) {
  if (text == "dtm,dts" || text == "dts,dtm") return MetricSet{Metric::Dtm, Metric::Dts};
  if (text == "dtm") return MetricSet{Metric::Dtm};
  if (text == "dts") return StalemateOnly;
  return std::nullopt;
}

std::string_view rules_name(Rules r) {
  switch (r) {
    case Rules::Lasker: return "lasker";
    case Rules::StalemateWins: return "stalemate-wins";
    case Rules::StalematePasses: return "stalemate-passes";
  }
  return "?";
}

std::optional<Rules> parse_rules(std::string_view name) {
  for (Rules r : AllRules)
    if (rules_name(r) == name) return r;
  return std::nullopt;
}

std::optional<Rules> rules_from_id(uint32_t id) {
  for (Rules r : AllRules)
    if (rules_id(r) == id) return r;
  return std::nullopt;
}

std::span<const SolvePhase> solve_phases(Rules r) {
  switch (r) {
    case Rules::Lasker: return LaskerPhases;
    case Rules::StalemateWins: return StalemateWinsPhases;
    case Rules::StalematePasses: return StalematePassesPhases;
  }
  return {};
}

std::optional<SolvePhase> phase_of(Rules r, Metric m) {
  for (const SolvePhase& p : solve_phases(r))
    if (p.metric == m) return p;
  return std::nullopt;
}

MetricSet all_metrics(Rules r) {
  MetricSet s;
  for (const SolvePhase& p : solve_phases(r)) s = MetricSet::from_bits(s.bits() | MetricSet{p.metric}.bits());
  return s;
}

Metric metric_of(Rules r, Lasker v) {
  for (const SolvePhase& p : solve_phases(r))
    if (p.win == v || p.loss == v) return p.metric;
  return Metric::Dtm;
}

std::optional<int> depth_in(Rules r, Score s, Metric m) {
  if (!s.is_valid() || s.value() == Lasker::Draw || metric_of(r, s.value()) != m) return std::nullopt;
  return s.depth();
}

Score as_stored(Rules r, MetricSet stored, Score s) {
  if (!s.is_valid() || s.value() == Lasker::Draw || stored.contains(metric_of(r, s.value()))) return s;
  return Score::draw();
}

std::optional<Score> terminal_score(Rules r, bool in_check) {
  for (const SolvePhase& p : solve_phases(r))
    if (in_check ? p.checkmate_ends : p.stalemate_ends) return Score(p.loss, 0);
  return std::nullopt;
}

bool stalemate_passes(Rules r) {
  for (const SolvePhase& p : solve_phases(r))
    if (p.stalemate_passes) return true;
  return false;
}

bool five_valued(Rules r) { return r == Rules::Lasker; }

std::span<const Lasker> rule_values(Rules r) {
  static constexpr std::array<Lasker, 5> Five = {Lasker::Mates, Lasker::Stalemates, Lasker::Draw,
                                                 Lasker::Stalemated, Lasker::Mated};
  static constexpr std::array<Lasker, 3> Three = {Lasker::Mates, Lasker::Draw, Lasker::Mated};
  if (five_valued(r)) return Five;
  return Three;
}

std::string_view value_verb(Rules r, Lasker v) {
  if (!five_valued(r)) return is_win(v) ? "wins" : is_loss(v) ? "loses" : "draw";
  switch (v) {
    case Lasker::Mates: return "mates";
    case Lasker::Stalemates: return "stalemates";
    case Lasker::Draw: return "draw";
    case Lasker::Stalemated: return "is stalemated";
    case Lasker::Mated: return "is mated";
  }
  return "?";
}

std::string_view metric_end(Metric m) {
  switch (m) {
    case Metric::Dtm: return "mate";
    case Metric::Dts: return "stalemate";
    case Metric::Dte: return "mate or stalemate";
  }
  return "?";
}

std::string_view metric_winner(Metric m) {
  switch (m) {
    case Metric::Dtm: return "mater";
    case Metric::Dts: return "stalemater";
    case Metric::Dte: return "winner";
  }
  return "?";
}

std::vector<Metric> rule_metrics(Rules r) {
  std::vector<Metric> out;
  for (const SolvePhase& p : solve_phases(r)) out.push_back(p.metric);
  return out;
}

std::string_view category(Rules r, Lasker v) {
  if (!five_valued(r)) return is_win(v) ? "win" : is_loss(v) ? "loss" : "draw";
  switch (v) {
    case Lasker::Mates: return "win";
    case Lasker::Stalemates: return "stalemate-win";
    case Lasker::Draw: return "draw";
    case Lasker::Stalemated: return "stalemate-loss";
    case Lasker::Mated: return "loss";
  }
  return "?";
}

}  // namespace egtb
