// The PGN reader: tokens with their locations, the game tree the parser builds, replaying moves
// with the usual tolerances, and located errors after which reading goes on.
#include <ctime>
#include <sstream>
#include <string>
#include <vector>

#include "egtb/core/fen.hpp"
#include "egtb/core/notation.hpp"
#include "pgn/lexer.hpp"
#include "pgn/reader.hpp"
#include "tests/pgn/pgn_support.hpp"
#include "tests/support/catch.hpp"

using namespace egtb;
using namespace egtb::pgn;

namespace {

// "Kind:text@line:column" for each token up to the end.
std::vector<std::string> tokens(const std::string& text) {
  std::istringstream in(text);
  Lexer lexer(in);
  std::vector<std::string> out;
  for (Token t;;) {
    lexer.next(t);
    if (t.kind == TokenKind::End) return out;
    std::string shown = std::string(token_kind_name(t.kind)) + ":" + t.text;
    if (t.kind == TokenKind::Nag) shown += "#" + std::to_string(t.nag);
    out.push_back(shown + "@" + std::to_string(t.location.line) + ":" + std::to_string(t.location.column));
  }
}

Game one_game(const std::string& text) {
  test::ReadResult r = test::read_text(text);
  INFO(text);
  REQUIRE(r.errors.empty());
  REQUIRE(r.games.size() == 1);
  return std::move(r.games[0]);
}

std::string san_of(const Game& g, NodeId n) { return to_san(g.position(g.node(n).parent), g.node(n).move); }

std::vector<std::string> mainline_san(const Game& g) {
  std::vector<std::string> out;
  for (NodeId n : g.mainline()) out.push_back(san_of(g, n));
  return out;
}

std::string error_of(const std::string& text) {
  test::ReadResult r = test::read_text(text);
  INFO(text);
  REQUIRE(r.errors.size() == 1);
  return format_error(r.errors[0], "t.pgn");
}

}  // namespace

TEST_CASE("lexer: tokens, locations and annotations", "[pgn]") {
  CHECK(tokens("[Event \"a \\\"b\\\"\"]\n1. e4 $1 {best\n  move} (1... d5?!) 1-0") ==
        std::vector<std::string>{"'[':@1:1", "a move:Event@1:2", "a tag value:a \"b\"@1:8", "']':@1:17",
                                 "a move number:1.@2:1", "a move:e4@2:4", "a NAG:$1#1@2:7",
                                 "a comment:best move@2:10", "'(':@3:9", "a move number:1...@3:10",
                                 "a move:d5@3:15", "a NAG:?!#6@3:17", "')':@3:19", "a result:1-0@3:21"});
  CHECK(tokens("e4!! Nf3?? O-O += -+ 1/2-1/2 *") ==
        std::vector<std::string>{"a move:e4@1:1", "a NAG:!!#3@1:3", "a move:Nf3@1:6", "a NAG:??#4@1:9",
                                 "a move:O-O@1:12", "a NAG:+=#14@1:16", "a NAG:-+#19@1:19",
                                 "a result:1/2-1/2@1:22", "a result:*@1:30"});
  // A byte-order mark, CR LF, an escape line, a ';' comment, periods alone.
  CHECK(tokens("\xef\xbb\xbf%escape [x]\r\n; rest  of line\r\n1. ... e5") ==
        std::vector<std::string>{"a comment:rest of line@2:1", "a move number:1.@3:1", "a move:e5@3:8"});
}

TEST_CASE("lexer: errors are tokens and lexing goes on", "[pgn]") {
  CHECK(tokens("\"open\n]") ==
        std::vector<std::string>{"an error:the tag value is not closed by '\"' on its line@1:1", "']':@2:1"});
  CHECK(tokens("e4 & $300 !!! {x") ==
        std::vector<std::string>{
            "a move:e4@1:1", "an error:unexpected '&'@1:4", "an error:'$300' is not a NAG ($0 to $255)@1:6",
            "an error:unknown annotation '!!!'@1:11",
            "an error:the comment opened here is not closed by '}' before the end of the "
            "input@1:15"});
  const std::string long_comment = "{" + std::string(MaxTokenBytes + 1, 'x') + "} e4";
  CHECK(tokens(long_comment) ==
        std::vector<std::string>{"an error:comment longer than 1048576 bytes@1:1", "a move:e4@1:1048581"});
}

TEST_CASE("parser: the tree of the example in game.hpp", "[pgn]") {
  const Game g = one_game("1. e4 (1. d4 d5) e5 *");
  REQUIRE(g.size() == 5);
  CHECK(g.node(Game::Root).first_child == 1);
  CHECK(g.node(1).san == "e4");
  CHECK(g.node(1).next_sibling == 2);
  CHECK(g.node(1).first_child == 4);
  CHECK(g.node(2).san == "d4");
  CHECK(g.node(2).first_child == 3);
  CHECK(g.node(3).san == "d5");
  CHECK(g.node(4).san == "e5");
  CHECK(g.node(4).parent == 1);
  CHECK(g.mainline() == std::vector<NodeId>{1, 4});
  CHECK(g.is_mainline(4));
  CHECK_FALSE(g.is_mainline(3));
  CHECK(g.ply(3) == 2);
  CHECK(g.preorder() == std::vector<NodeId>{0, 1, 4, 2, 3});
  CHECK(g.location == Location{1, 1});
  CHECK(g.node(3).location == Location{1, 14});
}

TEST_CASE("parser: comments, NAGs, tags and results where they belong", "[pgn]") {
  const Game g = one_game(
      "{file comment}\n[Event \"e\"]\n[Site \"s\"]\n\n{start} $14 1. e4 $1 {after e4} {second} "
      "( {try} 1. d4 $6 {dubious} ) ( {only a comment} ) () 1... e5 {end} 1-0");
  CHECK(g.tags == std::vector<Tag>{{"Event", "e", {}}, {"Site", "s", {}}});
  CHECK(g.find_tag("Site")->location == Location{3, 7});
  CHECK(g.result == "1-0");
  const Node& root = g.node(Game::Root);
  CHECK(root.comments == std::vector<std::string>{"file comment", "start"});
  CHECK(root.nags == std::vector<uint8_t>{14});
  const Node& e4 = g.node(root.first_child);
  CHECK(e4.nags == std::vector<uint8_t>{1});
  CHECK(e4.comments == std::vector<std::string>{"after e4", "second", "only a comment"});
  const Node& d4 = g.node(e4.next_sibling);
  CHECK(d4.starting_comments == std::vector<std::string>{"try"});
  CHECK(d4.nags == std::vector<uint8_t>{6});
  CHECK(d4.comments == std::vector<std::string>{"dubious"});
  CHECK(d4.next_sibling == NoNode);  // the empty variations are dropped
  CHECK(g.node(e4.first_child).comments == std::vector<std::string>{"end"});
}

TEST_CASE("parser: a game without a result ends where the next one starts", "[pgn]") {
  const test::ReadResult r = test::read_text("[Event \"a\"]\n1. e4 e5\n[Event \"b\"]\n1. d4 *\n1. c4");
  REQUIRE(r.errors.empty());
  REQUIRE(r.games.size() == 3);
  CHECK(r.games[0].result == "*");
  CHECK(mainline_san(r.games[0]) == std::vector<std::string>{"e4", "e5"});
  CHECK(r.games[1].number == 2);
  CHECK(mainline_san(r.games[2]) == std::vector<std::string>{"c4"});
  CHECK(r.games[2].location == Location{5, 1});
}

TEST_CASE("replay: the usual tolerances of SAN", "[pgn]") {
  const Game g = one_game(
      "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. 0-0 Nf6 5. d3 d6 6. Bg5 h6 7. Bxf6 Qxf6 "
      "8. Nc3 Bg4 9. Nd5 Qd8 10. c3 O-O 11. d4 exd4 12. cxd4 Bb6 13. Qb3 Bxf3 14. gxf3 "
      "Nxd4 15. Qd3 c6 16. Nxb6 axb6 17. Bxf7 Rxf7 18. Qxd4 Qg5 19. Kh1 Qh5 20. Rg1 "
      "Qxf3 21. Rg2 Raxa2 *");
  CHECK(mainline_san(g).size() == 42);
  CHECK(san_of(g, g.mainline()[35]) == "Qg5+");
  CHECK(san_of(g, g.mainline()[41]) == "Rxa2");
  // Missing check signs, promotions with and without '=', long algebraic.
  const Game p = one_game(
      "[FEN \"8/P6k/8/8/8/8/6Kp/8 w - - 0 1\"]\n1. a8Q h1=Q 2. Kxh1 Kh6 3. Qa6 Kh5 4. Qg6 "
      "Kh4 5. Kg2 1/2-1/2");
  CHECK(mainline_san(p) ==
        std::vector<std::string>{"a8=Q", "h1=Q+", "Kxh1", "Kh6", "Qa6+", "Kh5", "Qg6+", "Kh4", "Kg2"});
  CHECK(to_fen(p.start()) == "8/P6k/8/8/8/8/6Kp/8 w - - 0 1");
  const Game l = one_game("1. e2-e4 e7-e5 2. Ng1-f3 Nb8c6 3. Bf1xc4 *");
  CHECK(mainline_san(l) == std::vector<std::string>{"e4", "e5", "Nf3", "Nc6", "Bc4"});
}

TEST_CASE("replay: illegal moves and bad tags are located", "[pgn]") {
  CHECK(error_of("[Event \"x\"]\n\n1. e4 e5 2. Qxf7 Nc6 *") ==
        "t.pgn:3:13: game 1: 2. Qxf7: 'Qxf7' is not a legal move here (position "
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2)");
  CHECK(error_of("1. e4 (1. d4 Nf6 2. Nf3 Bb4+) *") ==
        "t.pgn:1:25: game 1: 2... Bb4+: 'Bb4+' is not a legal move here (position "
        "rnbqkb1r/pppppppp/5n2/8/3P4/5N2/PPP1PPPP/RNBQKB1R b KQkq - 2 2)");
  CHECK(error_of("[FEN \"8/8/8/8/8/8/8/K6 w - - 0 1\"]\n*") ==
        "t.pgn:1:6: game 1: [FEN]: FEN field 1 (piece placement): rank 1 has 7 files");
  CHECK(error_of("[SetUp \"1\"]\n1. e4 *") ==
        "t.pgn:1:8: game 1: [SetUp \"1\"] needs a FEN tag with the start position");
  CHECK(error_of("[Variant \"Crazyhouse\"]\n1. e4 *") ==
        "t.pgn:1:10: game 1: the variant 'Crazyhouse' is not supported (only standard chess)");
}

TEST_CASE("replay: null moves and e.p. squares as CQL reads them", "[pgn]") {
  // "--" (and "Z0") is a pass: the other side to move, the board unchanged.
  const Game g = one_game("1. e4 -- 2. d4 Z0 3. Nf3 *");
  REQUIRE(g.mainline().size() == 5);
  CHECK(g.node(g.mainline()[1]).move.is_null());
  CHECK(g.node(g.mainline()[3]).move.is_null());
  CHECK(to_fen(g.position(g.mainline()[1])) == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2");
  CHECK(numbered_san(g, g.mainline()[1]) == "1... --");
  // An e.p. square no double step explains is dropped (game 78 of CQL 6.2's sample.pgn).
  const Game e = one_game("[FEN \"8/6p1/8/8/8/8/8/K6k w - g6 0 1\"]\n1. Kb1 *");
  CHECK(to_fen(e.start()) == "8/6p1/8/8/8/8/8/K6k w - - 0 1");
  // A field that is no square stays an error (it was dropped too, and the game written back with
  // its tag did not read again: found by fuzz_pgn).
  CHECK(error_of("[FEN \"k7/8/1K6/8/8/8/7Q/8 w - '\r- 0 1\"]\n1. Qh8# *").find("is not a square") !=
        std::string::npos);
}

TEST_CASE("parser: syntax errors are located and the next game is read", "[pgn]") {
  const std::string text =
      "[Event \"1\"]\n1. e4 *\n\n"
      "[Event \"2\" x]\n[Site \"?\"]\n1. e4 *\n\n"                  // a bad tag
      "[Event \"3\"]\n1. e4 (1. d4 *\n\n"                           // a result inside a variation
      "[Event \"4\"]\n1. e4 ) e5 *\n\n"                             // ')' without '('
      "[Event \"5\"]\n( 1. e4 ) *\n\n"                              // a variation before any move
      "[Event \"6\"]\n1. e4 e5 (1... c5\n[Event \"7\"]\n1. d4 *\n"  // an unclosed variation
      "[Event \"8\"]\n[Site \"unclosed]\n1. c4 *\n\n"               // a tag value not closed
      "[Event \"9\"]\n1. Nf3 *\n";
  const test::ReadResult r = test::read_text(text);
  std::vector<std::string> messages;
  for (const PgnError& e : r.errors) messages.push_back(format_error(e, "t.pgn"));
  CHECK(messages ==
        std::vector<std::string>{
            "t.pgn:4:12: game 2: expected ']' after the value of 'Event', found the move 'x'",
            "t.pgn:9:14: game 3: the result '*' comes before the variation opened at 9:7 is closed",
            "t.pgn:12:7: game 4: ')' closes no variation",
            "t.pgn:15:1: game 5: a variation must follow the move it replaces",
            "t.pgn:19:1: game 6: the variation opened at 18:10 is not closed",
            "t.pgn:22:7: game 8: the tag value is not closed by '\"' on its line"});
  std::vector<std::string> events;
  for (const Game& g : r.games) events.emplace_back(*g.tag("Event"));
  CHECK(events == std::vector<std::string>{"1", "7", "9"});
}

TEST_CASE("parser: nesting deeper than MaxVariationDepth is an error, not a crash", "[pgn]") {
  std::string text = "1. e4 e5";
  for (int i = 0; i < MaxVariationDepth + 1; ++i) text += " (1... e5";
  const test::ReadResult r = test::read_text(text + "\n\n[Event \"next\"]\n1. d4 *");
  REQUIRE(r.errors.size() == 1);
  CHECK(r.errors[0].message == "variations nested more than 64 deep");
  REQUIRE(r.games.size() == 1);
  CHECK(*r.games[0].tag("Event") == "next");
}

TEST_CASE("parser: sibling variations take linear time", "[pgn]") {
  // 1. e4 (1. d4) (1. d4) ...: every variation is a sibling of e4. Linking each new sibling by
  // walking the others took quadratic time (100,000 of them: 16 s; now a fraction of a second).
  const size_t siblings = MaxGameMoves - 1;
  std::string text = "1. e4";
  for (size_t i = 0; i < siblings; ++i) text += " (1. d4)";
  std::istringstream in(text + " *");
  Parser parser(in);
  const std::clock_t start = std::clock();
  const auto game = parser.next();
  // CPU seconds: some 0.3 in a release build and a few under the sanitizers, 16 when quadratic.
  CHECK(static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC < 8);
  REQUIRE(game);
  REQUIRE(*game);
  const Game& g = **game;
  REQUIRE(g.size() == siblings + 2);
  NodeId last = g.node(Game::Root).first_child;
  size_t count = 0;
  for (; g.node(last).next_sibling != NoNode; last = g.node(last).next_sibling) ++count;
  CHECK(count == siblings);
  CHECK(last == siblings + 1);
  CHECK(g.ply(last) == 1);
  CHECK(g.is_mainline(1));
  CHECK_FALSE(g.is_mainline(last));
}

TEST_CASE("parser: a game past its limits is an error naming it, and the next game is read", "[pgn]") {
  const auto errors_then_next = [](const std::string& game) {
    const test::ReadResult r = test::read_text(game + "\n\n[Event \"next\"]\n1. d4 *\n");
    REQUIRE(r.games.size() == 1);
    CHECK(*r.games[0].tag("Event") == "next");
    std::vector<std::string> messages;
    for (const PgnError& e : r.errors) messages.push_back(format_error(e, "t.pgn"));
    return messages;
  };
  std::string siblings = "\n1. e4";  // 300,000 variations: the cap, not time or memory, stops them
  for (int i = 0; i < 300'000; ++i) siblings += " (1. Nc3)";
  CHECK(errors_then_next(siblings + " *") ==
        std::vector<std::string>{"t.pgn:2:900005: game 1: the game from line 2 has more than 100000 moves"});

  std::string tags;
  for (size_t i = 0; i <= MaxGameTags; ++i) tags += "[T" + std::to_string(i) + " \"v\"]\n";
  CHECK(errors_then_next(tags + "1. e4 *") ==
        std::vector<std::string>{"t.pgn:1002:1: game 1: the game from line 1 has more than 1000 tags"});

  std::string comments = "1. e4";
  const std::string comment = " {" + std::string(MaxTokenBytes - 1, 'x') + "}";
  for (size_t i = 0; i < MaxGameBytes / MaxTokenBytes; ++i) comments += comment;
  CHECK(
      errors_then_next(comments + " e5 *") ==
      std::vector<std::string>{"t.pgn:1:7340053: game 1: the game from line 1 has more than 8388608 bytes"});
}

TEST_CASE("parser: NUL bytes are errors at their place, reported at once", "[pgn]") {
  CHECK(error_of(std::string("1. e4 {good\0bad} e5 *", 21)) ==
        "t.pgn:1:12: game 1: byte 0x00 (NUL) in a comment: this is not text");
  CHECK(error_of(std::string("[Event \"a\0\"]\n1. e4 *", 20)) ==
        "t.pgn:1:10: game 1: byte 0x00 (NUL) in a tag value: this is not text");
  // 20 MiB of NUL bytes (a stretch of a damaged disk, /dev/zero) between two games: an error
  // each MaxGameBytes skipped, the first at once, then the game after them.
  std::string text = "1. e4 *\n" + std::string(20u << 20, '\0') + "\n[Event \"after\"]\n1. d4 *\n";
  std::istringstream in(text);
  Parser parser(in);
  REQUIRE(parser.next().value());
  const auto first = parser.next();
  REQUIRE(first);
  REQUIRE_FALSE(*first);
  CHECK(format_error(first->error(), "t.pgn") == "t.pgn:2:1: game 2: unexpected byte 0x00");
  CHECK(parser.offset() < (1u << 20));  // reported before the rest was skipped
  std::vector<std::string> later;
  std::optional<Expected<Game, PgnError>> game;
  while ((game = parser.next()) && !*game) later.push_back(format_error(game->error(), "t.pgn"));
  CHECK(later == std::vector<std::string>{"t.pgn:2:8388610: game 3: unexpected byte 0x00",
                                          "t.pgn:2:16777219: game 4: unexpected byte 0x00"});
  REQUIRE(game);
  CHECK(*(*game)->tag("Event") == "after");
}
