#include "pgn/game.hpp"

#include <algorithm>

#include "egtb/core/fen.hpp"
#include "egtb/core/notation.hpp"

namespace egtb::pgn {

namespace {

const Position& initial_position() {
  static const Position start = *parse_fen(StartFen);
  return start;
}

}  // namespace

Game::Game() : Game(initial_position()) {}

Game::Game(const Position& start) {
  nodes_.emplace_back();
  shapes_.emplace_back();
  nodes_[Root].position = start;
}

NodeId Game::append_child(NodeId parent) {
  const auto id = static_cast<NodeId>(nodes_.size());
  nodes_.emplace_back();
  nodes_[id].parent = parent;
  Shape& up = shapes_[parent];
  (up.last_child == NoNode ? nodes_[parent].first_child : nodes_[up.last_child].next_sibling) = id;
  const Shape shape{NoNode, up.ply + 1, up.mainline && up.last_child == NoNode};
  up.last_child = id;
  shapes_.push_back(shape);
  return id;
}

NodeId Game::add_move(NodeId parent, Move move) {
  const NodeId id = append_child(parent);
  Node& n = nodes_[id];
  n.move = move;
  n.position = nodes_[parent].position.after(move);
  return id;
}

NodeId Game::add_text_move(NodeId parent, std::string san, Location at) {
  const NodeId id = append_child(parent);
  nodes_[id].san = std::move(san);
  nodes_[id].location = at;
  return id;
}

const Tag* Game::find_tag(std::string_view name) const {
  for (const Tag& t : tags)
    if (t.name == name) return &t;
  return nullptr;
}

std::optional<std::string_view> Game::tag(std::string_view name) const {
  const Tag* t = find_tag(name);
  if (!t) return std::nullopt;
  return t->value;
}

void Game::set_tag(std::string_view name, std::string value) {
  for (Tag& t : tags)
    if (t.name == name) {
      t.value = std::move(value);
      return;
    }
  tags.push_back({std::string(name), std::move(value), {}});
}

bool Game::is_mainline(NodeId id) const { return shapes_[id].mainline; }

std::vector<NodeId> Game::mainline() const {
  std::vector<NodeId> line;
  for (NodeId n = nodes_[Root].first_child; n != NoNode; n = nodes_[n].first_child) line.push_back(n);
  return line;
}

std::vector<NodeId> Game::preorder() const {
  std::vector<NodeId> order;
  order.reserve(nodes_.size());
  std::vector<NodeId> stack{Root};
  while (!stack.empty()) {
    const NodeId n = stack.back();
    stack.pop_back();
    order.push_back(n);
    const size_t mark = stack.size();
    for (NodeId c = nodes_[n].first_child; c != NoNode; c = nodes_[c].next_sibling) stack.push_back(c);
    std::reverse(stack.begin() + static_cast<std::ptrdiff_t>(mark), stack.end());
  }
  return order;
}

int Game::ply(NodeId id) const { return static_cast<int>(shapes_[id].ply); }

std::string move_number(const Position& before) {
  return std::to_string(before.fullmove_number()) + (before.side_to_move() == Color::White ? "." : "...");
}

std::string numbered_san(const Game& game, NodeId id) {
  const Position& before = game.position(game.node(id).parent);
  const Move m = game.node(id).move;
  return move_number(before) + " " + (m.is_null() ? std::string(NullMoveText) : to_san(before, m));
}

bool is_result(std::string_view text) {
  return text == "1-0" || text == "0-1" || text == "1/2-1/2" || text == "*";
}

}  // namespace egtb::pgn
