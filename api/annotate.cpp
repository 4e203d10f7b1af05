#include "api/annotate.hpp"

#include <algorithm>

#include "api/game_stream.hpp"
#include "api/probe.hpp"
#include "egtb/core/fen.hpp"
#include "egtb/core/notation.hpp"
#include "egtb/store/line.hpp"
#include "query/mate.hpp"

namespace egtb::api {

namespace {

using pgn::Game;
using pgn::NodeId;

constexpr uint8_t OnlyMove = 1;           // NAG $1, "!"
constexpr uint8_t Blunder = 4;            // NAG $4, "??"
constexpr size_t ListedAlternatives = 6;  // a comment names at most these moves, then counts the rest

void add_nag(pgn::Node& node, uint8_t nag) {
  if (std::find(node.nags.begin(), node.nags.end(), nag) == node.nags.end()) node.nags.push_back(nag);
}

// "DTS 21": the depth of the position a move leads to (from its side to move, the move not
// counted: what the value comment after that move says); empty for a draw.
std::string depth_after(Rules rules, const MoveValue& m) {
  if (m.value() == Lasker::Draw) return {};
  return std::string(metric_name(metric_of(rules, m.value()))) + " " + std::to_string(m.score.depth());
}

// "Kd2 (DTS 21)": a move and the depth of the position it leads to.
std::string move_with_depth(Rules rules, const Position& pos, const MoveValue& m) {
  const std::string depth = depth_after(rules, m);
  return to_san(pos, m.move) + (depth.empty() ? "" : " (" + depth + ")");
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
  Annotator(const Tablebase& tb, Game& game, AnnotateLayout layout)
      : tb_(tb),
        rules_(tb.rules()),
        game_(game),
        layout_(layout),
        notes_(game.size()),
        mainline_(game.size(), false) {
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
  AnnotateLayout layout_;
  std::vector<std::vector<std::string>> notes_;  // per node: its mark, then its value
  std::vector<bool> mainline_;                   // per node
  GameAnnotation out_;

  [[nodiscard]] bool is_mainline(NodeId n) const { return mainline_[n]; }

  [[nodiscard]] pgn::Node& node(NodeId n) { return game_.node(n); }

  [[nodiscard]] bool is_end(NodeId n) { return node(n).first_child == pgn::NoNode; }

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
    if (layout_ == AnnotateLayout::Full || is_end(n)) notes_[n].push_back(value_note(n, *score));
    if (!out_.first && is_mainline(n)) out_.first = first_in_tables(n, *score);
    if (is_end(n)) return;
    const Expected<std::vector<MoveValue>, ProbeError> moves = move_values(tb_, pos);
    if (!moves) return note_missing(moves.error());
    mark_moves(n, *moves);
  }

  // "Black to move is stalemated; stalemate 3-0-0, 0-0 (vs-b-sb, p-bm), pure, model": the value
  // of the position, and the class of a stalemate (which is noted).
  std::string value_note(NodeId n, Score score) {
    const Position& pos = game_.position(n);
    std::string text = value_words(rules_, pos, score);
    if (const std::optional<query::StalemateClass> kind = query::stalemate_class(pos)) {
      text += "; " + kind->words();
      out_.stalemates.push_back({spot(n, n), *kind});
    }
    return text;
  }

  [[nodiscard]] const MoveValue& value_of(const std::vector<MoveValue>& moves, NodeId c) {
    return *std::find_if(moves.begin(), moves.end(),
                         [&](const MoveValue& m) { return m.move == node(c).move; });
  }

  // The moves that keep a position's value, best first: the first `fastest` of them also keep
  // its depth.
  struct Choices {
    std::vector<const MoveValue*> keeping;
    size_t fastest = 0;
  };

  // Marks each move played from n against every legal move (best first); a dual is noted once,
  // at the first move played that keeps the value.
  void mark_moves(NodeId n, const std::vector<MoveValue>& moves) {
    const MoveValue& best = moves.front();
    Choices choices;
    for (const MoveValue& m : moves)
      if (m.value() == best.value()) {
        choices.keeping.push_back(&m);
        if (m.score.depth() == best.score.depth()) ++choices.fastest;
      }
    bool dual_noted = false;
    for (NodeId c = node(n).first_child; c != pgn::NoNode; c = node(c).next_sibling) {
      const MoveValue& played = value_of(moves, c);
      if (played.value() != best.value()) {
        concede(n, c, played, best);
        continue;
      }
      const bool dual = is_win(best.value()) && choices.keeping.size() > 1;
      if (dual && !dual_noted) add_dual(n, c, choices);
      dual_noted = dual_noted || dual;
      mark_keeping(n, c, played, moves.size(), choices);
    }
  }

  // Marks a move that keeps the value: ° the only legal move, ! the only move that keeps the
  // value; for the winning side, " the unique fastest of several, ' one of several equally fast
  // ones, or "slower", then its duals, fastest first.
  void mark_keeping(NodeId n, NodeId c, const MoveValue& played, size_t legal, const Choices& choices) {
    if (legal == 1) return mark(c, 0, "° only legal move");
    if (choices.keeping.size() == 1)
      return mark(c, OnlyMove, layout_ == AnnotateLayout::Full ? "! only move" : "");
    if (!is_win(played.value())) return;
    const Position& pos = game_.position(n);
    const bool fastest = played.score.depth() == choices.keeping.front()->score.depth();
    const std::string text = !fastest ? "slower" : choices.fastest == 1 ? "\" unique best" : "' equi-optimal";
    mark(c, 0, text + "; dual: " + alternatives(pos, choices, played));
  }

  void mark(NodeId c, uint8_t nag, std::string text) {
    if (nag) add_nag(node(c), nag);
    if (!text.empty()) notes_[c].insert(notes_[c].begin(), std::move(text));
  }

  // "fastest Bb6, Be3 (DTS 0); slower Kc6 (DTS 4) and 6 more moves": the other moves that keep
  // the value, at most ListedAlternatives named.
  [[nodiscard]] std::string alternatives(const Position& pos, const Choices& choices,
                                         const MoveValue& played) const {
    std::vector<std::string> fastest, slower;
    size_t named = 0, more = 0;
    for (size_t i = 0; i < choices.keeping.size(); ++i) {
      const MoveValue& m = *choices.keeping[i];
      if (m.move == played.move) continue;
      if (named++ >= ListedAlternatives) {
        ++more;
      } else if (i < choices.fastest) {
        fastest.push_back(to_san(pos, m.move));
      } else {
        slower.push_back(move_with_depth(rules_, pos, m));
      }
    }
    std::vector<std::string> parts;
    if (!fastest.empty())
      parts.push_back("fastest " + joined(fastest) + " (" + depth_after(rules_, *choices.keeping.front()) +
                      ")");
    if (more > 0) slower.push_back(plural(more, "more move"));
    if (!slower.empty()) parts.push_back("slower " + joined(slower));
    std::string text;
    for (const std::string& p : parts) text += (text.empty() ? "" : "; ") + p;
    return text;
  }

  // Where the move played from n to c is (c == n: the position n itself, no move).
  [[nodiscard]] GameSpot spot(NodeId n, NodeId c) const {
    return {game_.ply(n), c == n ? "" : pgn::numbered_san(game_, c), is_mainline(c),
            to_fen(game_.position(n))};
  }

  void concede(NodeId n, NodeId c, const MoveValue& played, const MoveValue& best) {
    const Position& pos = game_.position(n);
    Concession k{spot(n, c), best.value(), played.value(), to_san(pos, best.move)};
    mark(c, Blunder,
         "?? " + std::string(category(rules_, k.before)) + " → " + std::string(category(rules_, k.after)) +
             "; best " + move_with_depth(rules_, pos, best));
    out_.concessions.push_back(std::move(k));
  }

  void add_dual(NodeId n, NodeId c, const Choices& choices) {
    const Position& pos = game_.position(n);
    Dual d{spot(n, c), {}, {}};
    for (size_t i = 0; i < choices.keeping.size(); ++i) {
      d.keeping.push_back(to_san(pos, choices.keeping[i]->move));
      if (i < choices.fastest) d.optimal.push_back(d.keeping.back());
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
  for (const StalemateEnd& e : out_.stalemates)
    if (e.spot.mainline) parts.push_back("ends in a " + e.kind.words());
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

GameAnnotation annotate(const Tablebase& tb, Game& game, AnnotateLayout layout) {
  return Annotator(tb, game, layout).run();
}

AnnotateTotals annotate_games(const Tablebase& tb, std::istream& in, const AnnotateOptions& options,
                              const std::function<void(const Game&, const GameAnnotation&)>& on_game,
                              const std::function<void(const pgn::PgnError&)>& on_error) {
  AnnotateTotals totals;
  const GameStreamCounts counts = for_each_game(
      in, {options.threads, options.progress, {}},
      [&](Game& game) -> GameDelivery {
        auto found = std::make_shared<GameAnnotation>(annotate(tb, game, options.layout));
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
