#include "query/game_selection.hpp"

namespace egtb::query {

bool selects_game(const GameSelection& selection, const pgn::Game& game) {
  if (selection.gamenumber && !selection.gamenumber->contains(static_cast<int64_t>(game.number)))
    return false;
  return selection.result.empty() || game.result == selection.result;
}

}  // namespace egtb::query
