#include "api/game_stream.hpp"

#include <tbb/parallel_pipeline.h>
#include <tbb/task_arena.h>

#include <memory>
#include <optional>

#include "pgn/replay.hpp"

namespace egtb::api {

namespace {

// Games in flight per thread: enough to keep every thread busy while one slow game is delivered.
constexpr size_t GamesPerThread = 8;

struct Item {
  std::optional<Expected<pgn::Game, pgn::PgnError>> read;
  GameDelivery delivery;
  uint64_t bytes = 0;  // input consumed when the game was read
};
using ItemPtr = std::shared_ptr<Item>;

}  // namespace

uint64_t count_games(std::istream& in) {
  pgn::Parser parser(in);
  while (parser.next()) {
  }
  return parser.games();
}

GameStreamCounts for_each_game(std::istream& in, const GameStreamOptions& options, const GameWork& work,
                               const std::function<void(const pgn::PgnError&)>& on_error) {
  pgn::Parser parser(in);
  tbb::task_arena arena(options.threads > 0 ? options.threads : tbb::task_arena::automatic);
  GameStreamCounts counts;
  const auto read = [&](tbb::flow_control& fc) -> ItemPtr {
    auto item = std::make_shared<Item>();
    if (!(options.stop && options.stop())) item->read = parser.next();
    if (!item->read) {
      fc.stop();
      return nullptr;
    }
    item->bytes = parser.offset();
    return item;
  };
  const auto process = [&](ItemPtr item) {
    Expected<pgn::Game, pgn::PgnError>& game = *item->read;
    if (game)
      if (std::optional<pgn::PgnError> e = pgn::replay(*game)) game = unexpected(std::move(*e));
    if (game) item->delivery = work(*game);
    return item;
  };
  const auto deliver = [&](ItemPtr item) {
    ++counts.games;
    if (!*item->read) {
      ++counts.errors;
      on_error(item->read->error());
    } else if (item->delivery) {
      item->delivery();
    }
    if (options.progress) options.progress({counts.games, item->bytes});
  };
  arena.execute([&] {
    tbb::parallel_pipeline(GamesPerThread * static_cast<size_t>(arena.max_concurrency()),
                           tbb::make_filter<void, ItemPtr>(tbb::filter_mode::serial_in_order, read) &
                               tbb::make_filter<ItemPtr, ItemPtr>(tbb::filter_mode::parallel, process) &
                               tbb::make_filter<ItemPtr, void>(tbb::filter_mode::serial_in_order, deliver));
  });
  return counts;
}

}  // namespace egtb::api
