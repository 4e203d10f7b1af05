#include "query/scan_plan.hpp"

#include <algorithm>
#include <array>
#include <string_view>

#include "egtb/core/symmetry.hpp"

namespace egtb::query {

namespace {

constexpr std::pair<std::string_view, ScoreTerm> TableWords[] = {{"dtm", ScoreTerm::Dtm},
                                                                 {"dts", ScoreTerm::Dts},
                                                                 {"lasker", ScoreTerm::Lasker},
                                                                 {"maxdtm", ScoreTerm::MaxDtm},
                                                                 {"maxdts", ScoreTerm::MaxDts}};

constexpr std::pair<std::string_view, CompareOp> CompareOps[] = {
    {"==", CompareOp::Eq}, {"!=", CompareOp::Ne}, {"<", CompareOp::Lt},
    {"<=", CompareOp::Le}, {">", CompareOp::Gt},  {">=", CompareOp::Ge}};

constexpr std::string_view MateWords[] = {"mate", "puremate", "modelmate", "idealmate"};
constexpr std::string_view StalemateWords[] = {"stalemate", "purestalemate", "modelstalemate",
                                               "idealstalemate"};

template <class Range>
bool contains(const Range& words, std::string_view w) {
  return std::find(std::begin(words), std::end(words), w) != std::end(words);
}

std::optional<int64_t> depth_if(bool defined, Score s) {
  if (!defined) return std::nullopt;
  return s.depth();
}

std::optional<int64_t> max_if(int depth) {
  if (depth == SideStats::NoDepth) return std::nullopt;
  return depth;
}

// A comparison operand: a table word, a number or a negated number.
std::optional<ScoreOperand> operand(const Node& n) {
  if (n.kind == NodeKind::Number) return ScoreOperand{ScoreTerm::Constant, n.number};
  if (n.kind == NodeKind::Negate && n.child(0).kind == NodeKind::Number)
    return ScoreOperand{ScoreTerm::Constant, -n.child(0).number};
  if (n.kind != NodeKind::Keyword) return std::nullopt;
  for (const auto& [name, term] : TableWords)
    if (n.name == name) return ScoreOperand{term, 0};
  return std::nullopt;
}

std::optional<int64_t> operand_value(const ScoreOperand& o, Score s, const TableFacts& facts) {
  if (o.term == ScoreTerm::Constant) return o.constant;
  return score_term(o.term, s, facts);
}

bool compare(CompareOp op, int64_t a, int64_t b) {
  switch (op) {
    case CompareOp::Eq: return a == b;
    case CompareOp::Ne: return a != b;
    case CompareOp::Lt: return a < b;
    case CompareOp::Le: return a <= b;
    case CompareOp::Gt: return a > b;
    case CompareOp::Ge: return a >= b;
  }
  return false;
}

// ---- symmetry invariance

constexpr std::string_view SymmetricDirections[] = {"diagonal", "orthogonal", "attack"};
constexpr std::string_view MirrorSymmetricDirections[] = {"up", "down", "vertical", "horizontal"};
constexpr std::string_view ShiftTransforms[] = {"shift", "shifthorizontal", "shiftvertical"};

class InvarianceCheck {
public:
  explicit InvarianceCheck(bool pawns) : pawns_(pawns) {}

  // A function definition is checked where it is called, through the call's expansion (the
  // calls inside a definition have none).
  [[nodiscard]] bool invariant(const Node& n) const {
    if (n.kind == NodeKind::Function) return true;
    if (!node_invariant(n)) return false;
    if (n.kind == NodeKind::Call) return invariant(*n.expansion);
    return std::all_of(n.children.begin(), n.children.end(), [&](const NodePtr& c) { return invariant(*c); });
  }

private:
  bool pawns_;

  [[nodiscard]] bool node_invariant(const Node& n) const {
    switch (n.kind) {
      case NodeKind::Designator: return squares_invariant(n.squares);
      case NodeKind::Light:
      case NodeKind::Dark:
      case NodeKind::Imagine: return false;
      case NodeKind::Fen: return n.name.empty();
      case NodeKind::Ray:
        return std::all_of(n.params.begin(), n.params.end(),
                           [&](const std::string& d) { return direction_invariant(d); });
      case NodeKind::Transform: return !contains(ShiftTransforms, n.name);
      case NodeKind::Keyword: return n.name != "reachableposition";
      default: return true;
    }
  }

  [[nodiscard]] bool squares_invariant(Bitboard squares) const {
    if (pawns_) return apply(Symmetry::FlipFiles, squares) == squares;
    return std::all_of(AllSymmetries.begin(), AllSymmetries.end(),
                       [&](Symmetry s) { return apply(s, squares) == squares; });
  }

  [[nodiscard]] bool direction_invariant(std::string_view d) const {
    return contains(SymmetricDirections, d) || (pawns_ && contains(MirrorSymmetricDirections, d));
  }
};

}  // namespace

std::optional<int64_t> score_term(ScoreTerm term, Score score, const TableFacts& facts) {
  if (!score.is_valid()) return std::nullopt;
  const Lasker v = score.value();
  switch (term) {
    case ScoreTerm::Dtm: return depth_if(is_mate_value(v) && facts.metrics.dtm, score);
    case ScoreTerm::Dts:
      return depth_if((v == Lasker::Stalemates || v == Lasker::Stalemated) && facts.metrics.dts, score);
    case ScoreTerm::Lasker: return to_index(v);
    case ScoreTerm::MaxDtm: return max_if(facts.max_dtm);
    case ScoreTerm::MaxDts: return max_if(facts.max_dts);
    case ScoreTerm::Constant: break;
  }
  return std::nullopt;
}

ScoreCondition ScoreCondition::of(const Node& root) {
  ScoreCondition c;
  c.add(root);
  return c;
}

void ScoreCondition::add(const Node& n) {
  switch (n.kind) {
    case NodeKind::Query:
    case NodeKind::Block:
    case NodeKind::And:
      for (const NodePtr& child : n.children) add(*child);
      break;
    case NodeKind::Keyword: add_keyword(n.name); break;
    case NodeKind::Compare: add_comparison(n); break;
    case NodeKind::LineEnd: add_keyword(n.name == "dtmend" ? "dtm" : "dts"); break;
    default: break;
  }
}

void ScoreCondition::add_keyword(const std::string& name) {
  if (name == "wtm") sides_ &= 1;
  if (name == "btm") sides_ &= 2;
  mated_ = mated_ || contains(MateWords, name);
  stalemated_ = stalemated_ || contains(StalemateWords, name);
  if (name == "dtm" || name == "dts") {
    const ScoreOperand term{name == "dtm" ? ScoreTerm::Dtm : ScoreTerm::Dts, 0};
    comparisons_.push_back({CompareOp::Eq, term, term});
  }
}

void ScoreCondition::add_comparison(const Node& n) {
  if (n.filter == FilterKind::Logical || n.children.size() != 2) return;  // set equality
  const std::optional<ScoreOperand> left = operand(n.child(0));
  const std::optional<ScoreOperand> right = operand(n.child(1));
  if (!left || !right) return;
  for (const auto& [text, op] : CompareOps)
    if (n.name == text) comparisons_.push_back({op, *left, *right});
}

bool ScoreCondition::accepts(Color stm, Score score, const TableFacts& facts) const {
  if (!score.is_valid() || (sides_ & (stm == Color::White ? 1 : 2)) == 0) return false;
  const bool terminal_mate = score.value() == Lasker::Mated && score.depth() == 0;
  const bool terminal_stalemate = score.value() == Lasker::Stalemated && score.depth() == 0;
  if (mated_ && facts.metrics.dtm && !terminal_mate) return false;
  if (stalemated_ && facts.metrics.dts && !terminal_stalemate) return false;
  for (const ScoreComparison& c : comparisons_) {
    const std::optional<int64_t> a = operand_value(c.left, score, facts);
    const std::optional<int64_t> b = operand_value(c.right, score, facts);
    if (!a || !b || !compare(c.op, *a, *b)) return false;
  }
  return true;
}

bool ScoreCondition::trivial() const {
  return sides_ == 3 && !mated_ && !stalemated_ && comparisons_.empty();
}

bool symmetry_invariant(const Node& root, bool pawns) { return InvarianceCheck(pawns).invariant(root); }

}  // namespace egtb::query
