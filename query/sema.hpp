// Semantic analysis: gives every node its CQL filter kind, binds variables to slots and expands
// function calls, rejecting ill-kinded queries with the place and what was expected.
//
// Rules, as CQL 6.2 has them: set operators (| & ~ in # attacks -> <- pin ray between power light
// dark) take square sets; arithmetic and abs/max/min take numbers; a comparison takes two
// numbers, or a set and a number (the set counts its squares), or two sets with == or !=.
// A variable's kind is fixed by its first assignment ("x = A" makes a set variable) or by a
// square/piece loop; using a name before that is an error. Functions are expanded at each call
// with the arguments substituted for the parameters (CQL's pass-by-name); recursion is an error.
// Example error: "A attacks 3" -> 1:13 "expected square set after 'attacks'".
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "egtb/core/expected.hpp"
#include "query/ast.hpp"
#include "query/game_selection.hpp"

namespace egtb::query {

// The most square sets a ray, xray or attack chain may have.
inline constexpr size_t MaxRaySets = 16;

// Bounds on what function calls add to a query, each expanded with its body copied: the most
// expansions, the most nodes they copy, and the deepest tree they may build (the parser keeps a
// query itself within MaxParseDepth levels; calls nest bodies in bodies). So every later pass may
// recurse over the analysed tree.
inline constexpr int MaxExpansions = 10000;
inline constexpr size_t MaxExpandedNodes = 100000;
inline constexpr int MaxTreeDepth = 1000;

struct VariableInfo {
  std::string name;
  FilterKind kind = FilterKind::Set;
  bool piece = false;  // a piece variable: it holds a man (CQL's piece identity, piece_ids.hpp)
  // CQL's persistent variable: it starts at 0, "" or no square and keeps its value from position to
  // position and game to game; its final value is written at the end of the run unless quiet.
  bool persistent = false;
  bool quiet = false;
  // CQL's atomic variable (atomic x = e): every path restores it as it backtracks (filters_path.cpp).
  bool atomic = false;
};

// CQL's dictionary: its keys are of one kind, its values of one kind (a square set, a number, a
// string or a position: none until a use shows it). A persistent one keeps its entries from game
// to game (dictionary D); a local one is emptied when a game starts (local dictionary D), as CQL's
// variables are, and only it may hold positions.
struct DictionaryInfo {
  std::string name;
  bool persistent = false;
  std::optional<FilterKind> key;
  std::optional<FilterKind> value;
};

struct SemaInfo {
  std::vector<VariableInfo> variables;       // indexed by Node::slot
  std::vector<DictionaryInfo> dictionaries;  // indexed by Node::slot of the dictionary nodes
  bool uses_tables = false;                  // dtm, dts, lasker, maxdtm, maxdts, dtsend, dtmend
  SourceRange table_use;                     // the first of them
  GameSelection games;                       // the cql(...) header
};

// Annotates `root` (a Query node from parse()) in place.
[[nodiscard]] Expected<SemaInfo, QueryError> analyze(Node& root);

}  // namespace egtb::query
