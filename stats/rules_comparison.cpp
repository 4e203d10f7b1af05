#include "stats/rules_comparison.hpp"

#include <sstream>
#include <stdexcept>

#include "egtb/core/fen.hpp"
#include "egtb/core/notation.hpp"
#include "egtb/store/line.hpp"
#include "egtb/store/reader.hpp"
#include "stats/report.hpp"

namespace egtb::stats {

namespace {

// Array slots of colours and values.
size_t slot(Color c) { return static_cast<size_t>(to_index(c)); }
size_t slot(Lasker v) { return static_cast<size_t>(to_index(v)); }

// The entries of both sides of one table, read whole with the king pair leading (whatever order
// its file has, so that the tables of three rule sets line up entry by entry), and its reader.
struct Entries {
  TableReader reader;
  std::array<std::vector<uint16_t>, 2> sides;  // by slot(Color)

  Entries(const std::filesystem::path& dir, const Material& m, Rules rules)
      : reader(table_path(dir, m, rules), TableRequirements{m, rules, all_metrics(rules), true}) {
    for (Color c : {Color::White, Color::Black}) sides[slot(c)] = reader.read_side_kings_first(c);
  }
  [[nodiscard]] Score at(Color c, uint64_t i) const { return Score::from_raw(sides[slot(c)][i]); }
};

// Win 4, draw 2, loss 0: the result of a Lasker value under the three-valued rules.
Lasker three_valued(Lasker v) {
  return is_win(v) ? Lasker::Mates : is_loss(v) ? Lasker::Mated : Lasker::Draw;
}

// The winner of a decided score with `stm` to move.
Color winner_of(Color stm, Score s) { return is_win(s.value()) ? stm : ~stm; }

void deepen(std::optional<DeepestWin>& deepest, Metric metric, int plies) {
  if (!deepest || plies > deepest->plies) deepest = DeepestWin{metric, plies, 0};
  if (deepest->plies == plies) ++deepest->positions;
}

// Where the example of a kind was found: side and index, and how good it is (larger is better).
struct Candidate {
  Color stm = Color::White;
  uint64_t index = 0;
  int merit = -1;

  void offer(Color c, uint64_t i, int m) {
    if (m > merit) *this = {c, i, m};
  }
};

}  // namespace

RulesComparison compare_rules(const std::filesystem::path& directory, const Material& material) {
  const Entries lasker(directory, material, Rules::Lasker);
  const Entries wins(directory, material, Rules::StalemateWins);
  const Entries passes(directory, material, Rules::StalematePasses);
  const TableReader& reader = lasker.reader;
  const indexing::IndexScheme kings_first(reader.material());

  RulesComparison out;
  out.material = reader.material();
  Candidate shortened, changed;
  for (Color c : {Color::White, Color::Black}) {
    for (uint64_t i = 0; i < lasker.sides[slot(c)].size(); ++i) {
      const Score l = lasker.at(c, i);
      if (!l.is_valid()) continue;
      const Score w = wins.at(c, i);
      const Score p = passes.at(c, i);
      ++out.positions;
      ++out.wins_matrix[slot(l.value())][slot(w.value())];
      ++out.passes_matrix[slot(l.value())][slot(p.value())];
      if (l.value() != Lasker::Draw)
        deepen(out.lasker_deepest[is_mate_value(l.value()) ? 0 : 1][slot(winner_of(c, l))],
               is_mate_value(l.value()) ? Metric::Dtm : Metric::Dts, l.depth());
      if (w.value() != Lasker::Draw) deepen(out.wins_deepest[slot(winner_of(c, w))], Metric::Dte, w.depth());
      if (p.value() != Lasker::Draw)
        deepen(out.passes_deepest[slot(winner_of(c, p))], Metric::Dtm, p.depth());
      if (l.value() == Lasker::Mates && w.depth() < l.depth()) {
        ++out.mates_shortened;
        shortened.offer(c, i, l.depth() - w.depth());
      }
      if (three_valued(l.value()) != p.value()) {
        ++out.passes_changed;
        // A result that turns over (win and loss swap) before one that becomes a draw, deepest first.
        constexpr int Decided = 1 << 16;
        changed.offer(c, i, p.value() == Lasker::Draw ? l.depth() : Decided + p.depth());
      }
    }
  }

  const Tablebase lasker_tb(directory, {TablebaseOptions::DefaultCacheBytes, Rules::Lasker});
  const auto example = [&](const Candidate& at, Rules other_rules, const Entries& other) {
    RulesExample e;
    if (!kings_first.decode(at.index, at.stm, e.position))
      throw std::logic_error("a valid entry does not decode");
    e.lasker = lasker.at(at.stm, at.index);
    e.other = other.at(at.stm, at.index);
    const Tablebase other_tb(directory, {TablebaseOptions::DefaultCacheBytes, other_rules});
    e.lasker_line = example_line(lasker_tb, e.position);
    e.other_line = example_line(other_tb, e.position);
    return e;
  };
  if (shortened.merit >= 0) out.shortened_example = example(shortened, Rules::StalemateWins, wins);
  if (changed.merit >= 0) out.passes_example = example(changed, Rules::StalematePasses, passes);
  return out;
}

namespace {

std::string count(uint64_t n) { return with_commas(n); }

std::string deepest_cell(const std::optional<DeepestWin>& d) {
  return d ? std::to_string(d->plies) + " (" + count(d->positions) + ")" : "–";
}

// "Lasker 3 (DTS 5)", "stalemate-passes: loss (DTM 26)".
std::string score_text(Rules rules, Score s) {
  std::string text = rules == Rules::Lasker
                         ? "Lasker " + std::to_string(to_index(s.value()))
                         : std::string(rules_name(rules)) + " " + std::string(category(rules, s.value()));
  if (s.value() != Lasker::Draw)
    text +=
        " (" + std::string(metric_name(metric_of(rules, s.value()))) + " " + std::to_string(s.depth()) + ")";
  return text;
}

// The optimal line of a score, after a colon; nothing for a draw.
std::string line_text(const Position& pos, Score s, const std::vector<Move>& line) {
  if (s.value() == Lasker::Draw) return "";
  return ": " + (line.empty() ? std::string("(the game is over)") : san_line(pos, line));
}

void example_text(std::ostream& out, const std::string& what, Rules other, const RulesExample& e) {
  out << "* " << what << ": `" << to_fen(e.position) << "`\n"
      << "  * " << score_text(Rules::Lasker, e.lasker) << line_text(e.position, e.lasker, e.lasker_line)
      << '\n'
      << "  * " << score_text(other, e.other) << line_text(e.position, e.other, e.other_line) << '\n';
}

}  // namespace

std::string rules_report(const std::vector<RulesComparison>& tables) {
  std::ostringstream out;
  out << "### Values under the three rule sets (positions of both sides to move)\n\n"
      << "Under stalemate-wins every Lasker 3 becomes a win and every Lasker 1 a loss; under\n"
      << "stalemate-passes they go where the columns say. \"Other changes\" counts Lasker 4, 2 and 0\n"
      << "positions whose result passing changes; \"mates shortened\" counts Lasker mates (4) that\n"
      << "stalemate-wins ends sooner by a stalemate.\n\n"
      << "| Endgame | Positions | Lasker 3 | Lasker 1 | 3 → win | 3 → draw | 3 → loss | 1 → win | 1 → draw | "
         "1 → loss "
         "| Other changes | Mates shortened |\n"
      << "|:---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const RulesComparison& t : tables) {
    const auto& p = t.passes_matrix;
    const auto row_total = [](const std::array<uint64_t, 5>& row) {
      return row[0] + row[1] + row[2] + row[3] + row[4];
    };
    uint64_t other = 0;
    for (size_t l : {size_t{0}, size_t{2}, size_t{4}})
      for (size_t v : {size_t{0}, size_t{2}, size_t{4}})
        if (l != v) other += p[l][v];
    out << "| " << t.material.str() << " | " << count(t.positions) << " | " << count(row_total(p[3])) << " | "
        << count(row_total(p[1])) << " | " << count(p[3][4]) << " | " << count(p[3][2]) << " | "
        << count(p[3][0]) << " | " << count(p[1][4]) << " | " << count(p[1][2]) << " | " << count(p[1][0])
        << " | " << count(other) << " | " << count(t.mates_shortened) << " |\n";
  }
  out << "\n### Deepest wins per winner, either side to move (plies, and positions at that depth)\n\n"
      << "| Endgame | Winner | Lasker maxDTM | Lasker maxDTS | stalemate-wins maxDTE | stalemate-passes "
         "maxDTM |\n"
      << "|:---|:---|---:|---:|---:|---:|\n";
  for (const RulesComparison& t : tables)
    for (Color winner : {Color::White, Color::Black}) {
      const size_t w = slot(winner);
      if (!t.lasker_deepest[0][w] && !t.lasker_deepest[1][w] && !t.wins_deepest[w] && !t.passes_deepest[w])
        continue;
      out << "| " << t.material.str() << " | " << (winner == Color::White ? "White" : "Black") << " | "
          << deepest_cell(t.lasker_deepest[0][w]) << " | " << deepest_cell(t.lasker_deepest[1][w]) << " | "
          << deepest_cell(t.wins_deepest[w]) << " | " << deepest_cell(t.passes_deepest[w]) << " |\n";
    }
  out << "\n### Examples with their optimal lines\n\n"
      << "Per endgame: the Lasker mate that a stalemate shortens most under stalemate-wins, and the\n"
      << "position whose result passing changes under stalemate-passes: the deepest one whose win and loss\n"
      << "swap if there is one, otherwise the deepest Lasker win or loss that becomes a draw (\"--\" is a "
         "pass).\n\n";
  for (const RulesComparison& t : tables) {
    if (!t.shortened_example && !t.passes_example) continue;
    out << "**" << t.material.str() << "**\n\n";
    if (t.shortened_example)
      example_text(out, "a mate replaced by a shorter stalemate", Rules::StalemateWins, *t.shortened_example);
    if (t.passes_example)
      example_text(out, "passing changes the result", Rules::StalematePasses, *t.passes_example);
    out << '\n';
  }
  return out.str();
}

}  // namespace egtb::stats
