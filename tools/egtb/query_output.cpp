#include "tools/egtb/query_output.hpp"

#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "egtb/core/fen.hpp"
#include "egtb/core/notation.hpp"
#include "egtb/store/line.hpp"
#include "tools/egtb/options.hpp"

namespace egtb::cli {

namespace {

constexpr size_t PgnLineWidth = 79;

std::optional<int> lasker_of(Score s) {
  if (!s.is_valid()) return std::nullopt;
  return to_index(s.value());
}

std::optional<int> dtm_of(Score s) {
  if (!s.is_valid() || !is_mate_value(s.value())) return std::nullopt;
  return s.depth();
}

std::optional<int> dts_of(Score s) {
  if (!s.is_valid() || s.value() == Lasker::Draw || is_mate_value(s.value())) return std::nullopt;
  return s.depth();
}

std::vector<std::string> square_names(Bitboard b) {
  std::vector<std::string> names;
  while (b) names.push_back(square_name(pop_lsb(b)));
  return names;
}

// "[a1,b2]" or "5", or nothing when the query has no value.
std::optional<std::string> value_text(const query::Value& v) {
  if (v.kind == query::FilterKind::Set) {
    std::string text = "[";
    for (const std::string& s : square_names(v.squares)) text += (text.size() > 1 ? "," : "") + s;
    return text + "]";
  }
  if (v.kind == query::FilterKind::Numeric && v.has_number) return std::to_string(v.number);
  return std::nullopt;
}

Json optional_json(std::optional<int> v) { return v ? Json(*v) : Json(); }

std::string dash_or(std::optional<int> v) { return v ? std::to_string(*v) : "-"; }

class TextWriter final : public MatchWriter {
public:
  explicit TextWriter(std::ostream& out) : out_(out) {}
  void write(const query::Match& m) override {
    out_ << to_fen(m.position) << "  lasker " << dash_or(lasker_of(m.score)) << "  dtm "
         << dash_or(dtm_of(m.score)) << "  dts " << dash_or(dts_of(m.score));
    if (const auto v = value_text(m.value)) out_ << "  value " << *v;
    out_ << '\n';
    for (const std::string& note : m.notes) out_ << "  " << note << '\n';
  }

private:
  std::ostream& out_;
};

class JsonWriter final : public MatchWriter {
public:
  explicit JsonWriter(std::ostream& out) : out_(out) {}
  void write(const query::Match& m) override {
    Json j{{"fen", to_fen(m.position)},
           {"lasker", optional_json(lasker_of(m.score))},
           {"dtm", optional_json(dtm_of(m.score))},
           {"dts", optional_json(dts_of(m.score))}};
    if (m.value.kind == query::FilterKind::Set) j["value"] = square_names(m.value.squares);
    if (m.value.kind == query::FilterKind::Numeric && m.value.has_number) j["value"] = m.value.number;
    if (!m.notes.empty()) j["notes"] = m.notes;
    out_ << j.dump() << '\n';
  }

private:
  std::ostream& out_;
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
  explicit CsvWriter(std::ostream& out) : out_(out) { out_ << "fen,lasker,dtm,dts,value\n"; }
  void write(const query::Match& m) override {
    out_ << csv_field(to_fen(m.position)) << ',' << blank_or(lasker_of(m.score)) << ','
         << blank_or(dtm_of(m.score)) << ',' << blank_or(dts_of(m.score)) << ','
         << csv_field(value_text(m.value).value_or("")) << '\n';
  }

private:
  std::ostream& out_;
};

// "1-0", "0-1" (mate), "1/2-1/2" (stalemate) or "*" (draw or unknown).
std::string result_of(Score s, Color stm) {
  if (!s.is_valid() || s.value() == Lasker::Draw) return "*";
  if (!is_mate_value(s.value())) return "1/2-1/2";
  const bool white_wins = (s.value() == Lasker::Mates) == (stm == Color::White);
  return white_wins ? "1-0" : "0-1";
}

// Words of movetext joined into lines of at most PgnLineWidth characters.
class MoveText {
public:
  void add(const std::string& word) {
    if (!line_.empty() && line_.size() + 1 + word.size() > PgnLineWidth) flush();
    line_ += (line_.empty() ? "" : " ") + word;
  }
  [[nodiscard]] std::string finish() {
    flush();
    return text_;
  }

private:
  std::string text_;
  std::string line_;

  void flush() {
    if (!line_.empty()) text_ += line_ + '\n';
    line_.clear();
  }
};

class PgnWriter final : public MatchWriter {
public:
  PgnWriter(std::ostream& out, const Tablebase* tb) : out_(out), tablebase_(tb) {}
  void write(const query::Match& m) override {
    const std::string result = result_of(m.score, m.position.side_to_move());
    ++games_;
    out_ << "[Event \"egtb query\"]\n[Site \"" << m.table.str() << "\"]\n[Date \"????.??.??\"]\n[Round \""
         << games_ << "\"]\n[White \"?\"]\n[Black \"?\"]\n[Result \"" << result << "\"]\n[FEN \""
         << to_fen(m.position) << "\"]\n[SetUp \"1\"]\n\n"
         << movetext(m, result) << '\n';
  }

private:
  std::ostream& out_;
  const Tablebase* tablebase_;
  uint64_t games_ = 0;

  [[nodiscard]] std::vector<Move> line_of(const Position& pos) const {
    if (!tablebase_) return {};
    const Expected<std::vector<Move>, ProbeError> line = optimal_line(*tablebase_, pos);
    return line ? *line : std::vector<Move>{};
  }

  [[nodiscard]] std::string movetext(const query::Match& m, const std::string& result) const {
    MoveText text;
    text.add("{CQL}");
    for (const std::string& note : m.notes) text.add("{" + note + "}");
    Position pos = m.position;
    bool first = true;
    for (const Move move : line_of(m.position)) {
      std::string number;  // kept on one line with its move
      if (pos.side_to_move() == Color::White)
        number = std::to_string(pos.fullmove_number()) + ". ";
      else if (first)
        number = std::to_string(pos.fullmove_number()) + "... ";
      text.add(number + to_san(pos, move));
      pos.do_move(move);
      first = false;
    }
    text.add(result);
    return text.finish();
  }
};

}  // namespace

indexing::Convention parse_convention(const std::string& text) {
  for (indexing::Convention c : indexing::AllConventions)
    if (indexing::convention_name(c) == text) return c;
  throw UsageError("--convention must be index462, physical or classes, not '" + text + "'");
}

std::unique_ptr<MatchWriter> make_match_writer(QueryFormat format, std::ostream& out,
                                               const Tablebase* tablebase) {
  switch (format) {
    case QueryFormat::JsonLines: return std::make_unique<JsonWriter>(out);
    case QueryFormat::Csv: return std::make_unique<CsvWriter>(out);
    case QueryFormat::Pgn: return std::make_unique<PgnWriter>(out, tablebase);
    case QueryFormat::Text: break;
  }
  return std::make_unique<TextWriter>(out);
}

}  // namespace egtb::cli
