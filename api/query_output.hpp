// The output formats of query matches: one record per matching position.
//
//   text  8/8/8/8/8/8/8/2K1B1k1 w - - 0 1  lasker 3  dtm -  dts 17  value [c1,e1,g1]
//         then each message/comment note on its own line, indented by two spaces;
//   json  one object per line: {"fen": ..., "lasker": 3, "dtm": null, "dts": 17, "value": [...]}
//         ("value" only when the query has one: a list of squares or a number; "notes" only when
//         the query printed some);
//   csv   a header line "fen,lasker,dtm,dts,value", then one row per match, empty for undefined;
//   pgn   each match as a game from its position: the seven tag roster, [FEN] and [SetUp "1"],
//         the {CQL} comment and the query's notes as comments, as CQL writes a matching position,
//         then the optimal line (DTM-optimal to mate, DTS-optimal to stalemate) in SAN.
#pragma once

#include <memory>
#include <ostream>

#include "egtb/store/tablebase.hpp"
#include "query/scan.hpp"

namespace egtb::api {

enum class QueryFormat : uint8_t { Text, JsonLines, Csv, Pgn };

class MatchWriter {
public:
  virtual ~MatchWriter() = default;
  virtual void write(const query::Match& match) = 0;
};

// A writer for `format` on `out`, reading values under `rules`; Pgn needs the tablebase for the
// optimal lines (may be null: games then hold no moves).
[[nodiscard]] std::unique_ptr<MatchWriter> make_match_writer(QueryFormat format, std::ostream& out,
                                                             Rules rules, const Tablebase* tablebase);

}  // namespace egtb::api
