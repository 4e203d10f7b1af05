// The reserved words of CQL as data: one table says, for every keyword, how it is spelled, what the
// parser does with it, what kind of value it yields as a filter, whether it reads table values,
// and what a table entry's score alone tells about it. The lexer, parser, sema, compiler, printer
// and scan planner all read this table; no other file spells a keyword.
//
// A keyword is used in one of four ways where a filter may begin:
//   Filter    a filter by itself: wtm, mate, puremate, dtm, legalposition, true ...
//   Compound  begins a filter with operands: not, if, pin, move, flipcolor, dtsend ...
//   Operator  joins two filters: and, or, in, attacks, attackedby
//   Part      only inside another filter's syntax: then, from, count, up, legal, swap ...
// A few words are also read in a second role by the filter around them: "piece" (loop; imagine
// piece), "sidetomove", "white", "black" (filters; imagine sidetomove white), "min", "max" (filters;
// sort min).
//
// Example: the entry of "dtm" reads
//   {"dtm", Keyword::Dtm, Filter, Numeric, tables, ScoreTerm::depth(Metric::Dtm), ScoreFact::TermDefined}
// so "dtm" alone is a numeric filter that needs tables, a comparison "dtm <= 9" bounds the stored
// DTM, and "dtm" alone keeps only entries whose DTM is defined (values 4 and 0).
//
// FilterKind and ScoreTerm are declared here because the table describes keywords with them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "egtb/store/rules.hpp"
#include "query/chess_sets.hpp"

namespace egtb::query {

// What a filter yields besides matching: a square set, a number, nothing (Logical), a position
// (not produced by this implementation, kept for CQL's vocabulary) or a string (message text).
enum class FilterKind : uint8_t { Set, Numeric, Logical, Position, String };

// "Set", "Numeric", ...
[[nodiscard]] std::string_view filter_kind_name(FilterKind kind);

// The number a table word names (scan_plan.hpp): the Lasker value of a position's score (lasker,
// under Lasker rules only), its value under the table's rules (value: 4 win, 2 draw, 0 loss under
// every rule set, and 3 and 1 under Lasker), its depth in a metric (dtm, dts, dte), its depth in
// the metric of its value under the table's rules (depth), or the deepest depth of its table in a
// metric (maxdtm, maxdts); None for a word that names no table number.
struct ScoreTerm {
  enum class Kind : uint8_t { None, Lasker, Value, Depth, RuleDepth, MaxDepth };
  Kind kind = Kind::None;
  Metric metric = Metric::Dtm;  // of Depth and MaxDepth

  static constexpr ScoreTerm lasker() { return {Kind::Lasker, Metric::Dtm}; }
  static constexpr ScoreTerm value() { return {Kind::Value, Metric::Dtm}; }
  static constexpr ScoreTerm rule_depth() { return {Kind::RuleDepth, Metric::Dtm}; }
  static constexpr ScoreTerm depth(Metric m) { return {Kind::Depth, m}; }
  static constexpr ScoreTerm max_depth(Metric m) { return {Kind::MaxDepth, m}; }
  bool operator==(const ScoreTerm&) const = default;
};

// What a keyword filter that matches says about the stored score of the entry it runs on.
enum class ScoreFact : uint8_t {
  None,
  WhiteToMove,  // wtm
  BlackToMove,  // btm
  Mated,        // mate, puremate, modelmate, idealmate: the rules' checkmate score (Lasker: 0, DTM 0)
  Stalemated,   // stalemate, purestalemate, ...: the rules' stalemate score (Lasker: 1, DTS 0)
  TermDefined   // dtm, dts, dtmend, dtsend: the entry has its term (a DTM, a DTS)
};

// Every keyword, in the alphabetical order of its spelling (the order of the table); None for
// a word that is no keyword.
enum class Keyword : uint8_t {
  Abs,
  All,
  And,
  Any,
  AnyDirection,
  Assert,
  Atomic,
  Attack,
  AttackedBy,
  Attacks,
  Between,
  Black,
  Btm,
  Capture,
  Captures,
  Castle,
  Check,
  Child,
  ColorType,
  Comment,
  ConnectedPawns,
  ConsecutiveMoves,
  Count,
  CountMoves,
  Cql,
  CurPos,
  CurrentMove,
  CurrentPosition,
  CurrentTransform,
  Dark,
  Date,
  Depth,
  Diagonal,
  Dictionary,
  Dihedral,
  Distance,
  DoubledPawns,
  Down,
  Dte,
  Dtm,
  DtmEnd,
  Dts,
  DtsEnd,
  Echo,
  Eco,
  Elo,
  Else,
  EnPassant,
  EnPassantSquare,
  Event,
  EventDate,
  False,
  Fen,
  File,
  Find,
  FirstMatch,
  Flip,
  FlipColor,
  FlipDihedral,
  FlipHorizontal,
  FlipVertical,
  Focus,
  From,
  Function,
  GameNumber,
  HasComment,
  Hhdb,
  Horizontal,
  IdealMate,
  IdealStalemate,
  If,
  Imagine,
  In,
  IndexOf,
  Initial,
  InitialPosition,
  Input,
  Int,
  IsBound,
  IsolatedPawns,
  IsUnbound,
  KeepAllBest,
  Lasker,
  LastGameNumber,
  LastPosition,
  Lca,
  Left,
  Legal,
  LegalPosition,
  Light,
  Line,
  Local,
  Loop,
  LowerCase,
  MainDiagonal,
  MainLine,
  MakeSquare,
  MatchCount,
  Mate,
  Max,
  MaxDtm,
  MaxDts,
  Message,
  Min,
  ModelMate,
  ModelStalemate,
  Move,
  MoveNumber,
  NestBan,
  NorthEast,
  NorthWest,
  Not,
  NoTransform,
  Null,
  NullMove,
  CastleKingside,   // o-o
  CastleQueenside,  // o-o-o
  OffDiagonal,
  Or,
  OriginalComment,
  Orthogonal,
  Output,
  Parent,
  PassedPawns,
  Path,
  PathCount,
  PathCountUnfocused,
  PathLastPosition,
  PathStart,
  Persistent,
  Piece,
  PieceId,
  PieceName,
  PiecePath,
  Pin,
  Player,
  Ply,
  Position,
  PositionId,
  Power,
  Previous,
  Primary,
  Promote,
  PseudoLegal,
  PureMate,
  PureStalemate,
  Quiet,
  Rank,
  Ray,
  ReachablePosition,
  RemoveComment,
  Result,
  Reverse,
  ReverseColor,
  Right,
  Rotate45,
  Rotate90,
  Secondary,
  SetTag,
  Shift,
  ShiftHorizontal,
  ShiftVertical,
  SideToMove,
  Silent,
  SingleColor,
  Site,
  Sort,
  SouthEast,
  SouthWest,
  Sqrt,
  Square,
  Stalemate,
  Str,
  Swap,
  Tag,
  Terminal,
  Then,
  Through,
  Title,
  To,
  True,
  Try,
  Type,
  TypeName,
  Unbind,
  Up,
  UpperCase,
  Value,
  Variation,
  Variations,
  Verbose,
  Vertical,
  VirtualMainLine,
  While,
  White,
  Wtm,
  XRay,
  Year,
  None
};

enum class KeywordUse : uint8_t { Filter, Compound, Operator, Part };

struct KeywordInfo {
  std::string_view text;
  Keyword keyword = Keyword::None;
  KeywordUse use = KeywordUse::Part;
  FilterKind kind = FilterKind::Logical;  // the value of a Filter keyword
  bool tables = false;                    // reads table values (dtm, dts, lasker, ..., dtsend)
  ScoreTerm term = {};                    // the number it names, or the depth it follows
  ScoreFact fact = ScoreFact::None;
  Keyword colors_swapped = Keyword::None;  // the same filter with the colours swapped, when another
  bool symmetric = true;                   // answers alike on every symmetric image of a position
  DirectionSet directions = 0;             // a ray direction: the directions it admits
};

// The entry of a keyword (Keyword::None has an empty one).
[[nodiscard]] const KeywordInfo& keyword_info(Keyword keyword);
// The spelling of a keyword ("" for None).
[[nodiscard]] std::string_view keyword_text(Keyword keyword);
// The spelling in quotes, as error messages show it: "'attacks'".
[[nodiscard]] std::string quoted(Keyword keyword);
// The keyword spelled `word`, if it is one.
[[nodiscard]] std::optional<Keyword> find_keyword(std::string_view word);

}  // namespace egtb::query
