#include "query/ast.hpp"

#include <algorithm>

namespace egtb::query {

NodePtr clone(const Node& node) {
  auto copy = std::make_unique<Node>();
  static_cast<NodeData&>(*copy) = node;
  for (const NodePtr& c : node.children) copy->children.push_back(clone(*c));
  if (node.expansion) copy->expansion = clone(*node.expansion);
  return copy;
}

TreeSize tree_size(const Node& node) {
  TreeSize size{1, 1};
  const auto add = [&size](const Node& c) {
    const TreeSize s = tree_size(c);
    size.nodes += s.nodes;
    size.height = std::max(size.height, s.height + 1);
  };
  for (const NodePtr& c : node.children) add(*c);
  if (node.expansion) add(*node.expansion);
  return size;
}

Keyword keyword_of(const Node& node) {
  switch (node.kind) {
    case NodeKind::Keyword:
    case NodeKind::Message: return node.keyword;
    case NodeKind::Function: return Keyword::Function;
    case NodeKind::Not: return Keyword::Not;
    case NodeKind::And: return Keyword::And;
    case NodeKind::Or: return Keyword::Or;
    case NodeKind::In: return Keyword::In;
    case NodeKind::Attacks: return Keyword::Attacks;
    case NodeKind::AttackedBy: return Keyword::AttackedBy;
    case NodeKind::If: return Keyword::If;
    case NodeKind::Repeat: return Keyword::Loop;
    case NodeKind::While: return Keyword::While;
    case NodeKind::SquareLoop: return Keyword::Square;
    case NodeKind::PieceLoop:
    case NodeKind::PieceAssign: return Keyword::Piece;
    case NodeKind::PieceId: return Keyword::PieceId;
    case NodeKind::Sort: return Keyword::Sort;
    case NodeKind::Abs: return Keyword::Abs;
    case NodeKind::Max: return Keyword::Max;
    case NodeKind::Min: return Keyword::Min;
    case NodeKind::Pin: return Keyword::Pin;
    case NodeKind::Ray: return Keyword::Ray;
    case NodeKind::XRay: return Keyword::XRay;
    case NodeKind::Between: return Keyword::Between;
    case NodeKind::Power: return Keyword::Power;
    case NodeKind::Distance: return Keyword::Distance;
    case NodeKind::Light: return Keyword::Light;
    case NodeKind::Dark: return Keyword::Dark;
    case NodeKind::SquareFact: return node.keyword;
    case NodeKind::MakeSquare: return Keyword::MakeSquare;
    case NodeKind::Sqrt: return Keyword::Sqrt;
    case NodeKind::Vector: return node.keyword;
    case NodeKind::Transform: return spelling(TransformWords, node.transform);
    case NodeKind::NoTransform: return Keyword::NoTransform;
    case NodeKind::Fen: return Keyword::Fen;
    case NodeKind::Move:
    case NodeKind::PlayedMove: return Keyword::Move;
    case NodeKind::Child: return Keyword::Child;
    case NodeKind::PositionAt: return Keyword::Position;
    case NodeKind::Find: return Keyword::Find;
    case NodeKind::Result: return Keyword::Result;
    case NodeKind::Header: return Keyword::Cql;
    case NodeKind::HeaderFeature: return node.keyword;
    case NodeKind::WithPosition:
    case NodeKind::Imagine: return Keyword::Imagine;
    case NodeKind::ImagineSpec: return spelling(ImagineStepWords, node.imagine_step);
    case NodeKind::LineEnd: return spelling(LineEndWords, node.metric);
    case NodeKind::GameText:
    case NodeKind::Convert: return node.keyword;
    case NodeKind::Elo: return Keyword::Elo;
    case NodeKind::IndexOf: return Keyword::IndexOf;
    case NodeKind::HhdbAward: return Keyword::Hhdb;
    case NodeKind::Nag: return Keyword::OriginalComment;
    case NodeKind::SetTag: return Keyword::SetTag;
    case NodeKind::Path: return Keyword::Path;
    case NodeKind::Line: return Keyword::Line;
    case NodeKind::Echo: return Keyword::Echo;
    case NodeKind::Lca: return Keyword::Lca;
    case NodeKind::ConsecutiveMoves: return Keyword::ConsecutiveMoves;
    case NodeKind::Binding: return node.keyword;
    case NodeKind::Assert: return Keyword::Assert;
    case NodeKind::Dictionary: return Keyword::Dictionary;
    case NodeKind::DictUnbind: return Keyword::Unbind;
    case NodeKind::PathParam: return node.keyword;
    case NodeKind::PathDash:
    case NodeKind::Dash:
    case NodeKind::PathChain:
    case NodeKind::PathRepeat:
    case NodeKind::StringMatch:
    case NodeKind::GroupRef:
    case NodeKind::Substring:
    case NodeKind::DictEntry:
    case NodeKind::DictAssign:
    case NodeKind::DictLoop:
    case NodeKind::Query:
    case NodeKind::Block:
    case NodeKind::Designator:
    case NodeKind::Number:
    case NodeKind::String:
    case NodeKind::Variable:
    case NodeKind::Assign:
    case NodeKind::Call:
    case NodeKind::Compare:
    case NodeKind::Arith:
    case NodeKind::Negate:
    case NodeKind::Union:
    case NodeKind::Intersect:
    case NodeKind::Complement:
    case NodeKind::Count:
    case NodeKind::AttackChain: break;
  }
  return Keyword::None;
}

bool holds(CompareOp op, int64_t a, int64_t b) {
  switch (op) {
    case CompareOp::Eq: return a == b;
    case CompareOp::Ne: return a != b;
    case CompareOp::Lt: return a < b;
    case CompareOp::Le: return a <= b;
    case CompareOp::Gt: return a > b;
    case CompareOp::Ge: return a >= b;
    case CompareOp::Precedes:
    case CompareOp::PrecedesEq:
    case CompareOp::Succeeds:
    case CompareOp::SucceedsEq: return false;
  }
  return false;
}

std::string_view operator_text(CompareOp op) { return operator_spelling(spelling(CompareTokens, op)); }
std::string_view operator_text(ArithOp op) { return operator_spelling(spelling(ArithTokens, op)); }
std::string_view operator_text(Arrow arrow) { return operator_spelling(spelling(ArrowTokens, arrow)); }

}  // namespace egtb::query
