#include "egtb/store/score.hpp"

namespace egtb {

std::string describe(Score s) {
  if (s.is_invalid()) return "invalid";
  if (s.is_unknown()) return "unknown";
  const std::string plies = std::to_string(s.depth());
  const std::string moves = std::to_string((s.depth() + 1) / 2);
  switch (s.value()) {
    case Lasker::Mates: return "mates in " + moves + " (DTM " + plies + ")";
    case Lasker::Stalemates: return "stalemates in " + moves + " (DTS " + plies + ")";
    case Lasker::Draw: return "draw";
    case Lasker::Stalemated: return "is stalemated (DTS " + plies + ")";
    case Lasker::Mated: return "is mated (DTM " + plies + ")";
  }
  return "invalid";
}

}  // namespace egtb
