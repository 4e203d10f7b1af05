#include "query/keywords.hpp"

#include <algorithm>
#include <array>

namespace egtb::query {

namespace {

using enum KeywordUse;
constexpr FilterKind Set = FilterKind::Set;
constexpr FilterKind Numeric = FilterKind::Numeric;

// One entry per keyword, sorted by spelling, in the order of the Keyword enumeration.
constexpr auto Table = std::to_array<KeywordInfo>({
    {.text = "abs", .keyword = Keyword::Abs, .use = Compound},
    {.text = "all", .keyword = Keyword::All},
    {.text = "and", .keyword = Keyword::And, .use = Operator},
    {.text = "any", .keyword = Keyword::Any},
    {.text = "attack", .keyword = Keyword::Attack, .directions = AllDirections},
    {.text = "attackedby", .keyword = Keyword::AttackedBy, .use = Operator},
    {.text = "attacks", .keyword = Keyword::Attacks, .use = Operator},
    {.text = "between", .keyword = Keyword::Between, .use = Compound},
    {.text = "black",
     .keyword = Keyword::Black,
     .use = Filter,
     .kind = Numeric,
     .colors_swapped = Keyword::White},
    {.text = "btm",
     .keyword = Keyword::Btm,
     .use = Filter,
     .fact = ScoreFact::BlackToMove,
     .colors_swapped = Keyword::Wtm},
    {.text = "capture", .keyword = Keyword::Capture},
    {.text = "castle", .keyword = Keyword::Castle},
    {.text = "check", .keyword = Keyword::Check, .use = Filter},
    {.text = "child", .keyword = Keyword::Child, .use = Compound, .kind = FilterKind::Position},
    {.text = "comment", .keyword = Keyword::Comment, .use = Compound},
    {.text = "count", .keyword = Keyword::Count},
    {.text = "cql", .keyword = Keyword::Cql},
    {.text = "currentposition",
     .keyword = Keyword::CurrentPosition,
     .use = Filter,
     .kind = FilterKind::Position},
    {.text = "dark", .keyword = Keyword::Dark, .use = Compound},
    {.text = "depth",
     .keyword = Keyword::Depth,
     .use = Filter,
     .kind = Numeric,
     .term = ScoreTerm::rule_depth(),
     .fact = ScoreFact::TermDefined},
    {.text = "diagonal", .keyword = Keyword::Diagonal, .directions = DiagonalDirections},
    {.text = "distance", .keyword = Keyword::Distance, .use = Compound},
    {.text = "down", .keyword = Keyword::Down, .directions = 16},
    {.text = "dte",
     .keyword = Keyword::Dte,
     .use = Filter,
     .kind = Numeric,
     .tables = true,
     .term = ScoreTerm::depth(Metric::Dte),
     .fact = ScoreFact::TermDefined},
    {.text = "dtm",
     .keyword = Keyword::Dtm,
     .use = Filter,
     .kind = Numeric,
     .tables = true,
     .term = ScoreTerm::depth(Metric::Dtm),
     .fact = ScoreFact::TermDefined},
    {.text = "dtmend",
     .keyword = Keyword::DtmEnd,
     .use = Compound,
     .tables = true,
     .term = ScoreTerm::depth(Metric::Dtm),
     .fact = ScoreFact::TermDefined},
    {.text = "dts",
     .keyword = Keyword::Dts,
     .use = Filter,
     .kind = Numeric,
     .tables = true,
     .term = ScoreTerm::depth(Metric::Dts),
     .fact = ScoreFact::TermDefined},
    {.text = "dtsend",
     .keyword = Keyword::DtsEnd,
     .use = Compound,
     .tables = true,
     .term = ScoreTerm::depth(Metric::Dts),
     .fact = ScoreFact::TermDefined},
    {.text = "else", .keyword = Keyword::Else},
    {.text = "enpassant", .keyword = Keyword::EnPassant},
    {.text = "false", .keyword = Keyword::False, .use = Filter},
    {.text = "fen", .keyword = Keyword::Fen, .use = Compound},
    {.text = "find", .keyword = Keyword::Find, .use = Compound},
    {.text = "flip", .keyword = Keyword::Flip, .use = Compound},
    {.text = "flipcolor", .keyword = Keyword::FlipColor, .use = Compound},
    {.text = "fliphorizontal", .keyword = Keyword::FlipHorizontal, .use = Compound},
    {.text = "flipvertical", .keyword = Keyword::FlipVertical, .use = Compound},
    {.text = "from", .keyword = Keyword::From},
    {.text = "function", .keyword = Keyword::Function, .use = Compound},
    {.text = "gamenumber", .keyword = Keyword::GameNumber, .use = Filter, .kind = Numeric},
    {.text = "horizontal", .keyword = Keyword::Horizontal, .directions = 4 | 64},
    {.text = "idealmate",
     .keyword = Keyword::IdealMate,
     .use = Filter,
     .kind = Set,
     .fact = ScoreFact::Mated},
    {.text = "idealstalemate",
     .keyword = Keyword::IdealStalemate,
     .use = Filter,
     .kind = Set,
     .fact = ScoreFact::Stalemated},
    {.text = "if", .keyword = Keyword::If, .use = Compound},
    {.text = "imagine", .keyword = Keyword::Imagine, .use = Compound},
    {.text = "in", .keyword = Keyword::In, .use = Operator},
    {.text = "initial", .keyword = Keyword::Initial, .use = Filter},
    {.text = "initialposition",
     .keyword = Keyword::InitialPosition,
     .use = Filter,
     .kind = FilterKind::Position},
    {.text = "input", .keyword = Keyword::Input},
    {.text = "lasker",
     .keyword = Keyword::Lasker,
     .use = Filter,
     .kind = Numeric,
     .tables = true,
     .term = ScoreTerm::lasker()},
    {.text = "left", .keyword = Keyword::Left, .directions = 64},
    {.text = "legal", .keyword = Keyword::Legal},
    {.text = "legalposition", .keyword = Keyword::LegalPosition, .use = Filter},
    {.text = "light", .keyword = Keyword::Light, .use = Compound},
    {.text = "mainline", .keyword = Keyword::MainLine, .use = Filter},
    {.text = "matchcount", .keyword = Keyword::MatchCount},
    {.text = "mate", .keyword = Keyword::Mate, .use = Filter, .fact = ScoreFact::Mated},
    {.text = "max", .keyword = Keyword::Max, .use = Compound},
    {.text = "maxdtm",
     .keyword = Keyword::MaxDtm,
     .use = Filter,
     .kind = Numeric,
     .tables = true,
     .term = ScoreTerm::max_depth(Metric::Dtm)},
    {.text = "maxdts",
     .keyword = Keyword::MaxDts,
     .use = Filter,
     .kind = Numeric,
     .tables = true,
     .term = ScoreTerm::max_depth(Metric::Dts)},
    {.text = "message", .keyword = Keyword::Message, .use = Compound},
    {.text = "min", .keyword = Keyword::Min, .use = Compound},
    {.text = "modelmate",
     .keyword = Keyword::ModelMate,
     .use = Filter,
     .kind = Set,
     .fact = ScoreFact::Mated},
    {.text = "modelstalemate",
     .keyword = Keyword::ModelStalemate,
     .use = Filter,
     .kind = Set,
     .fact = ScoreFact::Stalemated},
    {.text = "move", .keyword = Keyword::Move, .use = Compound},
    {.text = "movenumber", .keyword = Keyword::MoveNumber, .use = Filter, .kind = Numeric},
    {.text = "northeast", .keyword = Keyword::NorthEast, .directions = 2},
    {.text = "northwest", .keyword = Keyword::NorthWest, .directions = 128},
    {.text = "not", .keyword = Keyword::Not, .use = Compound},
    {.text = "notransform", .keyword = Keyword::NoTransform, .use = Compound},
    {.text = "null", .keyword = Keyword::Null},
    {.text = "or", .keyword = Keyword::Or, .use = Operator},
    {.text = "orthogonal", .keyword = Keyword::Orthogonal, .directions = OrthogonalDirections},
    {.text = "output", .keyword = Keyword::Output},
    {.text = "parent", .keyword = Keyword::Parent, .use = Filter, .kind = FilterKind::Position},
    {.text = "piece", .keyword = Keyword::Piece, .use = Compound},
    {.text = "pin", .keyword = Keyword::Pin, .use = Compound},
    {.text = "ply", .keyword = Keyword::Ply, .use = Filter, .kind = Numeric},
    {.text = "position", .keyword = Keyword::Position, .use = Compound, .kind = FilterKind::Position},
    {.text = "positionid", .keyword = Keyword::PositionId, .use = Filter, .kind = Numeric},
    {.text = "power", .keyword = Keyword::Power, .use = Compound},
    {.text = "previous", .keyword = Keyword::Previous},
    {.text = "primary", .keyword = Keyword::Primary},
    {.text = "promote", .keyword = Keyword::Promote},
    {.text = "pseudolegal", .keyword = Keyword::PseudoLegal},
    {.text = "puremate", .keyword = Keyword::PureMate, .use = Filter, .kind = Set, .fact = ScoreFact::Mated},
    {.text = "purestalemate",
     .keyword = Keyword::PureStalemate,
     .use = Filter,
     .kind = Set,
     .fact = ScoreFact::Stalemated},
    {.text = "quiet", .keyword = Keyword::Quiet},
    {.text = "ray", .keyword = Keyword::Ray, .use = Compound},
    {.text = "reachableposition", .keyword = Keyword::ReachablePosition, .use = Filter, .symmetric = false},
    {.text = "result", .keyword = Keyword::Result, .use = Compound},
    {.text = "reverse", .keyword = Keyword::Reverse},
    {.text = "reversecolor", .keyword = Keyword::ReverseColor, .use = Compound},
    {.text = "right", .keyword = Keyword::Right, .directions = 4},
    {.text = "rotate90", .keyword = Keyword::Rotate90, .use = Compound},
    {.text = "secondary", .keyword = Keyword::Secondary},
    {.text = "shift", .keyword = Keyword::Shift, .use = Compound},
    {.text = "shifthorizontal", .keyword = Keyword::ShiftHorizontal, .use = Compound},
    {.text = "shiftvertical", .keyword = Keyword::ShiftVertical, .use = Compound},
    {.text = "sidetomove", .keyword = Keyword::SideToMove, .use = Filter, .kind = Numeric},
    {.text = "silent", .keyword = Keyword::Silent},
    {.text = "sort", .keyword = Keyword::Sort, .use = Compound},
    {.text = "southeast", .keyword = Keyword::SouthEast, .directions = 8},
    {.text = "southwest", .keyword = Keyword::SouthWest, .directions = 32},
    {.text = "square", .keyword = Keyword::Square, .use = Compound},
    {.text = "stalemate", .keyword = Keyword::Stalemate, .use = Filter, .fact = ScoreFact::Stalemated},
    {.text = "swap", .keyword = Keyword::Swap},
    {.text = "terminal", .keyword = Keyword::Terminal, .use = Filter},
    {.text = "then", .keyword = Keyword::Then},
    {.text = "through", .keyword = Keyword::Through},
    {.text = "to", .keyword = Keyword::To},
    {.text = "true", .keyword = Keyword::True, .use = Filter},
    {.text = "up", .keyword = Keyword::Up, .directions = 1},
    {.text = "value",
     .keyword = Keyword::Value,
     .use = Filter,
     .kind = Numeric,
     .tables = true,
     .term = ScoreTerm::value()},
    {.text = "variation", .keyword = Keyword::Variation, .use = Filter},
    {.text = "variations", .keyword = Keyword::Variations},
    {.text = "vertical", .keyword = Keyword::Vertical, .directions = 1 | 16},
    {.text = "white",
     .keyword = Keyword::White,
     .use = Filter,
     .kind = Numeric,
     .colors_swapped = Keyword::Black},
    {.text = "wtm",
     .keyword = Keyword::Wtm,
     .use = Filter,
     .fact = ScoreFact::WhiteToMove,
     .colors_swapped = Keyword::Btm},
    {.text = "xray", .keyword = Keyword::XRay, .use = Compound},
});

constexpr bool table_in_order() {
  for (size_t i = 0; i < Table.size(); ++i) {
    if (Table[i].keyword != static_cast<Keyword>(i)) return false;
    if (i > 0 && !(Table[i - 1].text < Table[i].text)) return false;
  }
  return Table.size() == static_cast<size_t>(Keyword::None);
}
static_assert(table_in_order(),
              "one entry per keyword, in the order of the enumeration and of the spellings");

constexpr KeywordInfo NoKeyword{};

}  // namespace

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

const KeywordInfo& keyword_info(Keyword keyword) {
  const auto i = static_cast<size_t>(keyword);
  return i < Table.size() ? Table[i] : NoKeyword;
}

std::string_view keyword_text(Keyword keyword) { return keyword_info(keyword).text; }

std::string quoted(Keyword keyword) { return "'" + std::string(keyword_text(keyword)) + "'"; }

std::optional<Keyword> find_keyword(std::string_view word) {
  const auto at = std::lower_bound(Table.begin(), Table.end(), word,
                                   [](const KeywordInfo& k, std::string_view w) { return k.text < w; });
  if (at == Table.end() || at->text != word) return std::nullopt;
  return at->keyword;
}

}  // namespace egtb::query
