// The CQL syntax tree. Every node carries its source range and, after sema, its CQL filter kind.
//
// One Node type serves every kind; the fields a kind uses are listed beside it. Children are
// owned. Operators and the roles of operands are enumerations, never strings: each enumeration
// below comes with the tokens or keywords that spell its values (indexed by the value), so the
// parser reads them and the printer writes them from one list. Example: "A -> k == 1" is
//   Compare{compare Eq}(AttackChain{arrow Right}(Designator A, Designator k), Number 1)
// and prints (see print.hpp) as (== (-> A k) 1).
//
// A chain of one associative operator ("a and b and c", "A | B | C") is one node with every
// operand as a child, so that chains of any length stay one level deep; the printer shows them
// nested to the left, as they associate. The parser bounds the depth of every other nesting
// (parser.hpp), so every pass may recurse over a tree.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "egtb/core/bitboard.hpp"
#include "query/chess_sets.hpp"
#include "query/keywords.hpp"
#include "query/source.hpp"
#include "query/table_context.hpp"
#include "query/token.hpp"

namespace egtb::query {

enum class NodeKind : uint8_t {
  Query,       // children: the top-level filters
  Block,       // { f ... }; children
  Designator,  // pieces, squares
  Number,      // number
  String,      // name = the text
  Variable,    // name; slot, flags Piece for a piece variable (sema)
  Assign,      // name = children[0]; slot (sema); flags Persistent, Quiet, Atomic
  Call,        // name(children...); expansion (sema)
  Function,    // function name(params) { children }
  Keyword,     // a filter named by one keyword (use Filter): keyword ("wtm", "mate", "dtm", ...)
  Not,         // children[0]
  And,         // two or more children
  Or,
  In,           // children[0] in children[1]
  Compare,      // compare; children[0], children[1]
  Arith,        // arith; children[0], children[1]
  Negate,       // - children[0]
  Union,        // |; two or more children
  Intersect,    // &; two or more children
  Complement,   // ~
  Count,        // #
  AttackChain,  // arrow; two or more children, in source order
  Attacks,      // children[0] attacks children[1]
  AttackedBy,   // children[0] attackedby children[1]
  If,           // test, then[, else]
  Repeat,       // loop children[0]: again while it matches
  While,        // while (children[0]) children[1]; a StringMatch test: children[1] for each match
  SquareLoop,   // flags All; name; children: set, body
  PieceLoop,    // the same; the variable holds a man (CQL's piece identity, query/piece_ids.hpp)
  PieceAssign,  // piece name = children[0] (a set); slot (sema)
  PieceId,      // pieceid children[0]: a piece variable or a set
  Sort,         // flags Min/Max; name = description; children[0]
  Abs,
  Max,  // two or more children
  Min,
  Pin,      // pin_roles[i]: the role of children[i]
  Ray,      // directions (keywords, in source order); children = sets
  XRay,     // children = sets
  Between,  // children: two sets
  Power,
  Distance,
  Light,
  Dark,
  SquareFact,  // keyword (rank, file, colortype, type, typename, piecename) of children[0], a square
  MakeSquare,  // makesquare: children: the file and the rank (numbers), or a square's name (a string)
  Sqrt,        // children[0]
  Vector,      // a direction word (keyword) as a filter: the squares `number` to `high` steps from
               // those of children[0] in its directions
  Transform,   // transform; flags Count; children[0]
  NoTransform,
  Fen,            // name = FEN text, or empty for the current FEN (a String filter)
  Message,        // keyword Message, Comment or Str; children = arguments
  Move,           // move legal: move_roles[i]: the role of children[i]; flags Count, All, and one of
                  // LegalTargetFlags for 'legal --(o-o)' ...
  PlayedMove,     // move (played): move_roles[i] the role of children[i] (Body: a 'comment' written
                  // at the position the move leads to); flags Previous, Null, Primary, Secondary,
                  // EnPassant, Castle, CastleKingside, CastleQueenside; promote in `pieces`
  Child,          // child, child(n): children: the index, if given
  PositionAt,     // position N: children[0] the positionid
  Find,           // find [all] [<-] [N [M]] f: children[0] f, then the range's bounds; flags All,
                  // Previous (<-: backward), Count (a range: the number of matches)
  WithPosition,   // children[0] : children[1], children[0] a position filter (parent, child)
  Result,         // result "1-0": name = the result
  Header,         // cql(...): the header's features (HeaderFeature nodes), kept for sema
  HeaderFeature,  // keyword: the feature; name: its text (input, output, result, matchstring);
                  // children: the numbers of a range (gamenumber, matchcount); flags Min: sort
  Imagine,        // children: ImagineSpec nodes, then the body
  ImagineSpec,    // imagine_step Piece (children: designator, set), Swap (two sets), SideToMove (side)
  LineEnd,        // metric (dtmend, dtsend); flags Any/All; children[0]
  GameText,       // a tag's value: name = the tag ("White" for player white, "" for player: both
                  // players); keyword: the word (player, event, eventdate, site, date, eco, tag)
  Elo,            // elo [white|black]: name = "White", "Black" or "" (the higher of both)
  StringMatch,    // children[0] ~~ "pattern": name = the pattern
  GroupRef,       // \N: number = N
  Substring,      // children[0][children[1]] or [children[1]:children[2]]; flags Range (a ':')
  Convert,        // keyword (lowercase, uppercase, int) children[0]
  IndexOf,        // indexof(children[0] children[1]): where the first string begins in the second
  Nag,            // originalcomment "!" (hascomment "$1"): the move that led here has NAG `number`
  SetTag,         // settag("name" children[0]): name the tag
  HhdbAward,      // hhdb [award|prize|hm|commendation] [special] [max]: name the type (query/hhdb.hpp);
                  // flags Max, Special
  // CQL's path: the PathParam nodes, then the constituents (PathDash, PathChain, PathRepeat or any
  // filter, matched at the position reached); flags NestBan, Primary, FirstMatch, LastPosition,
  // PiecePath, Verbose, KeepAllBest; name the title ("" without one).
  // Example: "path nestban -- check{5,}" is (path nestban (repeat 5 inf (-- check))).
  Path,
  PathParam,   // keyword Focus (children[0] the set; flags Capture) or Max (children[0] the number)
  PathDash,    // -- or [x] (flags Capture): move_roles[i] the role of children[i]: From (the set tied
               // on the left), To (on the right), Body (the targets after it); promotion in `pieces`
  PathChain,   // ( constituents ) of a path or a line: children in order
  PathRepeat,  // a path's or a line's children[0] repeated from `number` to `high` times (*, +, ?,
               // {m,n})
  Dash,        // CQL's -- as a filter, outside path: as PathDash, the targets in '(...)' after it;
               // flags Previous: the move that led here (previous --, currentmove --)
  // CQL's line (the older sequence filter): the constituents (PathChain, PathRepeat or any filter,
  // each filter matched at one position of the line); flags Previous (line <--: back to the start),
  // SingleColor, NestBan, FirstMatch, LastPosition, Primary, Secondary, Count (a range of lengths:
  // `number` to `high`). Example: "line singlecolor --> check{3,}" is
  // (line singlecolor --> (repeat 3 inf check)).
  Line,
  // echo (s t) [in all] f: children[0] and [1] the Variables s and t (position variables), [2] f;
  // flags All (in all: t may be s). Example: "echo (s t) s:check" is (echo s t (: s check)).
  Echo,
  Lca,               // lca(p q): children, two positions
  ConsecutiveMoves,  // consecutivemoves [low [high]] (s t): children the Variables s, t; number
                     // low, high high (1 and 100000 when not given, as CQL)
  // isbound x, isunbound x (x may be quoted: isbound "x") and unbind x: keyword; name = x; slot
  // (sema; -1 for isbound of a name no variable has). Example: "isbound X" is (isbound X).
  Binding,
  Assert,  // assert children[0]: fails the run, located here, where children[0] does not match
  // CQL's dictionaries, maps from keys to values of one kind each (name the dictionary; slot its
  // index in SemaInfo::dictionaries, sema): Dictionary declares one ("dictionary D", FlagPersistent
  // unless "local dictionary D") or names it (D, #D); DictEntry D[children[0]]; DictAssign
  // D[children[0]] = children[1]; DictUnbind unbind D, unbind D[children[0]]. Example:
  // "local dictionary D D[1] = a1" is (dictionary D) ([]= D 1 [a1]).
  Dictionary,
  DictEntry,
  DictAssign,
  DictUnbind,
  // x ∊ D body, x [element] D body, string x in D body (keyword In): runs body with x bound to each
  // key of the dictionary D in key order; name x; slot x's; children: (dictionary D), body. Example:
  // "string s in D true" is (∊ s (dictionary D) true).
  DictLoop,
};

// Bits of Node::flags.
inline constexpr uint32_t FlagAll = 1;
inline constexpr uint32_t FlagCount = 2;
inline constexpr uint32_t FlagMin = 4;
inline constexpr uint32_t FlagMax = 8;
inline constexpr uint32_t FlagAny = 16;
inline constexpr uint32_t FlagPrevious = 32;  // move previous; find <-, line <--: backward; previous --
inline constexpr uint32_t FlagNull = 64;      // move null
inline constexpr uint32_t FlagPrimary = 128;  // move primary
inline constexpr uint32_t FlagSecondary = 256;
inline constexpr uint32_t FlagEnPassant = 512;  // move enpassant
inline constexpr uint32_t FlagCastle = 1024;    // move castle
inline constexpr uint32_t FlagRange = 2048;     // x[a:b], not x[a]
inline constexpr uint32_t FlagNestBan = 4096;   // path nestban
inline constexpr uint32_t FlagFirstMatch = 8192;
inline constexpr uint32_t FlagLastPosition = 16384;  // path lastposition: a Position filter
inline constexpr uint32_t FlagCapture = 32768;       // [x] in path; focus capture
inline constexpr uint32_t FlagPiece = 65536;         // a variable that holds a man (sema)
inline constexpr uint32_t FlagSingleColor = 131072;  // line singlecolor
// move (played, not previous) in a line's constituent, outside every filter read at another
// position and every other move filter: it sees only the move the line goes on with (sema)
inline constexpr uint32_t FlagLineMove = 262144;
inline constexpr uint32_t FlagPiecePath = 524288;     // path piecepath: note the focused men's ways
inline constexpr uint32_t FlagVerbose = 1048576;      // path verbose (CQL's comments on each move)
inline constexpr uint32_t FlagKeepAllBest = 2097152;  // path keepallbest: every best path's notes
// o-o, o-o-o: a castling of that side (the move played, or a legal move of 'legal --(o-o)')
inline constexpr uint32_t FlagCastleKingside = 4194304;
inline constexpr uint32_t FlagCastleQueenside = 8388608;
// persistent x = e: x keeps its value from position to position and from game to game, and is
// written at the end of the run (unless FlagQuiet: persistent quiet x = e)
inline constexpr uint32_t FlagPersistent = 16777216;
inline constexpr uint32_t FlagQuiet = 33554432;
inline constexpr uint32_t FlagSpecial = 67108864;  // hhdb special
// atomic x = e: a path restores x after each move it tries, and leaves it as the path found had it
// at its end (as it was before the path when none is found)
inline constexpr uint32_t FlagAtomic = 134217728;
// move pseudolegal, pseudolegal --, countmoves pseudolegal: the moves that may leave the king in
// check (CQL's pseudoFlag), not the legal ones only
inline constexpr uint32_t FlagPseudoLegal = 268435456;

// The words that set a flag, in the order the printer writes them: the parameters of path and of
// line, and the words of the move played ("move previous null ...").
using FlagWords = std::pair<Keyword, uint32_t>;
inline constexpr std::array<FlagWords, 7> PathParameterFlags = {{{Keyword::NestBan, FlagNestBan},
                                                                 {Keyword::Primary, FlagPrimary},
                                                                 {Keyword::FirstMatch, FlagFirstMatch},
                                                                 {Keyword::LastPosition, FlagLastPosition},
                                                                 {Keyword::PiecePath, FlagPiecePath},
                                                                 {Keyword::Verbose, FlagVerbose},
                                                                 {Keyword::KeepAllBest, FlagKeepAllBest}}};
inline constexpr std::array<FlagWords, 6> LineParameterFlags = {{{Keyword::SingleColor, FlagSingleColor},
                                                                 {Keyword::Primary, FlagPrimary},
                                                                 {Keyword::Secondary, FlagSecondary},
                                                                 {Keyword::NestBan, FlagNestBan},
                                                                 {Keyword::FirstMatch, FlagFirstMatch},
                                                                 {Keyword::LastPosition, FlagLastPosition}}};
inline constexpr std::array<FlagWords, 8> PlayedMoveFlags = {
    {{Keyword::Previous, FlagPrevious},
     {Keyword::Null, FlagNull},
     {Keyword::Primary, FlagPrimary},
     {Keyword::Secondary, FlagSecondary},
     {Keyword::EnPassant, FlagEnPassant},
     {Keyword::Castle, FlagCastle},
     {Keyword::CastleKingside, FlagCastleKingside},
     {Keyword::CastleQueenside, FlagCastleQueenside}}};
// The targets of 'legal --(target)', CQL's only ones there: the legal moves of that kind.
inline constexpr std::array<FlagWords, 4> LegalTargetFlags = {
    {{Keyword::CastleKingside, FlagCastleKingside},
     {Keyword::CastleQueenside, FlagCastleQueenside},
     {Keyword::Castle, FlagCastle},
     {Keyword::EnPassant, FlagEnPassant}}};

// ---- operators, spelled by tokens

// The last four compare positions only (ancestor and descendant: ≺ ≼ ≻ ≽).
enum class CompareOp : uint8_t { Eq, Ne, Lt, Le, Gt, Ge, Precedes, PrecedesEq, Succeeds, SucceedsEq };
inline constexpr std::array CompareTokens = {
    TokenKind::Eq, TokenKind::Ne,       TokenKind::Lt,         TokenKind::Le,       TokenKind::Gt,
    TokenKind::Ge, TokenKind::Precedes, TokenKind::PrecedesEq, TokenKind::Succeeds, TokenKind::SucceedsEq};
// Whether `a op b` holds (false for the position-only comparisons).
[[nodiscard]] bool holds(CompareOp op, int64_t a, int64_t b);

enum class ArithOp : uint8_t { Add, Subtract, Multiply, Divide, Modulo };
inline constexpr std::array ArithTokens = {TokenKind::Plus, TokenKind::Minus, TokenKind::Star,
                                           TokenKind::Slash, TokenKind::Percent};

// The direction of an attack chain: "A -> k" (Right) or "k <- A" (Left).
enum class Arrow : uint8_t { Right, Left };
inline constexpr std::array ArrowTokens = {TokenKind::Arrow, TokenKind::BackArrow};

// ---- roles and variants, spelled by keywords (PinRole is in chess_sets.hpp, LineMetric in
// table_context.hpp)

inline constexpr std::array PinRoleWords = {Keyword::From, Keyword::Through, Keyword::To};

// The operands of move legal; Body is the filter after ':', spelled by no keyword.
// EnPassantSquare S: an en passant capture whose e.p. square (CQL's: the square of the pawn taken)
// is in S.
enum class MoveRole : uint8_t { From, To, Capture, EnPassantSquare, Promote, Body };
inline constexpr std::array MoveRoleWords = {
    Keyword::From, Keyword::To, Keyword::Capture, Keyword::EnPassantSquare, Keyword::Promote, Keyword::None};

enum class Transform : uint8_t {
  Flip,
  FlipColor,
  FlipHorizontal,
  FlipVertical,
  ReverseColor,
  Rotate45,
  Rotate90,
  Shift,
  ShiftHorizontal,
  ShiftVertical
};
inline constexpr std::array TransformWords = {
    Keyword::Flip,         Keyword::FlipColor,    Keyword::FlipHorizontal,
    Keyword::FlipVertical, Keyword::ReverseColor, Keyword::Rotate45,
    Keyword::Rotate90,     Keyword::Shift,        Keyword::ShiftHorizontal,
    Keyword::ShiftVertical};

enum class ImagineStep : uint8_t { Piece, Swap, SideToMove };
inline constexpr std::array ImagineStepWords = {Keyword::Piece, Keyword::Swap, Keyword::SideToMove};

// The side to move of imagine sidetomove.
enum class Side : uint8_t { White, Black, Reverse };
inline constexpr std::array SideWords = {Keyword::White, Keyword::Black, Keyword::Reverse};

// dtmend and dtsend, by the depth their lines follow.
inline constexpr std::array LineEndWords = {Keyword::DtmEnd, Keyword::DtsEnd};

// The value of E that `words` (indexed by E) spells as `word`, if any.
template <class E, class Word, size_t N>
[[nodiscard]] constexpr std::optional<E> spelled(const std::array<Word, N>& words, Word word) {
  for (size_t i = 0; i < N; ++i)
    if (words[i] == word) return static_cast<E>(i);
  return std::nullopt;
}
// The word that spells `value` in `words`.
template <class E, class Word, size_t N>
[[nodiscard]] constexpr Word spelling(const std::array<Word, N>& words, E value) {
  return words[static_cast<size_t>(value)];
}

struct Node;
using NodePtr = std::unique_ptr<Node>;

// The fields of a node but its children; what the kinds use is listed at NodeKind.
struct NodeData {
  NodeKind kind = NodeKind::Query;
  SourceRange range;
  FilterKind filter = FilterKind::Logical;  // set by sema
  std::string name;
  int64_t number = 0;
  int64_t high = 0;  // PathRepeat: the most repetitions (number: the fewest)
  PieceMask pieces = 0;
  Bitboard squares = 0;
  uint32_t flags = 0;
  int slot = -1;                      // variable slot; a sort's index in SemaInfo::sorts (sema)
  Keyword keyword = Keyword::None;    // Keyword, Message
  CompareOp compare = CompareOp::Eq;  // Compare
  ArithOp arith = ArithOp::Add;       // Arith
  Arrow arrow = Arrow::Right;         // AttackChain
  Transform transform = Transform::Flip;
  ImagineStep imagine_step = ImagineStep::Piece;  // ImagineSpec
  Side side = Side::White;                        // ImagineSpec SideToMove
  Metric metric = Metric::Dtm;                    // LineEnd
  std::vector<PinRole> pin_roles;                 // Pin
  std::vector<MoveRole> move_roles;               // Move
  std::vector<Keyword> directions;                // Ray
  std::vector<std::string> params;                // Function: the parameter names
};

struct Node : NodeData {
  std::vector<NodePtr> children;
  NodePtr expansion;  // a Call's function body with the arguments substituted (sema)

  Node() = default;
  Node(NodeKind k, SourceRange r) {
    kind = k;
    range = r;
  }

  [[nodiscard]] bool has(uint32_t flag) const { return (flags & flag) != 0; }
  [[nodiscard]] const Node& child(size_t i) const { return *children[i]; }
};

// A deep copy (expansion included).
[[nodiscard]] NodePtr clone(const Node& node);

// The number of nodes of a tree and its height (1 for a leaf), expansions included.
struct TreeSize {
  size_t nodes = 0;
  int height = 0;
};
[[nodiscard]] TreeSize tree_size(const Node& node);

// The keyword that names a node: its filter for Keyword, "not" for Not, "flipcolor" for that
// Transform, "dtsend" for that LineEnd ...; None for nodes written with symbols or names (Query,
// Block, numbers, designators, variables, calls, operators).
[[nodiscard]] Keyword keyword_of(const Node& node);

// "==", "+", "->": the spelling of an operator.
[[nodiscard]] std::string_view operator_text(CompareOp op);
[[nodiscard]] std::string_view operator_text(ArithOp op);
[[nodiscard]] std::string_view operator_text(Arrow arrow);

}  // namespace egtb::query
