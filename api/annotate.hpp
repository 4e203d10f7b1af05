// Checking games and studies against the tables (`egtb annotate`), as the article's Appendix A
// checks stalemate studies: every position of the mainline and of the variations that a table
// holds (at most Material::MaxMen men, no castling rights) gets its value, and every move played
// from such a position is marked against the other legal moves.
//
// In the PGN, after a move (for the start position: before the first move), one comment, in
// the marks of the article's Appendix A (Müller & Haworth 2020):
//   the move's mark, when its position is in the tables:
//     NAG $1 ("!")                the only move of several that keeps the value, for either side
//                                 (with the comment "! only move" in the full layout);
//     "° only legal move"         the only legal move, for either side (° has no NAG);
//     NAG $4 ("??") and "?? win → stalemate-win; best Qc8# (DTM 0)"
//                                 a concession, for either side: the move gives value away; the
//                                 categories of egtb/store/rules.hpp before and after, and the
//                                 best move;
//     "\" unique best"            for the winning side (value 4 or 3), one of several moves that
//                                 keep the value and the only fastest one (" has no NAG);
//     "' equi-optimal"            one of several equally fast ones (' has no NAG);
//     "slower"                    one that keeps the value, not the depth;
//   after each of the last three, the winning side's duals (the other moves that keep the value)
//   with their depths, fastest first, after six of them "and 5 more moves":
//     "' equi-optimal; dual: fastest Bb6, Be3 (DTS 0); slower Kc6 (DTS 4) and 6 more moves";
//   then the value of the position after the move (api::value_words), and for a stalemate its
//   class (query::StalemateClass):
//     "Black to move is stalemated; stalemate 3-0-0, 0-0 (vs-b-sb, p-bm), pure, model".
// Every depth is counted one way: that of the position the move leads to, from its side to move,
// the move not counted, as the value comment after that move gives it ("Kc2 (DTS 0)": Kc2
// stalemates at once). Example: 1. Nc5 $1 {! only move; Black to move is stalemated: DTS 26
// plies, 13 moves}. The terse layout (AnnotateLayout::Terse) comments only where something
// happens: a mark other than $1, a dual, a concession, and the value of the last position of
// each line; $1 stands alone.
//
// Duals are counted two ways, for positions where the winning side to move (value 4 or 3) played
// a move that keeps the value: `value_duals`, where more than one move keeps the value (4 or 3),
// and `depth_duals`, where more than one keeps the value at the optimal depth (the fastest DTM or
// DTS). Each position counts once, at the first move played from it that keeps the value, in the
// mainline and in variations alike (GameSpot::mainline tells them apart).
//
// A position whose table is missing gets no comment; the summary counts it and names the table.
// A damaged table throws (FormatError, IoError).
#pragma once

#include <functional>
#include <istream>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "api/game_stream.hpp"
#include "egtb/store/rules.hpp"
#include "egtb/store/score.hpp"
#include "egtb/store/tablebase.hpp"
#include "pgn/game.hpp"
#include "pgn/parser.hpp"
#include "query/mate.hpp"

namespace egtb::api {

// Where in a game a finding is: the move that was played from the position concerned.
struct GameSpot {
  int ply = 0;           // plies from the start position to the position
  std::string move;      // the move played from it, numbered: "45... Kd2" (empty for the last position)
  bool mainline = true;  // false for a move, or a position, of a variation
  std::string fen;       // the position
};

// The first position of the mainline that the tables hold.
struct FirstInTables {
  int ply = 0;        // plies from the start position
  std::string after;  // the move that reached it, numbered ("41... Kb1"); empty for the start
  std::string fen;
  Score score;  // for its side to move
  Color side_to_move = Color::White;
  std::string value;           // the score in words (api::value_words)
  std::string implied_result;  // what optimal play from it ends in: "1-0", "0-1" or "1/2-1/2"
  std::optional<bool> agrees;  // with the game's result; nothing when it is "*"
};

// A move that gives value away.
struct Concession {
  GameSpot spot;
  Lasker before = Lasker::Draw;  // the value of the position for the mover
  Lasker after = Lasker::Draw;   // what the move leaves the mover
  std::string best;              // the best move in SAN
};

// A position where the winning side had more than one move that keeps the value.
struct Dual {
  GameSpot spot;
  std::vector<std::string> keeping;  // every move that keeps the value, in SAN, best first
  std::vector<std::string> optimal;  // those that also keep the optimal depth
};

// A stalemate reached in the game, and its class.
struct StalemateEnd {
  GameSpot spot;  // the stalemate position, with no move
  query::StalemateClass kind;
};

struct GameAnnotation {
  uint64_t game = 0;  // its number in the input
  std::string white, black, event;
  std::string result;      // the Result tag, or the termination marker when there is none
  uint64_t positions = 0;  // positions of the game the tables hold (annotated)
  std::optional<FirstInTables> first;
  std::vector<Concession> concessions;
  std::vector<Dual> duals;
  std::vector<StalemateEnd> stalemates;
  uint64_t value_duals = 0;  // duals.size()
  uint64_t depth_duals = 0;  // duals with more than one optimal move
  uint64_t unprobed = 0;     // positions within the tables' reach whose table is missing
  std::set<std::string> missing_tables;
  std::string summary;  // the findings in words, as the game's first comment gives them
};

// Annotates one replayed game in place (comments and NAGs, and the summary as its first comment)
// and returns what was found.
enum class AnnotateLayout : uint8_t {
  Full,   // a comment on every position in the tables
  Terse,  // comments only on marks, duals, concessions and the ends of lines
};

GameAnnotation annotate(const Tablebase& tb, pgn::Game& game, AnnotateLayout layout = AnnotateLayout::Full);

struct AnnotateOptions {
  int threads = 0;                                          // 0: every core
  std::function<void(const GameStreamProgress&)> progress;  // after each game, in input order
  AnnotateLayout layout = AnnotateLayout::Full;
};

struct AnnotateTotals {
  uint64_t games = 0;  // read, bad ones included
  uint64_t errors = 0;
  uint64_t positions = 0;
  uint64_t concessions = 0;
  uint64_t value_duals = 0;
  uint64_t depth_duals = 0;
  uint64_t unprobed = 0;
  std::set<std::string> missing_tables;
};

// Annotates every game of a PGN stream, in parallel; `on_game` gets each annotated game and its
// findings in input order, `on_error` each game that could not be read (and was skipped).
AnnotateTotals annotate_games(const Tablebase& tb, std::istream& in, const AnnotateOptions& options,
                              const std::function<void(const pgn::Game&, const GameAnnotation&)>& on_game,
                              const std::function<void(const pgn::PgnError&)>& on_error);

}  // namespace egtb::api
