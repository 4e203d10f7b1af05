// A table query whose matches are pulled a few at a time (the Python module's iterator; a server
// streaming matches can use it the same way) instead of pushed to a callback.
//
// The scan (api::query_tables) runs on a thread of its own and hands each match, already turned
// into its JSON (api/json.hpp), to a queue of at most `capacity` matches: the scan waits while
// the queue is full, so memory stays small however many positions match and a consumer that
// stops early costs no more than it read. Matches come in the scan's fixed order. Destroying the
// stream stops the scan (within milliseconds, through ScanOptions::cancellation, which the
// stream's own replaces) and waits for its thread.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "api/json.hpp"
#include "egtb/core/cancellation.hpp"
#include "egtb/core/material.hpp"
#include "query/scan.hpp"

namespace egtb::api {

class QueryStream {
public:
  static constexpr size_t DefaultCapacity = 4096;

  // Starts scanning `tables` (any orientation) in `options.directory`, listing matches
  // (options.list is forced on). Throws MissingTableError at once for a table not there.
  QueryStream(query::ScanQuery query, std::vector<Material> tables, query::ScanOptions options,
              size_t capacity = DefaultCapacity);
  ~QueryStream();
  QueryStream(const QueryStream&) = delete;
  QueryStream& operator=(const QueryStream&) = delete;

  struct Batch {
    std::vector<Json> matches;  // in the scan's order
    bool finished = false;      // the scan is over and every match was handed out
  };

  // Up to `max` matches, waiting at most `wait` for the first of them (an empty batch that is not
  // finished: none yet). Rethrows, once, what the scan threw (StoreError for a damaged table).
  [[nodiscard]] Batch next(size_t max, std::chrono::milliseconds wait);

  // The scan's counts; complete once next() returned a finished batch.
  [[nodiscard]] query::ScanSummary summary() const;

private:
  struct Cancelled {};

  const query::ScanQuery query_;
  const std::vector<Material> tables_;
  const query::ScanOptions options_;
  const size_t capacity_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Json> queue_;
  bool done_ = false;
  Cancellation cancellation_;  // raised under mutex_ by the destructor, polled by the scan too
  std::exception_ptr error_;
  query::ScanSummary summary_;
  std::thread thread_;  // last: started when everything above is ready

  // The options of the scan: listing, and stopping when cancelled.
  query::ScanOptions listing(query::ScanOptions options);
  void scan();
  void push(Json match);
  void finish(query::ScanSummary summary, std::exception_ptr error);
};

}  // namespace egtb::api
