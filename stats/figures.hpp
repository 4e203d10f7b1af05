// SVG figures: board diagrams of the maxDTS and maxDTM examples and depth histograms.
//
// Every figure is one self-contained SVG file: no external font, image or style sheet. The pieces
// are drawn as vector shapes of their own (svg_pieces.cpp), text uses the generic sans-serif
// family, so a browser, rsvg-convert or Inkscape shows the same figure anywhere.
//
// A diagram is the board from White's side with light and dark squares, file letters and rank
// numbers, a disc beside the board on the side to move's edge (white at the bottom for White,
// black at the top for Black), and the caption of the article's Fig. 1 ("KNk: maxDTS 27, White to
// move, stalemate in 14") above the FEN. Each man is a group that names its square and piece,
// <g data-square="e4" data-piece="Q">, so tests can read the diagram back.
//
// A histogram shows, for one table, side to move and metric, the positions at each depth in
// plies: wins (odd depths: the side to move mates or stalemates) and losses (even depths) in two
// colours, with axes, ticks, the count above each bar and a legend. Each bar carries
// data-plies and data-positions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "egtb/core/position.hpp"
#include "stats/statistics.hpp"

namespace egtb::stats {

struct Figure {
  std::string file_name;  // "KBk-maxdts-w.svg", "KBk-w-dts.svg"
  std::string svg;
};

// A board diagram of pos with a caption.
[[nodiscard]] std::string board_svg(const Position& pos, std::string_view caption);

// The bars of one histogram figure.
struct HistogramSeries {
  std::string label;  // legend text, "White stalemates (3)"
  DepthHistogram depths;
};

// A histogram of wins and losses by depth.
[[nodiscard]] std::string histogram_svg(std::string_view title, const HistogramSeries& wins,
                                        const HistogramSeries& losses);

// The figures of one table: <SIG>-maxdts-<w|b>.svg and <SIG>-maxdtm-<w|b>.svg for each
// stalemater and mater that has a maximum, and
// <SIG>-<w|b>-<dtm|dts>.svg for each side to move and metric with at least one position.
[[nodiscard]] std::vector<Figure> figures(const TableStatistics& table);

// The SVG markup of one man drawn in a 45 x 45 box (svg_pieces.cpp).
[[nodiscard]] std::string piece_svg(Piece p);

// Text with &, <, > and " escaped for XML.
[[nodiscard]] std::string xml_escape(std::string_view text);

}  // namespace egtb::stats
