#include "api/query_output.hpp"

#include <optional>
#include <string>
#include <vector>

#include "api/json.hpp"
#include "api/probe.hpp"
#include "egtb/core/fen.hpp"
#include "egtb/store/line.hpp"
#include "pgn/writer.hpp"

namespace egtb::api {

namespace {

// The value of a match's score under its rules, as a field: the Lasker value under Lasker, the
// category ("win", "draw", "loss") under the others; `none` when the score is unknown.
std::string value_field(Rules rules, Score s, const std::string& none) {
  if (!s.is_valid()) return none;
  if (rules == Rules::Lasker) return std::to_string(to_index(s.value()));
  return std::string(category(rules, s.value()));
}

// "lasker" or "category": the name of value_field.
std::string_view value_field_name(Rules rules) { return rules == Rules::Lasker ? "lasker" : "category"; }

// "[a1,b2]" or "5", or nothing when the query has no value.
std::optional<std::string> value_text(const query::Value& v) {
  if (v.kind == query::FilterKind::Set) {
    std::string text = "[";
    for (Bitboard b = v.squares; b;) {
      if (text.size() > 1) text += ',';
      text += square_name(pop_lsb(b));
    }
    return text + "]";
  }
  if (v.kind == query::FilterKind::Numeric && v.has_number) return std::to_string(v.number);
  return std::nullopt;
}

std::string dash_or(std::optional<int> v) { return v ? std::to_string(*v) : "-"; }

class TextWriter final : public MatchWriter {
public:
  TextWriter(std::ostream& out, Rules rules) : out_(out), rules_(rules) {}
  void write(const query::Match& m) override {
    out_ << to_fen(m.position) << "  " << value_field_name(rules_) << ' '
         << value_field(rules_, m.score, "-");
    for (Metric metric : rule_metrics(rules_))
      out_ << "  " << metric_key(metric) << ' ' << dash_or(depth_in(rules_, m.score, metric));
    if (const auto v = value_text(m.value)) out_ << "  value " << *v;
    out_ << '\n';
    for (const std::string& note : m.notes) out_ << "  " << note << '\n';
  }

private:
  std::ostream& out_;
  Rules rules_;
};

class JsonWriter final : public MatchWriter {
public:
  JsonWriter(std::ostream& out, Rules rules) : out_(out), rules_(rules) {}
  void write(const query::Match& m) override { out_ << json_line(to_json(m, rules_)) << '\n'; }

private:
  std::ostream& out_;
  Rules rules_;
};

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + '"';
}

std::string blank_or(std::optional<int> v) { return v ? std::to_string(*v) : std::string(); }

class CsvWriter final : public MatchWriter {
public:
  CsvWriter(std::ostream& out, Rules rules) : out_(out), rules_(rules) {
    out_ << "fen," << value_field_name(rules_);
    for (Metric metric : rule_metrics(rules_)) out_ << ',' << metric_key(metric);
    out_ << ",value\n";
  }
  void write(const query::Match& m) override {
    out_ << csv_field(to_fen(m.position)) << ',' << value_field(rules_, m.score, "");
    for (Metric metric : rule_metrics(rules_)) out_ << ',' << blank_or(depth_in(rules_, m.score, metric));
    out_ << ',' << csv_field(value_text(m.value).value_or("")) << '\n';
  }

private:
  std::ostream& out_;
  Rules rules_;
};

// How the optimal line from a position ends: "1-0", "0-1" (mate), "1/2-1/2" (stalemate), or "*"
// (a draw or an unknown value: no line).
std::string result_of(Rules rules, Score s, Color stm) {
  if (!s.is_valid() || s.value() == Lasker::Draw) return "*";
  return implied_result(rules, s, stm);
}

class PgnWriter final : public MatchWriter {
public:
  PgnWriter(std::ostream& out, Rules rules, const Tablebase* tb) : out_(out), rules_(rules), tablebase_(tb) {}
  void write(const query::Match& m) override {
    pgn::Game game(m.position);
    game.result = result_of(rules_, m.score, m.position.side_to_move());
    game.set_tag("Event", "egtb query");
    game.set_tag("Site", m.table.str());
    game.set_tag("Round", std::to_string(++games_));
    std::vector<std::string>& comments = game.node(pgn::Game::Root).comments;
    comments.push_back("CQL");
    comments.insert(comments.end(), m.notes.begin(), m.notes.end());
    pgn::NodeId node = pgn::Game::Root;
    for (const Move move : line_of(m.position)) node = game.add_move(node, move);
    pgn::write_game(out_, game);
  }

private:
  std::ostream& out_;
  Rules rules_;
  const Tablebase* tablebase_;
  uint64_t games_ = 0;

  [[nodiscard]] std::vector<Move> line_of(const Position& pos) const {
    if (!tablebase_) return {};
    const Expected<std::vector<Move>, ProbeError> line = optimal_line(*tablebase_, pos);
    return line ? *line : std::vector<Move>{};
  }
};

}  // namespace

std::unique_ptr<MatchWriter> make_match_writer(QueryFormat format, std::ostream& out, Rules rules,
                                               const Tablebase* tablebase) {
  switch (format) {
    case QueryFormat::JsonLines: return std::make_unique<JsonWriter>(out, rules);
    case QueryFormat::Csv: return std::make_unique<CsvWriter>(out, rules);
    case QueryFormat::Pgn: return std::make_unique<PgnWriter>(out, rules, tablebase);
    case QueryFormat::Text: break;
  }
  return std::make_unique<TextWriter>(out, rules);
}

}  // namespace egtb::api
