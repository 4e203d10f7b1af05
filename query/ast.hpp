// The CQL syntax tree. Every node carries its source range and, after sema, its CQL filter kind.
//
// One Node type serves every kind; the fields a kind uses are listed beside it. Children are
// owned. Example: "A -> k == 1" is
//   Compare{name "=="}(AttackChain{name "->"}(Designator A, Designator k), Number 1)
// and prints (see print.hpp) as (== (-> A k) 1).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "egtb/core/bitboard.hpp"
#include "query/source.hpp"
#include "query/token.hpp"

namespace egtb::query {

// What a filter yields besides matching: a square set, a number, nothing (Logical), a position
// (not produced by this implementation, kept for CQL's vocabulary) or a string (message text).
enum class FilterKind : uint8_t { Set, Numeric, Logical, Position, String };

enum class NodeKind : uint8_t {
  Query,       // children: the top-level filters
  Block,       // { f ... }; children
  Designator,  // pieces, squares
  Number,      // number
  String,      // name = the text
  Variable,    // name; slot (sema)
  Assign,      // name = children[0]; slot (sema)
  Call,        // name(children...); expansion (sema)
  Function,    // function name(params) { children }
  Keyword,     // a filter named by one keyword: name ("wtm", "mate", "puremate", "dtm", ...)
  Not,         // children[0]
  And,         // children[0], children[1]
  Or,
  In,           // children[0] in children[1]
  Compare,      // name in == != < <= > >=
  Arith,        // name in + - * / %
  Negate,       // - children[0]
  Union,        // |
  Intersect,    // &
  Complement,   // ~
  Count,        // #
  AttackChain,  // name "->" or "<-"; two or more children, in source order
  Attacks,      // children[0] attacks children[1]
  AttackedBy,   // children[0] attackedby children[1]
  If,           // test, then[, else]
  SquareLoop,   // flags All; name; children: set, body
  PieceLoop,
  Sort,  // flags Min/Max; name = description; children[0]
  Abs,
  Max,  // two or more children
  Min,
  Pin,      // params[i] = role ("from", "through", "to") of children[i]
  Ray,      // params = directions; children = sets
  XRay,     // children = sets
  Between,  // children: two sets
  Power,
  Distance,
  Light,
  Dark,
  Transform,  // name ("flipcolor", "shift", ...); flags Count; children[0]
  NoTransform,
  Fen,          // name = FEN text, or empty for the current FEN (a String filter)
  Message,      // name "message" or "comment"; children = arguments
  Move,         // name = mode ("legal"); params[i] = role of children[i] ("from", "to", "capture",
                //  "promote", "body"); flags Count, All
  Imagine,      // children: ImagineSpec nodes, then the body
  ImagineSpec,  // name "piece" (children: designator, set), "swap" (two sets), "sidetomove"
                //  (params[0] = "white", "black" or "reverse")
  LineEnd       // name "dtsend" or "dtmend"; flags Any/All; children[0]
};

// Bits of Node::flags.
inline constexpr uint32_t FlagAll = 1;
inline constexpr uint32_t FlagCount = 2;
inline constexpr uint32_t FlagMin = 4;
inline constexpr uint32_t FlagMax = 8;
inline constexpr uint32_t FlagAny = 16;

struct Node {
  NodeKind kind = NodeKind::Query;
  SourceRange range;
  FilterKind filter = FilterKind::Logical;  // set by sema
  std::string name;
  int64_t number = 0;
  PieceMask pieces = 0;
  Bitboard squares = 0;
  uint32_t flags = 0;
  int slot = -1;  // variable slot (sema)
  std::vector<std::string> params;
  std::vector<std::unique_ptr<Node>> children;
  std::unique_ptr<Node> expansion;  // a Call's function body with the arguments substituted (sema)

  Node() = default;
  Node(NodeKind k, SourceRange r) : kind(k), range(r) {}

  [[nodiscard]] bool has(uint32_t flag) const { return (flags & flag) != 0; }
  [[nodiscard]] const Node& child(size_t i) const { return *children[i]; }
};

using NodePtr = std::unique_ptr<Node>;

// A deep copy (expansion included).
[[nodiscard]] NodePtr clone(const Node& node);

// "Set", "Numeric", ...
[[nodiscard]] std::string_view filter_kind_name(FilterKind kind);

}  // namespace egtb::query
