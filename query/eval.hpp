// Evaluation of a compiled query on positions.
//
// A filter matches as CQL defines it: a set filter when its set is not empty, a numeric filter
// when its number is defined, a logical filter when it holds; the query matches when every
// top-level filter does, and its value is the last one's. An Evaluator owns the per-position
// state (variables, cached facts, message output) and reuses it, so evaluating allocates
// nothing for ordinary queries. One Evaluator per thread; a Program may be shared.
//
//   Expected<Program, QueryError> p = compile("btm purestalemate");
//   Evaluator e(*p);
//   if (e.matches(pos)) ...                       // fast path
//   Expected<Value, QueryError> v = e.evaluate(pos);   // v->squares: the participants
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "egtb/core/cancellation.hpp"
#include "egtb/core/position.hpp"
#include "pgn/game.hpp"
#include "query/compile.hpp"
#include "query/game_selection.hpp"
#include "query/table_context.hpp"

namespace egtb::query {

namespace detail {
struct Context;
}

struct Value {
  bool matched = false;
  FilterKind kind = FilterKind::Logical;
  Bitboard squares = 0;  // Set
  int64_t number = 0;    // Numeric, when has_number
  bool has_number = false;
};

// The most runs of loop bodies (square, piece, move, dtsend, dtmend) one position may take:
// nested loops multiply ("square a in . square b in . square c in ." runs 262,144 bodies, a
// fourth level 16,777,216), and a query past this bound fails rather than taking minutes per
// position.
inline constexpr uint64_t MaxLoopSteps = 1'000'000;

// Thrown by an Evaluator when a run of its query cannot go on, error().range the filter that stops
// it: loops past MaxLoopSteps bodies on one position, '~~' on too long a text, a search too deep,
// a failed assert.
class RunError : public std::runtime_error {
public:
  explicit RunError(QueryError error) : std::runtime_error(error.message), error_(std::move(error)) {}
  [[nodiscard]] const QueryError& error() const { return error_; }

private:
  QueryError error_;
};

// A persistent variable (CQL's `persistent x = e`) and its value as CQL writes it at the end of a
// run: a number, a string in quotes, squares as message writes them.
struct PersistentValue {
  std::string name;
  std::string text;
};

// What an evaluation asks of the game CQL writes: settag's tags, in order, and the positions whose
// comments (those after the move that led there) removecomment leaves out.
struct GameEdits {
  std::vector<std::pair<std::string, std::string>> tags;
  std::vector<pgn::NodeId> removed_comments;
};

class Evaluator {
public:
  // `tables` may be null; queries with table filters then fail to evaluate. `cancellation` (may
  // be null) is polled inside loops: Cancelled (egtb/core/cancellation.hpp) ends a long evaluation
  // at once.
  explicit Evaluator(const Program& program, const TableContext* tables = nullptr,
                     const Cancellation* cancellation = nullptr);
  ~Evaluator();
  Evaluator(const Evaluator&) = delete;
  Evaluator& operator=(const Evaluator&) = delete;

  // Whether the query matches; false also when it needs tables and none are attached. Both throw
  // RunError (above) and Cancelled.
  [[nodiscard]] bool matches(const Position& pos);
  // The query's value, or an error when it needs tables and none are attached.
  [[nodiscard]] Expected<Value, QueryError> evaluate(const Position& pos);
  // The same at a node of a game, where the game filters (ply, parent, move ...) read the game;
  // without `variations` the game is its mainline (filters_game.cpp). As in CQL, the variables keep
  // what the game's positions evaluated before gave them, and are unbound when another game starts:
  // "if ply == 1 Y = 7" makes Y 7 at every later position of that game, and unbound in the next.
  [[nodiscard]] Expected<Value, QueryError> evaluate(const pgn::Game& game, pgn::NodeId node,
                                                     bool variations = true);

  // The message and comment texts, and the sort values, of the last evaluation.
  [[nodiscard]] const std::vector<std::string>& notes() const;
  [[nodiscard]] const std::vector<SortValue>& sort_values() const;
  // The persistent variables but the quiet ones, in the order of their first assignment, as they
  // are now: they keep their values from one evaluation to the next.
  [[nodiscard]] std::vector<PersistentValue> persistent_values() const;
  // What the last evaluation asked of the game written (settag, removecomment).
  [[nodiscard]] const GameEdits& edits() const;
  // The value of lastgamenumber in the games evaluated from now on: the number of the input's last
  // game (GameSelection::last_game_number).
  void set_last_game_number(uint64_t number);

private:
  const Program& program_;
  std::unique_ptr<detail::Context> ctx_;

  // The slots of the variables that are not persistent, which each game (or position alone) starts
  // unbound.
  std::vector<size_t> unbound_at_start_;
  // The game whose positions bound the variables (null: none; a position alone unbinds them).
  const pgn::Game* variables_game_ = nullptr;
  uint64_t variables_game_number_ = 0;

  [[nodiscard]] bool ready() const;
  void start(const Position& pos);
  void unbind_variables();
  [[nodiscard]] Expected<Value, QueryError> run();
};

}  // namespace egtb::query
