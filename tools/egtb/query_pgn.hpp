// egtb query --pgn-in FILE 'QUERY': the query over the positions of PGN games (query_pgn.cpp),
// called by cmd_query.cpp once the query is compiled.
#pragma once

#include "query/scan.hpp"
#include "tools/egtb/options.hpp"

namespace egtb::cli {

// Lists the matching games as PGN (--json: the matching positions as JSON lines) or counts them
// (--count); returns the exit status.
int run_query_pgn(const CommandLine& cl, const query::ScanQuery& query);

}  // namespace egtb::cli
