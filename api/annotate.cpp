#include "api/annotate.hpp"

#include <algorithm>

#include "api/game_stream.hpp"
#include "api/probe.hpp"
#include "egtb/core/fen.hpp"
#include "egtb/core/notation.hpp"
#include "egtb/store/line.hpp"

namespace egtb::api {

namespace {

using pgn::Game;
using pgn::NodeId;

constexpr uint8_t GoodMove = 1;           // NAG $1, "!"
constexpr size_t ListedAlternatives = 6;  // a dual's comment names at most these, then counts the rest
constexpr uint8_t Mistake = 2;            // NAG $2, "?"

void add_nag(pgn::Node& node, uint8_t nag) {
  if (std::find(node.nags.begin(), node.nags.end(), nag) == node.nags.end()) node.nags.push_back(nag);
}

// "Kd2 (DTS 21)": a move and the depth it leads to for its mover, the move included.
std::string move_with_depth(Rules rules, const Position& pos, const MoveValue& m) {
  std::string text = to_san(pos, m.move);
  if (m.value() == Lasker::Draw) return text;
  return text + " (" + std::string(metric_name(metric_of(rules, m.value()))) + " " +
         std::to_string(m.score.depth() + 1) + ")";
}

// "a, b and c".
std::string joined(const std::vector<std::string>& items) {
  std::string text;
  for (size_t i = 0; i < items.size(); ++i)
    text += (i == 0 ? "" : i + 1 == items.size() ? " and " : ", ") + items[i];
  return text;
}

std::string plural(uint64_t n, const std::string& word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

class Annotator {
public:
  Annotator(const Tablebase& tb, Game& game)
      : tb_(tb), rules_(tb.rules()), game_(game), notes_(game.size()), mainline_(game.size(), false) {
    mainline_[Game::Root] = true;
    for (NodeId n : game.mainline()) mainline_[n] = true;
  }

  GameAnnotation run() {
    out_.game = game_.number;
    out_.white = std::string(game_.tag("White").value_or(""));
    out_.black = std::string(game_.tag("Black").value_or(""));
    out_.event = std::string(game_.tag("Event").value_or(""));
    out_.result = std::string(game_.tag("Result").value_or(game_.result));
    for (NodeId n : game_.preorder()) visit(n);
    out_.value_duals = out_.duals.size();
    out_.depth_duals = static_cast<uint64_t>(std::count_if(
        out_.duals.begin(), out_.duals.end(), [](const Dual& d) { return d.optimal.size() > 1; }));
    write_notes();
    return std::move(out_);
  }

private:
  const Tablebase& tb_;
  Rules rules_;
  Game& game_;
  std::vector<std::vector<std::string>> notes_;  // per node: its mark, then its value
  std::vector<bool> mainline_;                   // per node
  GameAnnotation out_;

  [[nodiscard]] bool is_mainline(NodeId n) const { return mainline_[n]; }

  [[nodiscard]] pgn::Node& node(NodeId n) { return game_.node(n); }

  // The score of a position the tables can hold; a missing table is counted and named.
  std::optional<Score> probe(const Position& pos) {
    if (!within_tables(pos)) return std::nullopt;
    const Expected<Score, ProbeError> score = tb_.probe(pos);
    if (score) return *score;
    note_missing(score.error());
    return std::nullopt;
  }

  void note_missing(const ProbeError& e) {
    if (e.kind != ProbeError::Kind::MissingTable) return;
    ++out_.unprobed;
    out_.missing_tables.insert(e.table);
  }

  void visit(NodeId n) {
    const Position& pos = game_.position(n);
    const std::optional<Score> score = probe(pos);
    if (!score) return;
    ++out_.positions;
    notes_[n].push_back(value_words(rules_, pos, *score));
    if (!out_.first && is_mainline(n)) out_.first = first_in_tables(n, *score);
    if (node(n).first_child == pgn::NoNode) return;
    const Expected<std::vector<MoveValue>, ProbeError> moves = move_values(tb_, pos);
    if (!moves) return note_missing(moves.error());
    mark_moves(n, *moves);
  }

  [[nodiscard]] pgn::Node& child_with(NodeId parent, Move m) {
    NodeId c = node(parent).first_child;
    while (node(c).move != m) c = node(c).next_sibling;
    return node(c);
  }

  // Marks each move played from n against every legal move (best first).
  void mark_moves(NodeId n, const std::vector<MoveValue>& moves) {
    const Position& pos = game_.position(n);
    const MoveValue& best = moves.front();
    std::vector<const MoveValue*> keeping;
    for (const MoveValue& m : moves)
      if (m.value() == best.value()) keeping.push_back(&m);
    const bool winning = is_win(best.value());
    if (winning && keeping.size() > 1) add_dual(n, keeping);
    for (NodeId c = node(n).first_child; c != pgn::NoNode; c = node(c).next_sibling) {
      const MoveValue& played = *std::find_if(moves.begin(), moves.end(),
                                              [&](const MoveValue& m) { return m.move == node(c).move; });
      if (played.value() != best.value())
        concede(n, c, played, best);
      else if (keeping.size() == 1 && moves.size() > 1)
        mark(c, GoodMove, "only move");
      else if (winning && keeping.size() > 1)
        mark(c, 0, "dual: also " + alternatives(pos, keeping, played));
    }
  }

  void mark(NodeId c, uint8_t nag, std::string text) {
    if (nag) add_nag(node(c), nag);
    notes_[c].insert(notes_[c].begin(), std::move(text));
  }

  [[nodiscard]] std::string alternatives(const Position& pos, const std::vector<const MoveValue*>& keeping,
                                         const MoveValue& played) const {
    std::vector<std::string> others;
    size_t more = 0;
    for (const MoveValue* m : keeping) {
      if (m->move == played.move) continue;
      if (others.size() < ListedAlternatives)
        others.push_back(move_with_depth(rules_, pos, *m));
      else
        ++more;
    }
    if (more > 0) others.push_back(plural(more, "more move"));
    return joined(others);
  }

  [[nodiscard]] GameSpot spot(NodeId n, std::string move) const {
    return {game_.ply(n), std::move(move), is_mainline(n), to_fen(game_.position(n))};
  }

  void concede(NodeId n, NodeId c, const MoveValue& played, const MoveValue& best) {
    const Position& pos = game_.position(n);
    Concession k{spot(n, pgn::numbered_san(game_, c)), best.value(), played.value(), to_san(pos, best.move)};
    mark(c, Mistake,
         std::string(category(rules_, k.before)) + " → " + std::string(category(rules_, k.after)) +
             "; best " + move_with_depth(rules_, pos, best));
    out_.concessions.push_back(std::move(k));
  }

  void add_dual(NodeId n, const std::vector<const MoveValue*>& keeping) {
    const Position& pos = game_.position(n);
    Dual d{spot(n, pgn::numbered_san(game_, node(n).first_child)), {}, {}};
    for (const MoveValue* m : keeping) {
      d.keeping.push_back(to_san(pos, m->move));
      if (m->score.depth() == keeping.front()->score.depth()) d.optimal.push_back(d.keeping.back());
    }
    out_.duals.push_back(std::move(d));
  }

  [[nodiscard]] FirstInTables first_in_tables(NodeId n, Score score) const {
    const Position& pos = game_.position(n);
    FirstInTables f{game_.ply(n),
                    n == Game::Root ? "" : pgn::numbered_san(game_, n),
                    to_fen(pos),
                    score,
                    pos.side_to_move(),
                    value_words(rules_, pos, score),
                    implied_result(rules_, score, pos.side_to_move()),
                    std::nullopt};
    if (out_.result == "1-0" || out_.result == "0-1" || out_.result == "1/2-1/2")
      f.agrees = f.implied_result == out_.result;
    return f;
  }

  void write_notes();
  [[nodiscard]] std::string summary() const;
};

void Annotator::write_notes() {
  for (NodeId n = 0; n < game_.size(); ++n) {
    if (notes_[n].empty()) continue;
    std::string text;
    for (const std::string& note : notes_[n]) text += (text.empty() ? "" : "; ") + note;
    node(n).comments.push_back(std::move(text));
  }
  out_.summary = summary();
  if (!out_.summary.empty()) {
    std::vector<std::string>& root = node(Game::Root).comments;
    root.insert(root.begin(), out_.summary);
  }
}

// The findings in words: "first in the tables after 3... Kb1: White to move forces stalemate: DTS
// 27 plies, 14 moves (optimal play: 1/2-1/2, as the result says); 1 concession: 5. Kd2; 2 duals
// (1 at the optimal depth): 4. Kc2 and 6. Kc3; 3 positions not probed (missing: KRkn)".
std::string Annotator::summary() const {
  if (!out_.first && out_.positions == 0 && out_.unprobed == 0) return {};
  std::vector<std::string> parts;
  if (const auto& f = out_.first) {
    const std::string where = f->after.empty() ? "at the start" : "after " + f->after;
    std::string agreement =
        f->agrees ? (*f->agrees ? ", as the result says" : "; the result says " + out_.result) : "";
    parts.push_back("first in the tables " + where + ": " + f->value +
                    " (optimal play: " + f->implied_result + agreement + ")");
  }
  std::vector<std::string> moves;
  for (const Concession& k : out_.concessions) moves.push_back(k.spot.move);
  if (!moves.empty()) parts.push_back(plural(moves.size(), "concession") + ": " + joined(moves));
  moves.clear();
  for (const Dual& d : out_.duals) moves.push_back(d.spot.move);
  if (!moves.empty())
    parts.push_back(plural(moves.size(), "dual") + " (" + std::to_string(out_.depth_duals) +
                    " at the optimal depth): " + joined(moves));
  if (out_.unprobed > 0) {
    const std::vector<std::string> tables(out_.missing_tables.begin(), out_.missing_tables.end());
    parts.push_back(plural(out_.unprobed, "position") + " not probed (missing: " + joined(tables) + ")");
  }
  std::string text;
  for (const std::string& p : parts) text += (text.empty() ? "" : "; ") + p;
  return text;
}

void add(AnnotateTotals& totals, const GameAnnotation& a) {
  totals.positions += a.positions;
  totals.concessions += a.concessions.size();
  totals.value_duals += a.value_duals;
  totals.depth_duals += a.depth_duals;
  totals.unprobed += a.unprobed;
  totals.missing_tables.insert(a.missing_tables.begin(), a.missing_tables.end());
}

}  // namespace

GameAnnotation annotate(const Tablebase& tb, Game& game) { return Annotator(tb, game).run(); }

AnnotateTotals annotate_games(const Tablebase& tb, std::istream& in, const AnnotateOptions& options,
                              const std::function<void(const Game&, const GameAnnotation&)>& on_game,
                              const std::function<void(const pgn::PgnError&)>& on_error) {
  AnnotateTotals totals;
  const GameStreamCounts counts = for_each_game(
      in, {options.threads, options.progress, {}},
      [&](Game& game) -> GameDelivery {
        auto found = std::make_shared<GameAnnotation>(annotate(tb, game));
        return [&, found] {
          add(totals, *found);
          on_game(game, *found);
        };
      },
      on_error);
  totals.games = counts.games;
  totals.errors = counts.errors;
  return totals;
}

}  // namespace egtb::api
