#include "stats/report.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "egtb/core/fen.hpp"
#include "egtb/core/notation.hpp"

namespace egtb::stats {

namespace {

// One table of text cells, before it is written in a format.
struct TextTable {
  std::string title;
  std::string align;  // per column: 'l' left, 'r' right, 'p' a paragraph (a wide left column)
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::string note = {};  // a sentence under the table (Markdown and LaTeX), or empty
};

// One row of Table 1 or of the maxDTM table: a table's deepest positions for one winner.
struct DeepestRow {
  const TableStatistics* table;
  const Deepest* deepest;
};

// How cells are written in one format.
struct Style {
  TextFormat format;

  [[nodiscard]] std::string epsilon() const { return format == TextFormat::Latex ? "$\\varepsilon$" : "ε"; }
  [[nodiscard]] std::string none() const {
    return format == TextFormat::Csv ? "" : format == TextFormat::Latex ? "--" : "—";
  }
  [[nodiscard]] std::string text(std::string_view s) const {
    if (format != TextFormat::Latex) return std::string(s);
    std::string out;
    for (char c : s) {
      if (std::string_view("#$%&_{}").find(c) != std::string_view::npos) out += '\\';
      out += c;
    }
    return out;
  }
  [[nodiscard]] std::string code(std::string_view s) const {
    if (format == TextFormat::Markdown) return "`" + std::string(s) + "`";
    if (format == TextFormat::Latex) return "\\texttt{" + text(s) + "}";
    return std::string(s);
  }
  [[nodiscard]] std::string count(uint64_t n) const {
    return format == TextFormat::Csv ? std::to_string(n) : with_commas(n);
  }
  [[nodiscard]] std::string line(const Deepest& d) const {
    if (format != TextFormat::Csv) return text(san_line(d.example, d.line));
    std::string out;
    for (const std::string& m : uci_line(d.line)) out += (out.empty() ? "" : " ") + m;
    return out;
  }
};

std::string_view convention_text(std::span<const TableStatistics> tables) {
  return indexing::convention_name(tables.empty() ? Convention::Index462 : tables.front().convention);
}

// The rules of the tables reported (one Tablebase: one rule set).
Rules rules_of(std::span<const TableStatistics> tables) {
  return tables.empty() ? Rules::Lasker : tables.front().rules;
}

// "Stalemater" from "stalemater".
std::string capitalised(std::string_view word) {
  std::string out(word);
  if (!out.empty()) out[0] = static_cast<char>(out[0] - 'a' + 'A');
  return out;
}

// "index462 convention" or "index462 convention, stalemate-wins rules".
std::string scope_text(std::span<const TableStatistics> tables) {
  std::string text = std::string(convention_text(tables)) + " convention";
  if (rules_of(tables) != Rules::Lasker) text += ", " + std::string(rules_name(rules_of(tables))) + " rules";
  return text;
}

std::vector<std::string> deepest_row(const Style& st, const DeepestRow& r) {
  const Deepest& d = *r.deepest;
  return {r.table->material.str(), std::string(color_name(d.winner)), st.count(d.positions),
          std::to_string(d.plies), st.code(to_fen(d.example)),        st.line(d)};
}

// The rows of one metric: per table, White's then Black's, or all of them deepest first.
std::vector<DeepestRow> deepest_rows(std::span<const TableStatistics> tables, Metric metric,
                                     const ReportOptions& options) {
  std::vector<DeepestRow> rows;
  for (const TableStatistics& t : tables)
    for (Color winner : {Color::White, Color::Black})
      if (const auto& d = t.deepest_of(metric, winner)) rows.push_back({&t, &*d});
  if (!options.rank) return rows;
  std::stable_sort(rows.begin(), rows.end(), [](const DeepestRow& a, const DeepestRow& b) {
    return a.deepest->plies > b.deepest->plies;
  });
  if (options.top > 0 && rows.size() > options.top) rows.resize(options.top);
  return rows;
}

// "No forced stalemate: KQk, KRk." for the tables with no row of this metric.
std::string without_rows(std::span<const TableStatistics> tables, Metric metric) {
  std::string names;
  for (const TableStatistics& t : tables)
    if (!t.deepest_of(metric, Color::White) && !t.deepest_of(metric, Color::Black))
      names += (names.empty() ? "" : ", ") + t.material.str();
  if (names.empty()) return "";
  return "No forced " + std::string(metric_end(metric)) + ": " + names + ".";
}

// "mates", "stalemates", "wins by mate or stalemate".
std::string plural_end(Metric metric) {
  if (metric == Metric::Dte) return "wins by " + std::string(metric_end(metric));
  return std::string(metric_end(metric)) + "s";
}

TextTable deepest_table(const Style& st, std::span<const TableStatistics> tables, Metric metric,
                        const ReportOptions& options, bool first) {
  const std::string name = "max" + std::string(metric_name(metric));
  TextTable out{std::string(first ? "Table 1. " : "") + name + ": the deepest forced " + plural_end(metric) +
                    " per " + std::string(metric_winner(metric)) + ", either side to move" +
                    (options.rank ? ", deepest first" : "") + " (" + scope_text(tables) + ")",
                "llrrlp",
                {"Endgame", capitalised(metric_winner(metric)), "# " + name + " positions", name,
                 "Example position", std::string(metric_name(metric)) + "-optimal line"},
                {},
                options.rank ? "" : without_rows(tables, metric)};
  for (const DeepestRow& r : deepest_rows(tables, metric, options)) out.rows.push_back(deepest_row(st, r));
  return out;
}

// "4 mates, 3 stalemates the opponent, 2 draw, 1 is stalemated, 0 is mated" or "4 wins, 2 draw,
// 0 loses".
std::string value_legend(Rules rules) {
  std::string text;
  for (Lasker v : rule_values(rules)) {
    if (!text.empty()) text += ", ";
    text += std::to_string(to_index(v)) + " " + std::string(value_verb(rules, v));
    if (v == Lasker::Stalemates) text += " the opponent";
  }
  return text;
}

TextTable values_table(const Style& st, std::span<const TableStatistics> tables, bool percent) {
  const Rules rules = rules_of(tables);
  const std::string values = rules == Rules::Lasker ? "Lasker values" : "Values";
  TextTable out{std::string(percent ? "Table 2. " + values + ", % of the positions of each side to move"
                                    : values + ", positions of each side to move") +
                    " (" + value_legend(rules) + "; " + scope_text(tables) + ")",
                "llr",
                {"Endgame", "stm", "Positions"},
                {}};
  for (Lasker v : rule_values(rules)) {
    out.align += 'r';
    out.header.push_back(std::to_string(to_index(v)));
  }
  for (const TableStatistics& t : tables)
    for (Color c : {Color::White, Color::Black}) {
      const SideSummary& s = t.side(c);
      std::vector<std::string> row = {t.material.str(), std::string(1, color_char(c)),
                                      st.count(s.positions())};
      for (Lasker v : rule_values(rules)) {
        const uint64_t n = s.lasker[static_cast<size_t>(to_index(v))];
        row.push_back(percent ? format_percent(n, s.positions(), st.epsilon()) : st.count(n));
      }
      out.rows.push_back(std::move(row));
    }
  return out;
}

// "mates (4)", "is stalemated (1)", "wins (4)".
std::string result_name(Rules rules, Lasker v) {
  return std::string(value_verb(rules, v)) + " (" + std::to_string(to_index(v)) + ")";
}

std::string histogram_text(const Style& st, const DepthHistogram& h) {
  std::string out;
  for (const auto& [plies, n] : h) {
    if (!out.empty()) out += ", ";
    out += std::to_string(plies);
    out += ": ";
    out += st.count(n);
  }
  return out;
}

TextTable histogram_table(const Style& st, std::span<const TableStatistics> tables) {
  TextTable out{"Depth histograms, plies: positions (" + scope_text(tables) + ")",
                "llllp",
                {"Endgame", "stm", "Metric", "Result", "Positions by depth"},
                {}};
  for (const TableStatistics& t : tables)
    for (Color c : {Color::White, Color::Black})
      for (Lasker v : rule_values(t.rules)) {
        const DepthHistogram& h = t.side(c).depths[static_cast<size_t>(to_index(v))];
        if (h.empty() || v == Lasker::Draw) continue;
        out.rows.push_back({t.material.str(), std::string(1, color_char(c)),
                            std::string(metric_name(metric_of(t.rules, v))), result_name(t.rules, v),
                            histogram_text(st, h)});
      }
  return out;
}

void write_markdown(std::ostream& out, const TextTable& t) {
  out << "### " << t.title << "\n\n|";
  for (const std::string& h : t.header) out << ' ' << h << " |";
  out << "\n|";
  for (char a : t.align) out << (a == 'r' ? "---:|" : ":---|");
  out << '\n';
  for (const auto& row : t.rows) {
    out << '|';
    for (const std::string& cell : row) out << ' ' << cell << " |";
    out << '\n';
  }
  out << '\n';
  if (!t.note.empty()) out << t.note << "\n\n";
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

void write_csv_record(std::ostream& out, const std::vector<std::string>& cells) {
  for (size_t i = 0; i < cells.size(); ++i) out << (i ? "," : "") << csv_field(cells[i]);
  out << '\n';
}

void write_csv(std::ostream& out, const TextTable& t, bool first) {
  if (!first) out << '\n';
  write_csv_record(out, {t.title});
  write_csv_record(out, t.header);
  for (const auto& row : t.rows) write_csv_record(out, row);
}

void write_latex_row(std::ostream& out, const std::vector<std::string>& cells) {
  out << "    ";
  for (size_t i = 0; i < cells.size(); ++i) out << (i ? " & " : "") << cells[i];
  out << " \\\\\n";
}

void write_latex(std::ostream& out, const Style& st, const TextTable& t) {
  out << "\\begin{table}[htbp]\n  \\centering\n  \\small\n  \\caption{" << st.text(t.title)
      << "}\n  \\begin{tabular}{";
  for (char a : t.align) out << (a == 'p' ? "p{7cm}" : std::string(1, a));
  out << "}\n    \\toprule\n";
  std::vector<std::string> header;
  for (const std::string& h : t.header) header.push_back(st.text(h));
  write_latex_row(out, header);
  out << "    \\midrule\n";
  for (const auto& row : t.rows) write_latex_row(out, row);
  out << "    \\bottomrule\n  \\end{tabular}\n";
  if (!t.note.empty()) out << "  \\par\\smallskip " << st.text(t.note) << "\n";
  out << "\\end{table}\n\n";
}

std::vector<TextTable> all_tables(const Style& st, std::span<const TableStatistics> tables,
                                  const ReportOptions& options) {
  // Lasker's Table 1 is the article's maxDTS, then maxDTM; other rules have one metric.
  std::vector<Metric> metrics = rule_metrics(rules_of(tables));
  std::reverse(metrics.begin(), metrics.end());
  std::vector<TextTable> out;
  for (Metric m : metrics) out.push_back(deepest_table(st, tables, m, options, out.empty()));
  out.push_back(values_table(st, tables, true));
  out.push_back(values_table(st, tables, false));
  if (st.format != TextFormat::Latex) out.push_back(histogram_table(st, tables));
  return out;
}

// The moves of a winner's depth in plies: "mate in 10" is 19 plies.
int moves_of(int plies) { return (plies + 1) / 2; }

}  // namespace

std::string render(std::span<const TableStatistics> tables, TextFormat format, const ReportOptions& options) {
  const Style st{format};
  std::ostringstream out;
  if (format == TextFormat::Latex) out << "% egtb stats: needs \\usepackage{booktabs}\n\n";
  bool first = true;
  for (const TextTable& t : all_tables(st, tables, options)) {
    if (format == TextFormat::Markdown) write_markdown(out, t);
    if (format == TextFormat::Csv) write_csv(out, t, first);
    if (format == TextFormat::Latex) write_latex(out, st, t);
    first = false;
  }
  return out.str();
}

std::string format_percent(uint64_t count, uint64_t total, std::string_view epsilon) {
  if (count == 0 || total == 0) return "0";
  if (count == total) return "100";
  const double x = 100.0 * static_cast<double>(count) / static_cast<double>(total);
  if (x < 0.0005) return std::string(epsilon);
  std::array<char, 32> buffer{};
  std::snprintf(buffer.data(), buffer.size(), "%.3f", x);
  return buffer.data();
}

std::string_view color_name(Color c) { return c == Color::White ? "White" : "Black"; }

std::string caption(const TableStatistics& table, const Deepest& d) {
  const std::string name(metric_name(d.metric));
  const bool dts = d.metric == Metric::Dts;
  const std::string result = d.side_to_move == d.winner ? (dts ? "stalemate in " : "mate in ")
                                                        : (dts ? "stalemated in " : "mated in ");
  return table.material.str() + ": max" + name + " " + std::to_string(d.plies) + ", " +
         std::string(color_name(d.side_to_move)) + " to move, " + result + std::to_string(moves_of(d.plies));
}

std::string with_commas(uint64_t n) {
  std::string digits = std::to_string(n);
  for (auto i = static_cast<std::ptrdiff_t>(digits.size()) - 3; i > 0; i -= 3)
    digits.insert(static_cast<size_t>(i), ",");
  return digits;
}

}  // namespace egtb::stats
