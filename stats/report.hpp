// The statistics as text tables laid out like the article's (Müller & Haworth 2020): Table 1, a
// maxDTS row per endgame and stalemater (stalemater, number of maxDTS positions, maxDTS, an example
// position and its DTS-optimal line; statistics.hpp says how they are taken), the same for maxDTM
// per mater, with ReportOptions::rank the rows of every endgame together, deepest first, as the
// article prints them, and Table 2, the percentages of the five Lasker
// values per endgame and side to move (three decimals, ε for 0 < x < 0.0005), followed by the
// counts themselves and, in Markdown and CSV, the depth histograms.
//
// Markdown and LaTeX write lines in SAN with move numbers ("1. Bd2 Kf2 2. Bc3"), CSV in UCI
// ("e1d2 g1f2 d2c3"). CSV writes each table as a block: a one-field title record, a header record
// and the rows, blocks separated by an empty line. LaTeX writes booktabs tables (\usepackage{booktabs}).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "stats/statistics.hpp"

namespace egtb::stats {

enum class TextFormat : uint8_t { Markdown, Csv, Latex };

struct ReportOptions {
  bool rank = false;  // Table 1 and the maxDTM table: every table's rows together, deepest first
  size_t top = 0;     // with rank: at most this many rows each (0: all)
};

[[nodiscard]] std::string render(std::span<const TableStatistics> tables, TextFormat format,
                                 const ReportOptions& options = {});

// 100 * count / total to three decimals ("89.691"), "0" and "100" when exact, `epsilon` for
// 0 < x < 0.0005; "0" when total is 0.
[[nodiscard]] std::string format_percent(uint64_t count, uint64_t total, std::string_view epsilon = "ε");

// "White" or "Black".
[[nodiscard]] std::string_view color_name(Color c);
// The caption of an example diagram, as the article's Fig. 1:
// "KNk: maxDTS 27, White to move, stalemate in 14".
[[nodiscard]] std::string caption(const TableStatistics& table, const Deepest& deepest);

}  // namespace egtb::stats
