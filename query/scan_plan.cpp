#include "query/scan_plan.hpp"

#include <algorithm>

#include "egtb/core/symmetry.hpp"
#include "query/transform.hpp"

namespace egtb::query {

namespace {

// A comparison operand: a table word, a number or a negated number.
std::optional<ScoreOperand> operand(const Node& n) {
  if (n.kind == NodeKind::Number) return ScoreOperand{{}, n.number};
  if (n.kind == NodeKind::Negate && n.child(0).kind == NodeKind::Number)
    return ScoreOperand{{}, -n.child(0).number};
  if (n.kind != NodeKind::Keyword) return std::nullopt;
  const ScoreTerm term = keyword_info(n.keyword).term;
  if (term.kind == ScoreTerm::Kind::None) return std::nullopt;
  return ScoreOperand{term, 0};
}

std::optional<int64_t> operand_value(const ScoreOperand& o, Score s, const TableFacts& facts) {
  if (o.term.kind == ScoreTerm::Kind::None) return o.constant;
  return score_term(o.term, s, facts);
}

// True when the entry's score is the one the rules give a side to move with no legal move (in
// check: checkmated), as far as the table stores it; true as well when it cannot tell.
bool terminal_or_unknown(Score score, const TableFacts& facts, bool in_check) {
  const std::optional<Score> end = terminal_score(facts.rules, in_check);
  if (!end || !facts.metrics.contains(metric_of(facts.rules, end->value()))) return true;
  return score == *end;
}

// ---- symmetry invariance

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
      // a square's coordinates change with the board; the man on it does not
      case NodeKind::SquareFact: return n.keyword != Keyword::Rank && n.keyword != Keyword::File;
      case NodeKind::Light:
      case NodeKind::Dark:
      case NodeKind::MakeSquare:
      case NodeKind::Imagine: return false;
      case NodeKind::Fen: return n.name.empty();
      case NodeKind::Ray:
        return std::all_of(n.directions.begin(), n.directions.end(),
                           [&](Keyword d) { return directions_invariant(keyword_info(d).directions); });
      case NodeKind::Vector: return directions_invariant(keyword_info(n.keyword).directions);
      case NodeKind::Transform: return !shifts(n.transform);
      case NodeKind::Keyword: return keyword_info(n.keyword).symmetric;
      default: return true;
    }
  }

  [[nodiscard]] bool squares_invariant(Bitboard squares) const {
    if (pawns_) return apply(Symmetry::FlipFiles, squares) == squares;
    return std::all_of(AllSymmetries.begin(), AllSymmetries.end(),
                       [&](Symmetry s) { return apply(s, squares) == squares; });
  }

  // Whether the symmetries of the table map these directions onto themselves.
  [[nodiscard]] bool directions_invariant(DirectionSet d) const {
    if (pawns_) return SquareTransform().after({Symmetry::FlipFiles}).directions(d) == d;
    return std::all_of(AllSymmetries.begin(), AllSymmetries.end(),
                       [&](Symmetry s) { return SquareTransform().after({s}).directions(d) == d; });
  }

  // Whether a transform moves squares by shifts (its images of a position are no symmetry).
  static bool shifts(Transform t) {
    const std::vector<TransformStep> steps = transform_family(t);
    return std::any_of(steps.begin(), steps.end(), [](const TransformStep& s) { return s.dx || s.dy; });
  }
};

}  // namespace

std::optional<int64_t> score_term(ScoreTerm term, Score score, const TableFacts& facts) {
  switch (term.kind) {
    case ScoreTerm::Kind::Lasker:
      if (!score.is_valid() || facts.rules != Rules::Lasker) return std::nullopt;
      return to_index(score.value());
    case ScoreTerm::Kind::Value:
      if (!score.is_valid()) return std::nullopt;
      return to_index(score.value());
    case ScoreTerm::Kind::Depth:
      if (!facts.metrics.contains(term.metric)) return std::nullopt;
      return depth_in(facts.rules, score, term.metric);
    case ScoreTerm::Kind::RuleDepth: {
      if (!score.is_valid() || score.value() == Lasker::Draw) return std::nullopt;
      const Metric m = metric_of(facts.rules, score.value());
      if (!facts.metrics.contains(m)) return std::nullopt;
      return depth_in(facts.rules, score, m);
    }
    case ScoreTerm::Kind::MaxDepth: {
      const int deepest = facts.max_depth[to_index(term.metric)];
      if (deepest == SideStats::NoDepth) return std::nullopt;
      return deepest;
    }
    case ScoreTerm::Kind::None: break;
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
    case NodeKind::Keyword:
    case NodeKind::LineEnd: add_keyword(keyword_info(keyword_of(n))); break;
    case NodeKind::Compare: add_comparison(n); break;
    default: break;
  }
}

void ScoreCondition::add_keyword(const KeywordInfo& keyword) {
  switch (keyword.fact) {
    case ScoreFact::None: break;
    case ScoreFact::WhiteToMove: sides_ &= 1; break;
    case ScoreFact::BlackToMove: sides_ &= 2; break;
    case ScoreFact::Mated: mated_ = true; break;
    case ScoreFact::Stalemated: stalemated_ = true; break;
    case ScoreFact::TermDefined: {
      const ScoreOperand term{keyword.term, 0};
      comparisons_.push_back({CompareOp::Eq, term, term});
      break;
    }
  }
}

void ScoreCondition::add_comparison(const Node& n) {
  if (n.filter == FilterKind::Logical || n.children.size() != 2) return;  // set equality
  const std::optional<ScoreOperand> left = operand(n.child(0));
  const std::optional<ScoreOperand> right = operand(n.child(1));
  if (!left || !right) return;
  comparisons_.push_back({n.compare, *left, *right});
}

bool ScoreCondition::accepts(Color stm, Score score, const TableFacts& facts) const {
  if (!score.is_valid() || (sides_ & (stm == Color::White ? 1 : 2)) == 0) return false;
  if (mated_ && !terminal_or_unknown(score, facts, true)) return false;
  if (stalemated_ && !terminal_or_unknown(score, facts, false)) return false;
  for (const ScoreComparison& c : comparisons_) {
    const std::optional<int64_t> a = operand_value(c.left, score, facts);
    const std::optional<int64_t> b = operand_value(c.right, score, facts);
    if (!a || !b || !holds(c.op, *a, *b)) return false;
  }
  return true;
}

bool ScoreCondition::trivial() const {
  return sides_ == 3 && !mated_ && !stalemated_ && comparisons_.empty();
}

bool symmetry_invariant(const Node& root, bool pawns) { return InvarianceCheck(pawns).invariant(root); }

}  // namespace egtb::query
