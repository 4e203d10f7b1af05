// A game as PGN records it: tags, a start position, a tree of moves with comments, NAGs and
// variations, and the result.
//
// The tree is a vector of nodes. Node 0 (Game::Root) stands for the start position; every other
// node is one move from its parent and the position after it. The children of a node are linked
// first_child -> next_sibling: the first child continues the line, the others are variations (the
// alternatives to the first child), in the order the PGN gives them. Example, "1. e4 (1. d4 d5)
// e5 *" read in order:
//
//   node 0  start position  first_child 1
//   node 1  e4  parent 0    first_child 4   next_sibling 2
//   node 2  d4  parent 0    first_child 3                    (a variation: 1. d4 instead of 1. e4)
//   node 3  d5  parent 2
//   node 4  e5  parent 1
//
// The mainline is Root, first_child, first_child... (nodes 0, 1, 4).
//
// Comments and NAGs. A node's `comments` follow its move ({...} after "e4"); the root's are the
// comments before the first move of the game. `starting_comments` precede the move of a node that
// starts a variation ("( {the try} 1. d4 ...)"). Comment text is kept with its whitespace runs
// (line breaks included) collapsed to one space and trimmed, so that writing it wrapped at another
// column and reading it back gives the same text. NAGs are numbers 0-255 ($1 is "!", $2 "?"; the
// reader turns "!", "?", "!!", "??", "!?", "?!" into $1-$6).
//
// A game read from PGN (pgn/parser.hpp) first holds the movetext as written: each node's `san`
// and `location`. replay() (pgn/replay.hpp) then checks every move against its position and sets
// `move` and `position`; add_move() builds a game directly, already replayed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "egtb/core/move.hpp"
#include "egtb/core/position.hpp"

namespace egtb::pgn {

// Where something stands in a PGN input: line and column count from 1, columns in bytes.
struct Location {
  uint64_t line = 0;
  uint32_t column = 0;
  bool operator==(const Location&) const = default;
};

using NodeId = uint32_t;
inline constexpr NodeId NoNode = UINT32_MAX;

struct Node {
  NodeId parent = NoNode;
  NodeId first_child = NoNode;
  NodeId next_sibling = NoNode;
  std::string san;    // the move as written in the input; empty for the root and built games
  Location location;  // of the move's text in the input
  Move move;          // from the parent's position (null at the root)
  Position position;  // after the move (the start position at the root)
  std::vector<uint8_t> nags;
  std::vector<std::string> starting_comments;  // before the move (only for a variation's first move)
  std::vector<std::string> comments;           // after the move (the root: before the first move)
};

struct Tag {
  std::string name;
  std::string value;
  Location location;  // of the value in the input

  // Tags are equal when their names and values are.
  bool operator==(const Tag& other) const { return name == other.name && value == other.value; }
};

// The seven tag roster, in the order PGN writes it first.
inline constexpr std::string_view SevenTagRoster[] = {"Event", "Site",  "Date",  "Round",
                                                      "White", "Black", "Result"};

class Game {
public:
  static constexpr NodeId Root = 0;

  // A game from `start` (the initial position by default) without moves.
  Game();
  explicit Game(const Position& start);

  std::vector<Tag> tags;     // in input order
  std::string result = "*";  // the termination marker: "1-0", "0-1", "1/2-1/2" or "*"
  uint64_t number = 0;       // 1-based position in the input (0 for a built game)
  Location location;         // of the game's first token in the input

  [[nodiscard]] const Node& node(NodeId id) const { return nodes_[id]; }
  [[nodiscard]] Node& node(NodeId id) { return nodes_[id]; }
  [[nodiscard]] size_t size() const { return nodes_.size(); }
  [[nodiscard]] const Position& start() const { return nodes_[Root].position; }
  [[nodiscard]] const Position& position(NodeId id) const { return nodes_[id].position; }

  // Appends a child to `parent` (after its other children) for a legal move of its position,
  // and returns it.
  NodeId add_move(NodeId parent, Move move);
  // Appends a child for a move written as `san` at `location`, to be resolved by replay().
  NodeId add_text_move(NodeId parent, std::string san, Location at);

  // The first tag of that name, or null.
  [[nodiscard]] const Tag* find_tag(std::string_view name) const;
  // The value of a tag, or nothing.
  [[nodiscard]] std::optional<std::string_view> tag(std::string_view name) const;
  // Sets a tag's value, appending the tag when the game has none of that name.
  void set_tag(std::string_view name, std::string value);

  // True for nodes on the mainline (the root and first children from it; constant time).
  [[nodiscard]] bool is_mainline(NodeId id) const;
  // The nodes of the mainline after the root, in order.
  [[nodiscard]] std::vector<NodeId> mainline() const;
  // Every node, each before its children: the root, then the subtree of each of its children in
  // order (for the example above: 0, 1, 4, 2, 3).
  [[nodiscard]] std::vector<NodeId> preorder() const;

  // The number of plies from the root to the node (constant time).
  [[nodiscard]] int ply(NodeId id) const;

private:
  // What the game keeps of each node beside it, so that adding a move, ply() and is_mainline()
  // take constant time whatever the number of siblings or the depth (a hostile game of 100,000
  // variations of one move must not take quadratic time).
  struct Shape {
    NodeId last_child = NoNode;
    uint32_t ply = 0;
    bool mainline = true;
  };

  std::vector<Node> nodes_;
  std::vector<Shape> shapes_;  // one per node

  NodeId append_child(NodeId parent);
};

// "12." before a White move, "12..." before a Black one, numbered from the position played from.
[[nodiscard]] std::string move_number(const Position& before);
// The move of a node (not the root) in SAN with its number: "45... Kd2".
[[nodiscard]] std::string numbered_san(const Game& game, NodeId id);

// How PGN writes a null move (a pass, common in the analysis of studies); readers also take "Z0".
inline constexpr std::string_view NullMoveText = "--";

// True for the four termination markers.
[[nodiscard]] bool is_result(std::string_view text);

}  // namespace egtb::pgn
