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
    std::string digits = std::to_string(n);
    if (format == TextFormat::Csv) return digits;
    for (auto i = static_cast<std::ptrdiff_t>(digits.size()) - 3; i > 0; i -= 3)
      digits.insert(static_cast<size_t>(i), ",");
    return digits;
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
  return std::string(metric == Metric::Dts ? "No forced stalemate: " : "No forced mate: ") + names + ".";
}

TextTable deepest_table(const Style& st, std::span<const TableStatistics> tables, Metric metric,
                        const ReportOptions& options) {
  const bool dts = metric == Metric::Dts;
  const std::string name = dts ? "maxDTS" : "maxDTM";
  TextTable out{std::string(dts ? "Table 1. " : "") + name + ": the deepest forced " +
                    (dts ? "stalemates" : "mates") + " per " + (dts ? "stalemater" : "mater") +
                    ", either side to move" + (options.rank ? ", deepest first" : "") + " (" +
                    std::string(convention_text(tables)) + " convention)",
                "llrrlp",
                {"Endgame", dts ? "Stalemater" : "Mater", "# " + name + " positions", name,
                 "Example position", std::string(metric_name(metric)) + "-optimal line"},
                {},
                options.rank ? "" : without_rows(tables, metric)};
  for (const DeepestRow& r : deepest_rows(tables, metric, options)) out.rows.push_back(deepest_row(st, r));
  return out;
}

constexpr std::array<Lasker, 5> ValueOrder = {Lasker::Mates, Lasker::Stalemates, Lasker::Draw,
                                              Lasker::Stalemated, Lasker::Mated};

TextTable values_table(const Style& st, std::span<const TableStatistics> tables, bool percent) {
  TextTable out{std::string(percent ? "Table 2. Lasker values, % of the positions of each side to move"
                                    : "Lasker values, positions of each side to move") +
                    " (4 mates, 3 stalemates the opponent, 2 draw, 1 is stalemated, 0 is mated; " +
                    std::string(convention_text(tables)) + " convention)",
                "llrrrrrr",
                {"Endgame", "stm", "Positions", "4", "3", "2", "1", "0"},
                {}};
  for (const TableStatistics& t : tables)
    for (Color c : {Color::White, Color::Black}) {
      const SideSummary& s = t.side(c);
      std::vector<std::string> row = {t.material.str(), std::string(1, color_char(c)),
                                      st.count(s.positions())};
      for (Lasker v : ValueOrder) {
        const uint64_t n = s.lasker[static_cast<size_t>(to_index(v))];
        row.push_back(percent ? format_percent(n, s.positions(), st.epsilon()) : st.count(n));
      }
      out.rows.push_back(std::move(row));
    }
  return out;
}

std::string_view result_name(Lasker v) {
  switch (v) {
    case Lasker::Mates: return "mates (4)";
    case Lasker::Stalemates: return "stalemates (3)";
    case Lasker::Draw: return "draw (2)";
    case Lasker::Stalemated: return "is stalemated (1)";
    case Lasker::Mated: return "is mated (0)";
  }
  return "";
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
  TextTable out{
      "Depth histograms, plies: positions (" + std::string(convention_text(tables)) + " convention)",
      "llllp",
      {"Endgame", "stm", "Metric", "Result", "Positions by depth"},
      {}};
  for (const TableStatistics& t : tables)
    for (Color c : {Color::White, Color::Black})
      for (Lasker v : ValueOrder) {
        const DepthHistogram& h = t.side(c).depths[static_cast<size_t>(to_index(v))];
        if (h.empty()) continue;
        out.rows.push_back({t.material.str(), std::string(1, color_char(c)), is_mate_value(v) ? "DTM" : "DTS",
                            std::string(result_name(v)), histogram_text(st, h)});
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
  std::vector<TextTable> out = {deepest_table(st, tables, Metric::Dts, options),
                                deepest_table(st, tables, Metric::Dtm, options),
                                values_table(st, tables, true), values_table(st, tables, false)};
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

}  // namespace egtb::stats
