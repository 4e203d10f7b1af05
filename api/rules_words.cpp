#include "api/rules_words.hpp"

namespace egtb::api {

ValueWords value_words_of(Rules r, Lasker v) {
  if (v == Lasker::Draw) return {"draw", "Drawing", "draws", ""};
  if (r == Rules::StalemateWins)
    return is_win(v) ? ValueWords{"mate or stalemate the opponent", "Winning: mate or stalemate", "wins",
                                  "mate or stalemate in"}
                     : ValueWords{"be mated or stalemated", "Losing: mated or stalemated", "loses",
                                  "mated or stalemated in"};
  switch (v) {
    case Lasker::Mates: return {"mate", "Winning: mate", "mates", "mate in"};
    case Lasker::Stalemates:
      return {"stalemate the opponent", "Winning: stalemate the opponent", "forces stalemate",
              "stalemate in"};
    case Lasker::Stalemated: return {"be stalemated", "Losing: stalemated", "is stalemated", "stalemated in"};
    case Lasker::Mated:
    case Lasker::Draw: break;
  }
  return {"be mated", "Losing: mated", "is mated", "mated in"};
}

RulesWords rules_words(Rules r) {
  switch (r) {
    case Rules::StalemateWins:
      return {"stalemate wins like mate",
              "a stalemated side loses · DTE = plies to the first mate or stalemate", "is stalemated: loses"};
    case Rules::StalematePasses:
      return {"a stalemated side passes",
              "a stalemated side passes (--) · DTM = plies to mate, passes counted",
              "is stalemated and passes"};
    case Rules::Lasker: break;
  }
  return {"stalemate is a lesser win", "DTM = plies to mate, DTS = plies to stalemate", "is stalemated"};
}

}  // namespace egtb::api
