// Evaluation of hand-picked queries on hand-picked positions, one or more per keyword.
#include "egtb/core/fen.hpp"
#include "query/eval.hpp"
#include "query/print.hpp"
#include "tests/support/catch.hpp"

namespace {

constexpr const char* Start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
constexpr const char* Pins = "4k3/4r3/8/8/8/8/4R3/4K3 w - - 0 1";
constexpr const char* Mate = "k7/1Q6/2K5/8/8/8/8/8 b - - 0 1";
constexpr const char* Stalemate = "k7/8/1Q6/8/8/8/8/7K b - - 0 1";

// The value as text: a square list, a number, "none" (undefined number), "true" or "false".
std::string value(std::string_view query, const char* fen,
                  const egtb::query::TableContext* tables = nullptr) {
  const auto program = egtb::query::compile(query);
  if (!program) return "compile error: " + program.error().message;
  const auto pos = egtb::parse_fen(fen, egtb::FenCheck::Board);  // CQL evaluates any board
  REQUIRE(pos.has_value());
  egtb::query::Evaluator evaluator(*program, tables);
  const auto v = evaluator.evaluate(*pos);
  if (!v) return "eval error: " + v.error().message;
  switch (v->kind) {
    case egtb::query::FilterKind::Set: return egtb::query::designator_text(egtb::query::AnyMen, v->squares);
    case egtb::query::FilterKind::Numeric: return v->has_number ? std::to_string(v->number) : "none";
    default: return v->matched ? "true" : "false";
  }
}

struct Case {
  const char* query;
  const char* fen;
  const char* expected;
};

void check_all(std::initializer_list<Case> cases) {
  for (const Case& c : cases) {
    INFO(c.query << "  @  " << c.fen);
    CHECK(value(c.query, c.fen) == c.expected);
  }
}

// A fake table context for the tests: fixed values, and one line end (the ideal stalemate above).
class StubTables final : public egtb::query::TableContext {
public:
  std::optional<int64_t> term(egtb::query::ScoreTerm t, const egtb::Position&) const override {
    using Kind = egtb::query::ScoreTerm::Kind;
    if (t.kind == Kind::Lasker) return 3;
    if (t.metric == egtb::Metric::Dtm) return std::nullopt;
    return t.kind == Kind::None ? std::nullopt : std::optional<int64_t>(17);
  }
  void line_ends(const egtb::Position&, egtb::Metric, std::vector<egtb::Position>& out) const override {
    out.push_back(*egtb::parse_fen(Stalemate));
  }
};

}  // namespace

TEST_CASE("piece designators and set algebra", "[eval]") {
  check_all({
      {"K", Start, "[e1]"},
      {"[Qq]", Start, "[d1,d8]"},
      {"_ & a-h3", Start, "[a3,b3,c3,d3,e3,f3,g3,h3]"},
      {"Ra1 | Ra8", Start, "[a1]"},
      {"~. ", Start, "[]"},
      {"#A", Start, "16"},
      {"#~_", Start, "32"},
      {"K in A", Start, "true"},
      {"k in A", Start, "false"},
      {"A == A", Start, "true"},
      {"A != a", Start, "true"},
      {"light Q | dark q", Start, "[d1,d8]"},
      {"between(a1 h8)", Start, "[b2,c3,d4,e5,f6,g7]"},
      {"power A", Start, "39"},
      {"distance(a1 h8)", Start, "7"},
      {"distance(A h8)", Start, "none"},
  });
}

TEST_CASE("attacks, arrows, rays and pins", "[eval]") {
  check_all({
      {"P <- N", Start, "[d2,e2]"},
      {"P -> f3", Start, "[e2,g2]"},
      {"A -> f3", Start, "[g1,e2,g2]"},
      {"f3 attackedby A", Start, "[f3]"},
      {"A attacks f3", Start, "[g1,e2,g2]"},
      {". <- k", Start, "[d7,e7,f7,d8,f8]"},
      {"pin", Pins, "[e2,e7]"},
      {"pin from R", Pins, "[e2]"},
      {"pin through R", Pins, "[e2]"},
      {"pin from r to K", Pins, "[e7]"},
      {"R -> r -> k", Pins, "[e2]"},
      {"k <- r <- R", Pins, "[e8]"},
      {"K -> r -> k", Pins, "[]"},
      {"xray (R r k)", Pins, "[e8]"},
      {"ray up (R r k)", Pins, "[e8]"},
      {"ray down (R r k)", Pins, "[]"},
      {"ray vertical (k r R)", Pins, "[e2]"},
  });
}

TEST_CASE("numbers, logic, variables, loops and functions", "[eval]") {
  check_all({
      {"2+3*4", Start, "14"},
      {"7 % 3", Start, "1"},
      {"7 / 0", Start, "none"},
      {"abs -5", Start, "5"},
      {"max(#A #a 3) ", Start, "16"},
      {"min(2 1 3)", Start, "1"},
      {"1 < 2 < 3", Start, "1"},
      {"3 < 2", Start, "none"},
      {"wtm and not check", Start, "true"},
      {"btm or check", Start, "false"},
      {"true", Start, "true"},
      {"false", Start, "false"},
      {"x = A  x & [a1,e4]", Start, "[a1]"},
      {"m = #a  m + 1", Start, "17"},
      {"square x in [a1,a3] x & R", Start, "[a1]"},
      {"square all x in [a1,h1] x & R", Start, "true"},
      {"square all x in a & a5 x & R", Start, "true"},
      {"piece x in A x -> f3", Start, "[g1,e2,g2]"},
      {"piece all x in [RN] x -> _", Start, "false"},
      {"if wtm K else k", Start, "[e1]"},
      {"if btm K else k", Start, "[e8]"},
      {"if btm K", Start, "true"},
      {"x = 1 loop {x < 5 x += 1} x", Start, "5"},
      {"x = 1 loop {x < 5 x += 1}", Start, "true"},
      {"loop false", Start, "false"},
      {"x = 1 while (x < 5) x += 1 x", Start, "5"},
      {"x = 7 while (x < 5) x += 1", Start, "true"},
      {"x = 7 while (x < 5) x += 1 x", Start, "7"},
      {"{wtm #a}", Start, "16"},
      {"function Guards(s) { A -> s } Guards(f3)", Start, "[g1,e2,g2]"},
      {"function Both(x y) { x | y } #Both(K k)", Start, "2"},
      {"sidetomove == white", Start, "1"},
      {"sort #A", Start, "16"},
      {"fen \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\"", Start, "true"},
      {"fen \"8/8/8/8/8/8/8/K6k\"", Start, "false"},
  });
}

TEST_CASE("arithmetic that overflows 64 bits or divides by zero has no value", "[eval]") {
  // 922337203685477 * 10000 + 5807 is INT64_MAX, the largest value; Min is INT64_MIN.
  const std::string Max = "(922337203685477 * 10000 + 5807)";
  const std::string Min = "(-" + Max + " - 1)";
  const auto text = [](const std::string& q) { return value(q, Start); };
  CHECK(text(Max) == "9223372036854775807");
  CHECK(text(Min) == "-9223372036854775808");
  CHECK(text(Max + " + 1") == "none");
  CHECK(text(Min + " - 1") == "none");
  CHECK(text("999999999999999 * 999999999999999") == "none");
  CHECK(text(Min + " * -1") == "none");
  CHECK(text(Min + " / -1") == "none");
  CHECK(text(Min + " % -1") == "0");
  CHECK(text("-" + Min) == "none");
  CHECK(text("abs " + Min) == "none");
  CHECK(text("abs " + Max) == "9223372036854775807");
  CHECK(text("7 % 0") == "none");
  CHECK(text(Min + " / 0") == "none");
  CHECK(text("-7 / 2") == "-3");
  CHECK(text("-7 % 2") == "-1");
  // A comparison or a query with an undefined operand fails, and so does a loop body.
  CHECK(text(Max + " + 1 < 0") == "none");
  CHECK(text("square x in [a1,b1] " + Max + " + #x > 0") == "[]");
  CHECK(text("x = " + Max + " + 1") == "none");
}

TEST_CASE("transforms", "[eval]") {
  check_all({
      {"flipcolor K & e1", Start, "[e1,e8]"},
      {"flipcolor count {wtm Ke1}", Start, "1"},
      {"flipcolor {btm mate}", Mate, "true"},
      {"flipcolor {wtm mate}", Mate, "true"},
      {"reversecolor {btm mate}", Mate, "false"},
      {"flip count [Rr]a1", Start, "4"},
      {"rotate90 count Ra1", Start, "2"},
      // From e1 the king's neighbours are d1 (west), f1 (east) and d2, e2, f2: a direction is
      // part of a variant's constants, so the four turns of `right` count apart.
      {"rotate90 count {[BQ] & right 1 K}", Start, "2"},
      {"rotate90 count {P & right 1 K}", Start, "1"},
      {"rotate45 count {P & right 1 K}", Start, "3"},
      {"rotate45 count {[BQ] & right 1 K}", Start, "2"},
      {"rotate45 count {A & right 1 K}", Start, "5"},
      {"rotate45 {Q & left 1 K}", Start, "[d1]"},
      {"rotate45 count {orthogonal 1 K & B}", Start, "1"},
      {"fliphorizontal count Ka1", Mate, "0"},
      {"flipvertical count Kc6", Mate, "1"},
      {"shifthorizontal count [a-h1]", Start, "15"},
      {"shift count Ke1", Start, "1"},
      {"shiftvertical count {K P & a2}", Start, "1"},
      {"flipcolor light Q", Start, "[d1,d8]"},
      {"notransform flipcolor count Ke1", Start, "2"},
  });
}

TEST_CASE("check, mate, stalemate and the pure/model/ideal filters", "[eval]") {
  check_all({
      {"check", Mate, "true"},
      {"mate", Mate, "true"},
      {"stalemate", Mate, "false"},
      {"A -> k", Mate, "[b7]"},
      {"puremate", Mate, "[c6,b7,a8]"},
      {"idealmate", Mate, "[c6,b7,a8]"},
      {"purestalemate", Mate, "[]"},
      {"stalemate", Stalemate, "true"},
      {"modelstalemate", Stalemate, "[b6,a8]"},
      {"idealstalemate", Stalemate, "[]"},
      {"btm purestalemate", Stalemate, "[b6,a8]"},
      {"puremate not modelmate", Mate, "false"},
  });
}

// Off a game (a table position): no move led to the position, so no e.p. capture and no
// enpassantsquare; pseudolegal moves are those of the board.
TEST_CASE("pseudolegal, enpassantsquare and currenttransform on a position", "[eval]") {
  check_all({
      {"pseudolegal B--", "4r1k1/8/8/8/8/8/4B3/4K3 w - - 0 1", "[d1,f1,d3,f3,c4,g4,b5,h5,a6]"},
      {"legal B--", "4r1k1/8/8/8/8/8/4B3/4K3 w - - 0 1", "[]"},
      {"countmoves pseudolegal --", "4r1k1/8/8/8/8/8/4B3/4K3 w - - 0 1", "13"},
      {"move pseudolegal from K to e2", Pins, "[]"},  // its own rook stands there
      {"pseudolegal K--", Pins, "[d1,f1,d2,f2]"},
      {"enpassantsquare", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "[]"},
      {"move pseudolegal enpassant", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "[]"},
      {"currenttransform == \"<>\"", Start, "true"},
      {"flip {Ka5 currenttransform == \"<reflect_a1h8>\"}", Start, "true"},
      {"flip {Kd8 currenttransform == \"<rotate180>\"}", Start, "true"},
      {"rotate90 {Ka4 currenttransform == \"<counterclockwise90>\"}", Start, "true"},
      {"rotate90 {Kh5 currenttransform == \"<clockwise90>\"}", Start, "true"},
      {"shift {Kf2 currenttransform == \"<left^1 down^1>\"}", Start, "true"},
      {"rotate45 {up 1 K currenttransform == \"<rotate45^2>\"}", Start, "true"},
      {"reversecolor {k currenttransform == \"<invertcolor reflect_h>\"}", Start, "true"},
      // Nested: the outer transform first, as CQL writes it.
      {"flipcolor flip {Ke8 currenttransform == \"<invertcolor reflect_h reflect_h>\"}", Start, "true"},
      {"flipcolor {btm shift {kf8 currenttransform == \"<invertcolor reflect_h left^1>\"}}", Start, "true"},
  });
}

TEST_CASE("legal and reachable positions", "[eval]") {
  check_all({
      {"legalposition", Start, "true"},
      {"reachableposition", Start, "true"},
      {"reachableposition", Mate, "true"},
      {"reachableposition", "k7/2N5/1N6/8/8/8/8/K7 b - - 0 1", "false"},
      {"reachableposition", "k7/8/8/8/8/8/PPP5/KB6 b - - 0 1", "false"},
      {"legalposition", "k7/2N5/1N6/8/8/8/8/K7 b - - 0 1", "true"},
      {"imagine piece K --> h8 : legalposition", Mate, "false"},
      {"imagine sidetomove white : legalposition", Mate, "false"},
      // (not legalposition or move legal) check: only a side to move in check matches, legal or
      // not (Black, checked by three knights); an illegal board without that check does not.
      {"not legalposition or move legal check", "8/8/8/3k4/1N6/2N1N3/8/7K b - - 0 1", "true"},
      {"not legalposition or move legal check", "k7/1Q6/8/8/8/8/8/7K w - - 0 1", "false"},
      {"not legalposition or wtm", "k7/1Q6/8/8/8/8/8/7K w - - 0 1", "true"},
      {"not legalposition or move legal : check", "k7/1Q6/8/8/8/8/8/7K w - - 0 1", "true"},
      {"move legal : check", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "[a1]"},
  });
  const auto program = egtb::query::compile("message (reachableposition) comment (legalposition \" \" fen)");
  REQUIRE(program.has_value());
  egtb::query::Evaluator e(*program);
  REQUIRE(e.matches(*egtb::parse_fen("k7/2N5/1N6/8/8/8/8/K7 b - - 0 1")));
  REQUIRE(e.notes().size() == 2);
  CHECK(e.notes()[0] == "<Unreachable position: Impossible check of Black King>");
  CHECK(e.notes()[1] == "<Legal position> k7/2N5/1N6/8/8/8/8/K7 b - - 0 1");
  REQUIRE(e.matches(*egtb::parse_fen("k7/8/8/8/8/8/PPP5/KB6 b - - 0 1")));
  CHECK(e.notes()[0] == "<Unreachable position: No legal last move for White>");
}

// Check, mate and the moves on boards no game reaches, as CQLi's manual describes them ("Filter
// Semantics in Illegal Positions"): a side with no king or several is never in check, the other
// side's kings do not matter, a king checked by three men still has its king steps.
TEST_CASE("check, mate and moves on boards that fail validation", "[eval]") {
  constexpr const char* ThreeKnights = "8/8/8/3k4/1N6/2N1N3/8/7K b - - 0 1";
  constexpr const char* TripleMate = "k6R/8/1N6/1N6/4B3/8/8/7K b - - 0 1";
  constexpr const char* NoBlackKing = "8/8/8/8/8/8/1q6/q6K w - - 0 1";
  check_all({
      {"move legal count", ThreeKnights, "5"},
      {"move legal", ThreeKnights, "[d5]"},
      {"check", ThreeKnights, "true"},
      {"mate", ThreeKnights, "false"},
      {"mate", TripleMate, "true"},
      {"check", NoBlackKing, "true"},
      {"mate", NoBlackKing, "true"},
      {"move legal count", "8/8/8/8/8/8/8/4K3 w - - 0 1", "5"},
      {"move legal capture k count", "k7/1Q6/8/8/8/8/8/7K w - - 0 1", "1"},
      {"move legal capture k : not k", "k7/1Q6/8/8/8/8/8/7K w - - 0 1", "[a8]"},
      {"check", "4k3/8/8/8/8/8/8/r2K3K w - - 0 1", "false"},
      {"move legal to c1 count", "4k3/8/8/8/8/8/8/r2K3K w - - 0 1", "1"},
      {"move legal from P count", "4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "2"},
      {"move legal from P count", "P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "0"},
      {"stalemate", "P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "false"},
  });
}

TEST_CASE("speculative moves and imagined positions", "[eval]") {
  check_all({
      {"move legal count", Start, "20"},
      {"move legal from N count", Start, "4"},
      {"move legal to e4", Start, "[e4]"},
      {"move legal from P to e4", Start, "[e2]"},
      {"move legal count : check", Start, "0"},
      {"move legal all : btm", Start, "true"},
      {"move legal count all : wtm", Start, "none"},
      {"move legal count : mate", "k7/8/1K6/8/8/8/7Q/8 w - - 0 1", "1"},
      {"move legal from Q : mate", "k7/8/1K6/8/8/8/7Q/8 w - - 0 1", "[h2]"},
      {"move legal promote N count", "8/3P4/8/8/8/8/8/k1K5 w - - 0 1", "1"},
      {"move legal capture q count", "k7/8/8/3q4/4P3/8/8/K7 w - - 0 1", "1"},
      {"imagine sidetomove black : btm", Start, "true"},
      {"imagine piece _ --> [Qq] : #[Qq]", Start, "0"},
      {"imagine swap e1 d1 : Kd1", Start, "[d1]"},
      {"imagine piece Q --> c7 : stalemate", "k7/8/1K6/8/8/8/8/8 b - - 0 1", "true"},
      {"imagine piece N --> c7 : stalemate", "k7/8/1K6/8/8/8/8/8 b - - 0 1", "false"},
      {"flipcolor imagine sidetomove white : wtm", Start, "true"},
      // White, imagined to move, is stalemated; Black, to move, is not.
      {"imagine sidetomove white : move legal count", "K7/P1k5/8/8/8/8/8/8 b - - 0 1", "0"},
      {"imagine sidetomove white : stalemate", "K7/P1k5/8/8/8/8/8/8 b - - 0 1", "true"},
      {"imagine sidetomove white : not move legal", "K7/P1k5/8/8/8/8/8/8 b - - 0 1", "true"},
      {"imagine sidetomove white : move legal count", "k7/2P5/K7/8/8/8/8/8 b - - 0 1", "7"},
  });
}

TEST_CASE("a line over a position with no game is that one position", "[eval][line]") {
  check_all({
      {"line --> check", Mate, "1"},
      {"line --> check --> check", Mate, "none"},
      {"line --> check*", Start, "none"},  // a line of no position does not match
      {"line <-- check", Mate, "1"},
      {"line singlecolor --> mate{1,3}", Mate, "1"},
      {"line lastposition --> check", Mate, "false"},  // no position of a game to name
      {"imagine sidetomove white : line --> not check", Mate, "1"},
  });
}

TEST_CASE("table filters need tables", "[eval]") {
  CHECK(value("dts > 3", Stalemate) ==
        "eval error: this query uses table values (dtm, dts, lasker, ...) but no tables are attached");
  const StubTables tables;
  CHECK(value("dts", Stalemate, &tables) == "17");
  CHECK(value("dtm", Stalemate, &tables) == "none");
  CHECK(value("lasker == 3", Stalemate, &tables) == "3");
  CHECK(value("dts == maxdts dtsend any : modelstalemate", Mate, &tables) == "true");
  CHECK(value("dtsend all : idealstalemate", Mate, &tables) == "false");
  const auto program = egtb::query::compile("dtm");
  REQUIRE(program.has_value());
  egtb::query::Evaluator e(*program);
  CHECK_FALSE(e.matches(*egtb::parse_fen(Mate)));
}
