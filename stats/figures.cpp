#include "stats/figures.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "egtb/core/fen.hpp"
#include "stats/report.hpp"

namespace egtb::stats {

namespace {

constexpr int SquareSize = 45;
constexpr int BoardSize = 8 * SquareSize;
constexpr const char* LightSquare = "#f0d9b5";
constexpr const char* DarkSquare = "#b58863";
constexpr const char* WinColour = "#3b6fb6";
constexpr const char* LossColour = "#c8553d";
constexpr const char* Fonts = "DejaVu Sans, Helvetica, Arial, sans-serif";

// A number without trailing zeros: 12, 12.5.
std::string num(double x) {
  std::array<char, 32> buffer{};
  std::snprintf(buffer.data(), buffer.size(), "%.6g", x);
  return buffer.data();
}

void svg_open(std::ostream& out, int width, int height, std::string_view title) {
  out << R"(<?xml version="1.0" encoding="UTF-8"?>)" << '\n'
      << R"(<svg xmlns="http://www.w3.org/2000/svg" width=")" << width << R"(" height=")" << height
      << R"(" viewBox="0 0 )" << width << ' ' << height << R"(" font-family=")" << Fonts << R"(">)" << '\n'
      << "<title>" << xml_escape(title) << "</title>\n"
      << R"(<rect width="100%" height="100%" fill="#ffffff"/>)" << '\n';
}

void text(std::ostream& out, double x, double y, std::string_view s, std::string_view attributes) {
  out << "<text x=\"" << num(x) << "\" y=\"" << num(y) << "\" " << attributes << '>' << xml_escape(s)
      << "</text>\n";
}

// Board geometry: the top left corner of the board in the figure.
struct BoardFrame {
  int left = 26;
  int top = 14;
  [[nodiscard]] int x(int file) const { return left + file * SquareSize; }
  [[nodiscard]] int y(int rank) const { return top + (7 - rank) * SquareSize; }
};

void draw_squares(std::ostream& out, const BoardFrame& f) {
  for (int rank = 0; rank < 8; ++rank)
    for (int file = 0; file < 8; ++file)
      out << "<rect x=\"" << f.x(file) << "\" y=\"" << f.y(rank) << "\" width=\"" << SquareSize
          << "\" height=\"" << SquareSize << "\" fill=\""
          << ((file + rank) % 2 == 0 ? DarkSquare : LightSquare) << "\"/>\n";
  out << "<rect x=\"" << f.left << "\" y=\"" << f.top << "\" width=\"" << BoardSize << "\" height=\""
      << BoardSize << R"(" fill="none" stroke="#000000" stroke-width="1.5"/>)" << '\n';
}

void draw_coordinates(std::ostream& out, const BoardFrame& f) {
  const std::string style = R"(font-size="13" text-anchor="middle" fill="#000000")";
  for (int i = 0; i < 8; ++i) {
    text(out, f.x(i) + SquareSize / 2.0, f.top + BoardSize + 17, std::string(1, static_cast<char>('a' + i)),
         style);
    text(out, f.left - 12, f.y(i) + SquareSize / 2.0 + 5, std::string(1, static_cast<char>('1' + i)), style);
  }
}

void draw_men(std::ostream& out, const BoardFrame& f, const Position& pos) {
  for (Bitboard men = pos.pieces(); men;) {
    const Square s = pop_lsb(men);
    const Piece p = pos.piece_on(s);
    out << "<g data-square=\"" << square_name(s) << "\" data-piece=\"" << piece_char(p)
        << "\" transform=\"translate(" << f.x(file_of(s)) << ' ' << f.y(rank_of(s)) << ")\">" << piece_svg(p)
        << "</g>\n";
  }
}

// A disc beside the board on the edge of the side to move.
void draw_side_to_move(std::ostream& out, const BoardFrame& f, Color stm) {
  const bool white = stm == Color::White;
  const int cy = white ? f.top + BoardSize - SquareSize / 2 : f.top + SquareSize / 2;
  out << "<circle data-side-to-move=\"" << color_char(stm) << "\" cx=\"" << f.left + BoardSize + 18
      << "\" cy=\"" << cy << "\" r=\"9\" fill=\"" << (white ? "#ffffff" : "#000000")
      << R"(" stroke="#000000" stroke-width="1.5"/>)" << '\n';
}

// The tick step for an axis up to `max`: 1, 2 or 5 times a power of ten, at most five ticks.
uint64_t tick_step(uint64_t max) {
  for (uint64_t power = 1;; power *= 10)
    for (uint64_t m : {uint64_t{1}, uint64_t{2}, uint64_t{5}})
      if (m * power * 5 >= max) return m * power;
}

// Histogram geometry.
struct Plot {
  int left = 70;
  int top = 64;
  int height = 240;
  double slot = 20;  // width of one ply
  int slots = 1;
  uint64_t step = 1;       // between two ticks of the count axis
  uint64_t top_value = 1;  // the count at the top of the axis, a multiple of step

  [[nodiscard]] int width() const { return static_cast<int>(std::ceil(slot * slots)); }
  [[nodiscard]] double x(int plies) const { return left + slot * plies; }
  [[nodiscard]] double y(uint64_t value) const {
    return top + height -
           static_cast<double>(height) * static_cast<double>(value) / static_cast<double>(top_value);
  }
};

Plot make_plot(const HistogramSeries& wins, const HistogramSeries& losses) {
  int max_plies = 0;
  uint64_t max_count = 1;
  for (const HistogramSeries* s : {&wins, &losses})
    for (const auto& [plies, n] : s->depths) {
      max_plies = std::max(max_plies, plies);
      max_count = std::max(max_count, n);
    }
  Plot p;
  p.slots = max_plies + 1;
  p.slot = std::clamp(600.0 / p.slots, 7.0, 40.0);
  const uint64_t headroom = max_count + max_count / 8 + 1;  // room for the count above the highest bar
  p.step = tick_step(headroom);
  p.top_value = (headroom + p.step - 1) / p.step * p.step;
  return p;
}

void draw_axes(std::ostream& out, const Plot& p) {
  for (uint64_t v = 0; v <= p.top_value; v += p.step) {
    out << "<line x1=\"" << p.left << "\" x2=\"" << p.left + p.width() << "\" y1=\"" << num(p.y(v))
        << "\" y2=\"" << num(p.y(v)) << R"(" stroke="#dddddd" stroke-width="1"/>)" << '\n';
    text(out, p.left - 6, p.y(v) + 4, std::to_string(v), R"(font-size="11" text-anchor="end")");
  }
  const int label_every = p.slot >= 16 ? 1 : p.slot >= 8 ? 2 : 5;
  for (int plies = 0; plies < p.slots; plies += label_every)
    text(out, p.x(plies) + p.slot / 2, p.top + p.height + 15, std::to_string(plies),
         R"(font-size="11" text-anchor="middle")");
  out << "<path d=\"M" << p.left << ' ' << p.top << "V" << p.top + p.height << "H" << p.left + p.width()
      << R"(" fill="none" stroke="#000000" stroke-width="1.2"/>)" << '\n';
  text(out, p.left + p.width() / 2.0, p.top + p.height + 36, "depth (plies)",
       R"(font-size="13" text-anchor="middle")");
  out << "<text transform=\"translate(18 " << p.top + p.height / 2 << ") rotate(-90)\" font-size=\"13\" "
      << R"(text-anchor="middle">positions</text>)" << '\n';
}

void draw_bars(std::ostream& out, const Plot& p, const HistogramSeries& s, const char* colour) {
  const bool vertical_labels = p.slot < 24;
  for (const auto& [plies, n] : s.depths) {
    const double x = p.x(plies) + p.slot * 0.1;
    out << "<rect data-plies=\"" << plies << "\" data-positions=\"" << n << "\" x=\"" << num(x) << "\" y=\""
        << num(p.y(n)) << "\" width=\"" << num(p.slot * 0.8) << "\" height=\"" << num(p.y(0) - p.y(n))
        << "\" fill=\"" << colour << "\"/>\n";
    const double cx = p.x(plies) + p.slot / 2;
    if (vertical_labels)
      out << "<text transform=\"translate(" << num(cx + 3.5) << ' ' << num(p.y(n) - 3) << ") rotate(-90)\" "
          << R"(font-size="9">)" << n << "</text>\n";
    else
      text(out, cx, p.y(n) - 3, std::to_string(n), R"(font-size="10" text-anchor="middle")");
  }
}

void draw_legend(std::ostream& out, const Plot& p, const HistogramSeries& wins,
                 const HistogramSeries& losses) {
  double x = p.left;
  for (const auto& [series, colour] : {std::pair{&wins, WinColour}, std::pair{&losses, LossColour}}) {
    if (series->depths.empty()) continue;
    out << "<rect x=\"" << num(x) << "\" y=\"34\" width=\"12\" height=\"12\" fill=\"" << colour << "\"/>\n";
    text(out, x + 17, 44.5, series->label, R"(font-size="12")");
    x += 30 + 7.0 * static_cast<double>(series->label.size());
  }
}

std::string histogram_file(const TableStatistics& t, Color c, Metric m) {
  return t.material.str() + "-" + color_char(c) + (m == Metric::Dtm ? "-dtm.svg" : "-dts.svg");
}

// The histogram figure of one side and metric, or nothing when it has no position.
std::optional<Figure> histogram_figure(const TableStatistics& t, Color c, Metric m) {
  const SideSummary& s = t.side(c);
  const bool dtm = m == Metric::Dtm;
  const Lasker win = dtm ? Lasker::Mates : Lasker::Stalemates;
  const Lasker loss = dtm ? Lasker::Mated : Lasker::Stalemated;
  const std::string side(color_name(c));
  const HistogramSeries wins{side + (dtm ? " mates (4)" : " stalemates (3)"),
                             s.depths[static_cast<size_t>(to_index(win))]};
  const HistogramSeries losses{side + (dtm ? " is mated (0)" : " is stalemated (1)"),
                               s.depths[static_cast<size_t>(to_index(loss))]};
  if (wins.depths.empty() && losses.depths.empty()) return std::nullopt;
  const std::string title = t.material.str() + ", " + side + " to move: " + std::string(metric_name(m)) +
                            " (" + std::string(indexing::convention_name(t.convention)) + " convention)";
  return Figure{histogram_file(t, c, m), histogram_svg(title, wins, losses)};
}

}  // namespace

std::string board_svg(const Position& pos, std::string_view caption) {
  const BoardFrame f;
  const int width = f.left + BoardSize + 40;
  const int height = f.top + BoardSize + 66;
  std::ostringstream out;
  svg_open(out, width, height, caption);
  out << "<desc>" << xml_escape(to_fen(pos)) << "</desc>\n";
  draw_squares(out, f);
  draw_coordinates(out, f);
  draw_men(out, f, pos);
  draw_side_to_move(out, f, pos.side_to_move());
  text(out, width / 2.0, f.top + BoardSize + 40, caption, R"(font-size="15" text-anchor="middle")");
  text(out, width / 2.0, f.top + BoardSize + 58, to_fen(pos),
       R"(font-size="11" text-anchor="middle" fill="#444444")");
  out << "</svg>\n";
  return out.str();
}

std::string histogram_svg(std::string_view title, const HistogramSeries& wins,
                          const HistogramSeries& losses) {
  const Plot p = make_plot(wins, losses);
  const int width = std::max(p.left + p.width() + 20, 420);
  const int height = p.top + p.height + 50;
  std::ostringstream out;
  svg_open(out, width, height, title);
  text(out, p.left, 22, title, R"(font-size="15" font-weight="bold")");
  draw_legend(out, p, wins, losses);
  draw_axes(out, p);
  draw_bars(out, p, wins, WinColour);
  draw_bars(out, p, losses, LossColour);
  out << "</svg>\n";
  return out.str();
}

std::vector<Figure> figures(const TableStatistics& table) {
  std::vector<Figure> out;
  for (Metric m : {Metric::Dts, Metric::Dtm})
    for (Color winner : {Color::White, Color::Black})
      if (const auto& d = table.deepest_of(m, winner))
        out.push_back(
            {table.material.str() + "-max" + std::string(metric_key(m)) + "-" + color_char(winner) + ".svg",
             board_svg(d->example, caption(table, *d))});
  for (Color c : {Color::White, Color::Black})
    for (Metric m : {Metric::Dtm, Metric::Dts})
      if (auto figure = histogram_figure(table, c, m)) out.push_back(std::move(*figure));
  return out;
}

}  // namespace egtb::stats
