// Filters that read the position as a game state: side to move, check, mate, the pure/model/ideal
// (stale)mates, legality and reachability, FEN, table values, and the filters that evaluate at
// other positions (move legal, imagine, dtsend, dtmend).
#include "egtb/core/fen.hpp"
#include "egtb/core/movegen.hpp"
#include "query/filter.hpp"
#include "query/reachable.hpp"

namespace egtb::query::detail {

namespace {

// The pure, model and ideal (stale)mates are computed on boards a game can reach alone. Check,
// mate, stalemate and the moves take every board as CQLi does (generate_legal_moves): a side
// with no king or several is never in check, the other side's kings do not matter.
bool playable(const Position& pos) { return !validate(pos); }

// A filter named by one keyword (KeywordUse::Filter, but true and false); its kind is the table's.
class KeywordFilter final : public Filter {
public:
  explicit KeywordFilter(Keyword k) : Filter(keyword_info(k).kind), word_(k) {}

  bool matches(Context& ctx) const override {
    const Position& pos = *ctx.pos;
    switch (word_) {
      case Keyword::Wtm: return pos.side_to_move() == Color::White;
      case Keyword::Btm: return pos.side_to_move() == Color::Black;
      case Keyword::Check: return pos.in_check();
      case Keyword::Mate: ctx.terminal(); return ctx.facts.checkmate;
      case Keyword::Stalemate: ctx.terminal(); return ctx.facts.stalemate;
      case Keyword::LegalPosition: return !illegality(pos);
      case Keyword::ReachablePosition: return !unreachability(pos);
      default: break;
    }
    if (kind() == FilterKind::Set) return squares(ctx) != 0;
    int64_t n = 0;
    return number(ctx, n);
  }

  Bitboard squares(Context& ctx) const override {
    switch (word_) {
      case Keyword::PureMate: return ctx.mates().pure;
      case Keyword::ModelMate: return ctx.mates().model;
      case Keyword::IdealMate: return ctx.mates().ideal;
      case Keyword::PureStalemate: return ctx.stalemates().pure;
      case Keyword::ModelStalemate: return ctx.stalemates().model;
      case Keyword::IdealStalemate: return ctx.stalemates().ideal;
      default: return 0;
    }
  }

  bool number(Context& ctx, int64_t& out) const override {
    const Position& pos = *ctx.pos;
    switch (word_) {
      case Keyword::SideToMove: out = pos.side_to_move() == Color::White ? 1 : -1; return true;
      case Keyword::White: out = 1; return true;
      case Keyword::Black: out = -1; return true;
      default: break;
    }
    const ScoreTerm term = keyword_info(word_).term;
    if (term.kind == ScoreTerm::Kind::None) return false;
    const std::optional<int64_t> v = ctx.tables->term(term, pos);
    if (!v) return false;
    out = *v;
    return true;
  }

private:
  Keyword word_;
};

// legalposition / reachableposition as message text: "<Legal position>", "<Illegal position: ...>".
class Report final : public Filter {
public:
  explicit Report(bool reachable) : Filter(FilterKind::String), reachable_(reachable) {}
  bool matches(Context& ctx) const override {
    return reachable_ ? !unreachability(*ctx.pos) : !illegality(*ctx.pos);
  }
  bool text(Context& ctx, std::string& out) const override {
    const std::optional<std::string> why = reachable_ ? unreachability(*ctx.pos) : illegality(*ctx.pos);
    const std::string what = reachable_ ? "Reachable position" : "Legal position";
    out = why ? "<" + std::string(reachable_ ? "Unreachable" : "Illegal") + " position: " + *why + ">"
              : "<" + what + ">";
    return true;
  }

private:
  bool reachable_;
};

class CurrentFen final : public Filter {
public:
  CurrentFen() : Filter(FilterKind::String) {}
  bool matches(Context&) const override { return true; }
  bool text(Context& ctx, std::string& out) const override {
    out = to_fen(*ctx.pos);
    return true;
  }
};

class FenMatch final : public Filter {
public:
  explicit FenMatch(const Position& placement) : Filter(FilterKind::Logical), placement_(placement) {}
  bool matches(Context& ctx) const override {
    for (int i = 0; i < SquareCount; ++i)
      if (ctx.pos->piece_on(square_at(i)) != placement_.piece_on(square_at(i))) return false;
    return true;
  }

private:
  Position placement_;
};

// move legal [from X] [to Y] [capture Z] [promote T] [count] [all] [: f]
class MoveFilter final : public Filter {
public:
  MoveFilter(const MoveSpec& spec, Filters params, FilterPtr body, SourceRange range)
      : Filter(spec.count ? FilterKind::Numeric
               : spec.all ? FilterKind::Logical
                          : FilterKind::Set),
        roles_(spec.roles),
        params_(std::move(params)),
        body_(std::move(body)),
        all_(spec.all),
        promote_(spec.promote),
        value_is_to_(spec.value_is_to),
        squares_only_(spec.squares_only),
        kind_(spec.kind),
        pseudolegal_(spec.pseudolegal),
        every_move_(params_.empty() && !body_ && !promote_ && !squares_only_ && !pseudolegal_ &&
                    kind_.admits_every_move()),
        range_(range) {}

  bool matches(Context& ctx) const override {
    const Tally t = run(ctx);
    if (kind() == FilterKind::Set) return t.squares != 0;
    if (all_) return t.matched == t.considered;
    return true;
  }
  Bitboard squares(Context& ctx) const override { return run(ctx).squares; }
  bool number(Context& ctx, int64_t& out) const override {
    const Tally t = run(ctx);
    out = t.matched;
    return !all_ || t.matched == t.considered;
  }

private:
  struct Tally {
    int considered = 0;
    int matched = 0;
    Bitboard squares = 0;
  };
  std::vector<MoveRole> roles_;
  Filters params_;
  FilterPtr body_;
  bool all_;
  PieceMask promote_ = 0;
  bool value_is_to_ = false;
  bool squares_only_ = false;
  MoveKindFilter kind_;
  bool pseudolegal_ = false;
  bool every_move_;  // no parameter, body or kind: every legal move counts (CQL's rules aside)
  SourceRange range_;

  // The squares the parameters allow at this position, each role's sets intersected (every square
  // for a role without one), read once for all the moves: `move legal from Q to (a1|b2)` asks Q's
  // squares and a1|b2 once, not once a move.
  struct Allowed {
    Bitboard from = ~Bitboard{0};
    Bitboard to = ~Bitboard{0};
    Bitboard capture = ~Bitboard{0};
    Bitboard en_passant = ~Bitboard{0};
    bool capture_only = false;     // a capture parameter: the move must take a man
    bool en_passant_only = false;  // an enpassantsquare parameter: the move must be an e.p. capture
  };
  Allowed allowed(Context& ctx) const {
    Allowed a;
    for (size_t i = 0; i < params_.size(); ++i) {
      const Bitboard squares = params_[i]->squares(ctx);
      switch (roles_[i]) {
        case MoveRole::From: a.from &= squares; break;
        case MoveRole::To: a.to &= squares; break;
        case MoveRole::Capture:
          a.capture &= squares;
          a.capture_only = true;
          break;
        case MoveRole::EnPassantSquare:
          a.en_passant &= squares;
          a.en_passant_only = true;
          break;
        case MoveRole::Promote:
        case MoveRole::Body: break;
      }
    }
    return a;
  }

  bool admits(const Context& ctx, const Allowed& a, Move m) const {
    if (!kind_.admits(m)) return false;
    // CQL 6.2 sees an en passant capture only after the double step played before it (its
    // Attack::enpassantAttack reads the previous move): none at a game's start, whatever the FEN's
    // e.p. square, nor off a game.
    if (m.kind() == MoveKind::EnPassant && ctx.node == pgn::Game::Root) return false;
    if (m.kind() == MoveKind::Castling && moved_to(ctx, m)) return false;
    const Position& pos = *ctx.pos;
    if (!contains(a.from, m.from()) || !contains(a.to, m.to())) return false;
    if (a.capture_only && (pos.empty(victim(pos, m)) || !contains(a.capture, victim(pos, m)))) return false;
    if (a.en_passant_only && (m.kind() != MoveKind::EnPassant || !contains(a.en_passant, victim(pos, m))))
      return false;
    if (promote_) {
      if (m.kind() != MoveKind::Promotion) return false;
      const PieceMask bit =
          static_cast<PieceMask>(1u << to_index(make_piece(pos.side_to_move(), m.promotion())));
      if (!(promote_ & bit)) return false;
    }
    return true;
  }

  // CQL 6.2 reads castling in a game from its moves, not from the castling rights (its
  // Attack::castle): the king on e1 (e8) castles with the rook in its corner unless a move played
  // before in the game (not a null move) went to the king's or the rook's square. So the moves of
  // a game's position are generated with every right, and moved_to refuses the castlings the game
  // forbids. Example: from the FEN "r3k2r/8/8/8/8/8/8/R3K2R w - -" White castles either way; after
  // 1. Kf1 ... 2. Ke1 it does not. Off a game the position's rights stand.
  static Position with_every_castling(const Position& pos) {
    Position board = pos;
    constexpr auto every = [](auto... r) {
      return static_cast<CastlingRights>((static_cast<uint8_t>(r) | ...));
    };
    board.set_castling_rights(every(CastlingRight::WhiteShort, CastlingRight::WhiteLong,
                                    CastlingRight::BlackShort, CastlingRight::BlackLong));
    return board;
  }
  static bool moved_to(const Context& ctx, Move m) {
    if (!ctx.game) return false;
    const Bitboard squares = square_bb(m.from()) | square_bb(castling_rook(m).first);
    for (pgn::NodeId n = ctx.node; n != pgn::Game::Root; n = ctx.game->node(n).parent) {
      const Move played = ctx.game->node(n).move;
      if (!played.is_null() && (squares & square_bb(played.to()))) return true;
    }
    return false;
  }

  // The square of the man a move takes (the pawn's for an en passant capture), or its empty target.
  static Square victim(const Position& pos, Move m) {
    return m.kind() == MoveKind::EnPassant ? offset(m.to(), -pawn_push(pos.side_to_move())) : m.to();
  }

  // The square a pawn of the side to move captures en passant onto: the one the other side's
  // pawn passed over on the move played just before in the game (CQL's Attack::enpassantAttack),
  // else none. Unlike Position::ep_square it stays when the capture would leave the king in check.
  static Square passed_square(const Context& ctx) {
    if (!ctx.game || ctx.node == pgn::Game::Root) return Square::None;
    const Move m = ctx.game->node(ctx.node).move;
    const Position& pos = *ctx.pos;
    if (m.is_null() || m.kind() != MoveKind::Normal ||
        pos.piece_on(m.to()) != make_piece(~pos.side_to_move(), PieceType::Pawn) ||
        (to_index(m.to()) ^ to_index(m.from())) != 16)
      return Square::None;
    return offset(m.to(), pawn_push(pos.side_to_move()));
  }

  Tally run(Context& ctx) const {
    Tally t;
    const MoveList legal = ctx.game ? legal_moves(with_every_castling(*ctx.pos)) : legal_moves(*ctx.pos);
    if (every_move_ && !ctx.game) {
      // Off a game (tables, FEN lists) no castling is refused and no e.p. capture seen (admits).
      for (Move m : legal) {
        if (m.kind() == MoveKind::EnPassant) continue;
        t.squares |= square_bb(value_is_to_ ? m.to() : m.from());
        ++t.matched;
      }
      t.considered = t.matched;
      return t;
    }
    const Allowed a = allowed(ctx);
    if (!pseudolegal_) {
      for (Move m : legal) tally(ctx, a, m, t);
      return t;
    }
    for (Move m : pseudolegal_moves(*ctx.pos, passed_square(ctx))) tally(ctx, a, m, t);
    for (Move m : legal)
      if (m.kind() == MoveKind::Castling) tally(ctx, a, m, t);
    return t;
  }

  void tally(Context& ctx, const Allowed& a, Move m, Tally& t) const {
    if (!admits(ctx, a, m)) return;
    if (squares_only_ && m.kind() == MoveKind::Promotion && m.promotion() != PieceType::Queen) return;
    ++t.considered;
    if (body_ && !body_matches(ctx, m)) return;
    ++t.matched;
    t.squares |= square_bb(value_is_to_ ? m.to() : m.from());
  }

  // The body at the position after m. Kept out of tally's loop (a Position on the stack and its
  // scope's saved state), which runs once a legal move: the counts without a body do not pay for it.
  [[gnu::noinline]] bool body_matches(Context& ctx, Move m) const {
    ctx.step(range_);
    const Position next = ctx.pos->after(m);
    const PositionScope scope(ctx, next);
    return body_->matches(ctx);
  }
};

// imagine piece D --> S, swap X Y, sidetomove white|black|reverse ... : f
class Imagine final : public Filter {
public:
  Imagine(std::vector<ImagineAction> steps, Filters spec_args, FilterPtr body)
      : Filter(body->kind()), args_(std::move(spec_args)), body_(std::move(body)), specs_(std::move(steps)) {}
  bool matches(Context& ctx) const override {
    const Position p = imagined(ctx);
    const PositionScope scope(ctx, p);
    return body_->matches(ctx);
  }
  Bitboard squares(Context& ctx) const override {
    const Position p = imagined(ctx);
    const PositionScope scope(ctx, p);
    return body_->squares(ctx);
  }
  bool number(Context& ctx, int64_t& out) const override {
    const Position p = imagined(ctx);
    const PositionScope scope(ctx, p);
    return body_->number(ctx, out);
  }

private:
  Filters args_;  // two per piece/swap step, none for sidetomove
  FilterPtr body_;
  std::vector<ImagineAction> specs_;

  static void place(Position& p, PieceMask piece, Bitboard squares) {
    while (squares) {
      const Square s = pop_lsb(squares);
      if (!p.empty(s)) p.remove_piece(s);
      if (piece & EmptyBit) continue;
      p.put_piece(static_cast<Piece>(std::countr_zero(static_cast<unsigned>(piece))), s);
    }
  }
  static Color side(Side s, Color to_move) {
    switch (s) {
      case Side::White: return Color::White;
      case Side::Black: return Color::Black;
      case Side::Reverse: break;
    }
    return ~to_move;
  }
  static void swap(Position& p, Bitboard a, Bitboard b) {
    if (popcount(a) != 1 || popcount(b) != 1) return;
    const Square x = lsb(a), y = lsb(b);
    const Piece px = p.piece_on(x), py = p.piece_on(y);
    if (px != Piece::None) p.remove_piece(x);
    if (py != Piece::None) p.remove_piece(y);
    if (px != Piece::None) p.put_piece(px, y);
    if (py != Piece::None) p.put_piece(py, x);
  }

  Position imagined(Context& ctx) const {
    Position p = *ctx.pos;
    p.set_ep_square(Square::None);
    size_t arg = 0;
    for (const ImagineAction& s : specs_) {
      switch (s.step) {
        case ImagineStep::Piece:
          place(p, s.piece, args_[arg + 1]->squares(ctx));
          arg += 2;
          break;
        case ImagineStep::Swap:
          swap(p, args_[arg]->squares(ctx), args_[arg + 1]->squares(ctx));
          arg += 2;
          break;
        case ImagineStep::SideToMove: p.set_side_to_move(side(s.side, p.side_to_move())); break;
      }
    }
    return p;
  }
};

// dtsend / dtmend [any|all] : f, at the final positions of the optimal lines.
class LineEnd final : public Filter {
public:
  LineEnd(Metric metric, bool all, FilterPtr body, SourceRange range)
      : Filter(FilterKind::Logical), metric_(metric), all_(all), body_(std::move(body)), range_(range) {}
  bool matches(Context& ctx) const override {
    ctx.step(range_, true);
    if (ctx.line_ends.size() <= ctx.line_depth) ctx.line_ends.resize(ctx.line_depth + 1);
    std::vector<Position>& ends = ctx.line_ends[ctx.line_depth];
    ends.clear();
    ctx.tables->line_ends(*ctx.pos, metric_, ends);
    ++ctx.line_depth;
    bool any = false, every = true;
    for (size_t i = 0; i < ctx.line_ends[ctx.line_depth - 1].size(); ++i) {
      const Position end = ctx.line_ends[ctx.line_depth - 1][i];
      const PositionScope scope(ctx, end);
      const bool m = body_->matches(ctx);
      any = any || m;
      every = every && m;
    }
    --ctx.line_depth;
    return all_ ? any && every : any;
  }

private:
  Metric metric_;
  bool all_;
  FilterPtr body_;
  SourceRange range_;
};

}  // namespace

void Context::terminal() {
  if (facts.known & 1) return;
  facts.known |= 1;
  facts.checkmate = is_checkmate(*pos);
  facts.stalemate = is_stalemate(*pos);
}

const MateSets& Context::mates() {
  if (!(facts.known & 2)) {
    facts.known |= 2;
    facts.mates = playable(*pos) ? mate_sets(*pos) : MateSets{};
  }
  return facts.mates;
}

const MateSets& Context::stalemates() {
  if (!(facts.known & 4)) {
    facts.known |= 4;
    facts.stalemates = playable(*pos) ? stalemate_sets(*pos) : MateSets{};
  }
  return facts.stalemates;
}

FilterPtr make_keyword(Keyword keyword) { return std::make_unique<KeywordFilter>(keyword); }
FilterPtr make_report(bool reachable) { return std::make_unique<Report>(reachable); }
FilterPtr make_current_fen() { return std::make_unique<CurrentFen>(); }
FilterPtr make_fen_match(const Position& placement) { return std::make_unique<FenMatch>(placement); }
FilterPtr make_move(const MoveSpec& spec, Filters params, FilterPtr body, SourceRange range) {
  return std::make_unique<MoveFilter>(spec, std::move(params), std::move(body), range);
}
FilterPtr make_imagine(std::vector<ImagineAction> steps, Filters spec_args, FilterPtr body) {
  return std::make_unique<Imagine>(std::move(steps), std::move(spec_args), std::move(body));
}
FilterPtr make_line_end(Metric metric, bool all, FilterPtr body, SourceRange range) {
  return std::make_unique<LineEnd>(metric, all, std::move(body), range);
}

}  // namespace egtb::query::detail
