// The stack of constituents a path's or a line's search matches (filters_path.cpp,
// filters_line.cpp): depth first, as CQL's PathNode and SequenceBase compute them.
//
// The constituents still to match lie on a stack, the next one on top. A chain puts its own on
// the stack in their place; a repetition under way sits on the stack with the number of matches
// so far, and tries first what follows it (once it has matched enough), then one more match; a
// filter or a dash is the search's own (Search::filter, Search::dash), which goes on with compute()
// from the position it reaches. Example: "(A B)* C" from the start tries C, then A B C, then
// A B A B C ... until a constituent fails.
#pragma once

#include <string>
#include <vector>

#include "query/eval.hpp"
#include "query/filter.hpp"

namespace egtb::query::detail {

// A constituent waiting on the stack; a repetition under way counts its matches in `seen`.
struct Pending {
  const PathStep* step = nullptr;
  int64_t seen = -1;
};

// The deepest nesting of compute(): one or two levels per move or position of the game, so about
// 2,000 of them, within the stack of a worker thread.
inline constexpr int MaxSearchDepth = 4'000;

// The base of a search (CRTP): Search has compute(at), which goes on with the stack from a
// position, and filter(step, at) and dash(step, at) for those constituents.
template <class Search>
class Constituents {
protected:
  std::vector<Pending> stack_;

  explicit Constituents(const std::vector<PathStep>& steps) {
    for (auto s = steps.rbegin(); s != steps.rend(); ++s) stack_.push_back({&*s});
  }

  // One level deeper in compute() while the Level lives: bounded, so that a search over a game of
  // thousands of moves fails with a message (at `where`, the path or line named `filter`) instead
  // of overflowing the stack.
  struct Level {
    int& depth;
    ~Level() { --depth; }
  };
  [[nodiscard]] Level deeper(const SourceRange& where, const std::string& filter) {
    if (depth_ == MaxSearchDepth)
      throw RunError({where, "a " + filter + " searches more than " + std::to_string(MaxSearchDepth) +
                                 " steps deep (a line too long to follow move by move)"});
    return Level{++depth_};
  }

  // Matches the constituent on top from `at`, and puts it back.
  void match_top(pgn::NodeId at) {
    Search& search = static_cast<Search&>(*this);
    const Pending top = stack_.back();
    stack_.pop_back();
    const PathStep& step = *top.step;
    switch (step.kind) {
      case PathStep::Kind::Filter: search.filter(step, at); break;
      case PathStep::Kind::Dash: search.dash(step, at); break;
      case PathStep::Kind::Chain:
        for (auto s = step.steps.rbegin(); s != step.steps.rend(); ++s) stack_.push_back({&*s});
        search.compute(at);
        stack_.resize(stack_.size() - step.steps.size());
        break;
      case PathStep::Kind::Repeat: {
        const int64_t seen = top.seen < 0 ? 0 : top.seen;
        if (seen >= step.low) search.compute(at);
        if (seen < step.high) {
          stack_.push_back({&step, seen + 1});
          stack_.push_back({&step.steps.front()});
          search.compute(at);
          stack_.resize(stack_.size() - 2);
        }
        break;
      }
    }
    stack_.push_back(top);
  }

private:
  int depth_ = 0;
};

}  // namespace egtb::query::detail
