#include "query/ast.hpp"

namespace egtb::query {

NodePtr clone(const Node& node) {
  auto copy = std::make_unique<Node>(node.kind, node.range);
  copy->filter = node.filter;
  copy->name = node.name;
  copy->number = node.number;
  copy->pieces = node.pieces;
  copy->squares = node.squares;
  copy->flags = node.flags;
  copy->slot = node.slot;
  copy->params = node.params;
  for (const NodePtr& c : node.children) copy->children.push_back(clone(*c));
  if (node.expansion) copy->expansion = clone(*node.expansion);
  return copy;
}

std::string_view filter_kind_name(FilterKind kind) {
  switch (kind) {
    case FilterKind::Set: return "Set";
    case FilterKind::Numeric: return "Numeric";
    case FilterKind::Logical: return "Logical";
    case FilterKind::Position: return "Position";
    case FilterKind::String: return "String";
  }
  return "?";
}

}  // namespace egtb::query
