#include "query/game_selection.hpp"

#include <algorithm>

namespace egtb::query {

bool selects_game(const GameSelection& selection, const pgn::Game& game) {
  if (selection.gamenumber && !selection.gamenumber->contains(static_cast<int64_t>(game.number)))
    return false;
  return selection.result.empty() || game.result == selection.result;
}

GameSort::GameSort(const GameSelection& selection)
    : keys_(selection.sorts), matchcount_(selection.sort_matchcount) {}

void GameSort::add(Values& game, const std::vector<SortValue>& values) const {
  for (const SortValue& v : values) {
    std::optional<int64_t>& best = game.best[v.key];
    if (!best)
      best = v.value;
    else
      best = keys_[v.key].min ? std::min(*best, v.value) : std::max(*best, v.value);
  }
}

bool GameSort::before(const Values& a, const Values& b) const {
  for (size_t k = 0; k < keys_.size(); ++k) {
    const std::optional<int64_t>&x = a.best[k], &y = b.best[k];
    if (x == y) continue;
    if (!x || !y) return x.has_value();
    return keys_[k].min ? *x < *y : *x > *y;
  }
  return matchcount_ && a.matchcount > b.matchcount;
}

std::string GameSort::label(const Values& game) const {
  std::string text;
  for (size_t k = 0; k < keys_.size(); ++k) {
    if (!text.empty()) text += ' ';
    text += keys_[k].label + ": " + (game.best[k] ? std::to_string(*game.best[k]) : "none");
  }
  if (matchcount_)
    text += std::string(text.empty() ? "" : " ") + "matchcount: " + std::to_string(game.matchcount);
  return text;
}

}  // namespace egtb::query
