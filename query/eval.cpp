#include "query/eval.hpp"

#include "query/filter.hpp"
#include "query/print.hpp"

namespace egtb::query {

namespace detail {

void Context::step(const SourceRange& where, bool costly) {
  if (++steps > MaxLoopSteps)
    throw RunError({where, "the query's loops run more than " + std::to_string(MaxLoopSteps) +
                               " times on one position (nested loops multiply: narrow their sets)"});
  if ((costly || steps % 64 == 0) && cancellation) cancellation->throw_if_requested();
}

}  // namespace detail

Evaluator::Evaluator(const Program& program, const TableContext* tables, const Cancellation* cancellation)
    : program_(program), ctx_(std::make_unique<detail::Context>()) {
  ctx_->tables = tables;
  ctx_->cancellation = cancellation;
  ctx_->slots.resize(program.info().variables.size());
  for (size_t i = 0; i < ctx_->slots.size(); ++i) {
    ctx_->slots[i].bound = program.info().variables[i].persistent;
    if (!program.info().variables[i].persistent) unbound_at_start_.push_back(i);
  }
  ctx_->dictionaries.resize(program.info().dictionaries.size());
  ctx_->notes.reserve(8);
  ctx_->sort_values.reserve(8);
}

Evaluator::~Evaluator() = default;

bool Evaluator::ready() const { return ctx_->tables || !program_.info().uses_tables; }

void Evaluator::start(const Position& pos) {
  ctx_->set_position(pos);
  ctx_->game = nullptr;
  ctx_->node = pgn::Game::Root;
  ctx_->variations = true;
  ctx_->steps = 0;
  ctx_->line_depth = 0;  // an evaluation that threw may have left it raised
  ctx_->notes.clear();
  ctx_->sort_values.clear();
  ctx_->edits.tags.clear();
  ctx_->edits.removed_comments.clear();
}

// Unbinds every variable but the persistent ones, which keep their values from game to game, and
// empties the local dictionaries.
void Evaluator::unbind_variables() {
  for (const size_t i : unbound_at_start_) ctx_->slots[i].unbind();
  const std::vector<DictionaryInfo>& dictionaries = program_.info().dictionaries;
  for (size_t i = 0; i < ctx_->dictionaries.size(); ++i)
    if (!dictionaries[i].persistent) ctx_->dictionaries[i].clear();
  variables_game_ = nullptr;
}

bool Evaluator::matches(const Position& pos) {
  if (!ready()) return false;
  start(pos);
  unbind_variables();
  return program_.root().matches(*ctx_);
}

Expected<Value, QueryError> Evaluator::evaluate(const Position& pos) {
  start(pos);
  unbind_variables();
  return run();
}

Expected<Value, QueryError> Evaluator::evaluate(const pgn::Game& game, pgn::NodeId node, bool variations) {
  start(game.position(node));
  if (variables_game_ != &game || variables_game_number_ != game.number) {
    unbind_variables();
    variables_game_ = &game;
    variables_game_number_ = game.number;
  }
  ctx_->game = &game;
  ctx_->node = node;
  ctx_->variations = variations;
  return run();
}

Expected<Value, QueryError> Evaluator::run() {
  if (!ready())
    return unexpected(
        QueryError{program_.info().table_use,
                   "this query uses table values (dtm, dts, lasker, ...) but no tables are attached"});
  const detail::Filter& root = program_.root();
  Value v;
  v.kind = root.kind();
  switch (v.kind) {
    case FilterKind::Set:
      v.squares = root.squares(*ctx_);
      v.matched = v.squares != 0;
      break;
    case FilterKind::Numeric:
      v.has_number = root.number(*ctx_, v.number);
      v.matched = v.has_number;
      break;
    default: v.matched = root.matches(*ctx_); break;
  }
  return v;
}

const std::vector<std::string>& Evaluator::notes() const { return ctx_->notes; }
const GameEdits& Evaluator::edits() const { return ctx_->edits; }

void Evaluator::set_last_game_number(uint64_t number) { ctx_->last_game_number = number; }

std::vector<PersistentValue> Evaluator::persistent_values() const {
  std::vector<PersistentValue> out;
  const std::vector<VariableInfo>& variables = program_.info().variables;
  for (size_t i = 0; i < variables.size(); ++i) {
    const VariableInfo& v = variables[i];
    if (!v.persistent || v.quiet) continue;
    const detail::Slot& s = ctx_->slots[i];
    std::string text;
    switch (v.kind) {
      case FilterKind::Numeric: text = std::to_string(s.number); break;
      case FilterKind::String: text = '"' + s.text + '"'; break;
      default: text = designator_text(AnyMen, s.squares); break;
    }
    out.push_back({v.name, s.bound ? text : "<unbound>"});
  }
  return out;
}
const std::vector<SortValue>& Evaluator::sort_values() const { return ctx_->sort_values; }

}  // namespace egtb::query
