#include "api/query_stream.hpp"

#include "api/query.hpp"

namespace egtb::api {

QueryStream::QueryStream(query::ScanQuery query, std::vector<Material> tables, query::ScanOptions options,
                         size_t capacity)
    : query_(std::move(query)),
      tables_(std::move(tables)),
      options_(listing(std::move(options))),
      capacity_(capacity > 0 ? capacity : 1) {
  check_tables_present(tables_, options_);
  thread_ = std::thread([this] { scan(); });
}

query::ScanOptions QueryStream::listing(query::ScanOptions options) {
  options.list = true;
  options.cancellation = &cancellation_;
  return options;
}

QueryStream::~QueryStream() {
  {
    const std::lock_guard lock(mutex_);
    cancellation_.cancel();
  }
  changed_.notify_all();
  thread_.join();
}

void QueryStream::scan() {
  try {
    finish(query_tables(query_, tables_, options_,
                        [this](const query::Match& m) { push(to_json(m, options_.rules)); }),
           nullptr);
  } catch (const Cancelled&) {
    finish({}, nullptr);
  } catch (...) {
    finish({}, std::current_exception());
  }
}

void QueryStream::push(Json match) {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [this] { return cancellation_.requested() || queue_.size() < capacity_; });
  if (cancellation_.requested()) throw Cancelled{};
  queue_.push_back(std::move(match));
  lock.unlock();
  changed_.notify_all();
}

void QueryStream::finish(query::ScanSummary summary, std::exception_ptr error) {
  {
    const std::lock_guard lock(mutex_);
    summary_ = std::move(summary);
    error_ = std::move(error);
    done_ = true;
  }
  changed_.notify_all();
}

QueryStream::Batch QueryStream::next(size_t max, std::chrono::milliseconds wait) {
  std::unique_lock lock(mutex_);
  changed_.wait_for(lock, wait, [this] { return done_ || !queue_.empty(); });
  Batch batch;
  while (!queue_.empty() && batch.matches.size() < max) {
    batch.matches.push_back(std::move(queue_.front()));
    queue_.pop_front();
  }
  if (queue_.empty() && done_) {
    if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
    batch.finished = true;
  }
  lock.unlock();
  changed_.notify_all();
  return batch;
}

query::ScanSummary QueryStream::summary() const {
  const std::lock_guard lock(mutex_);
  return summary_;
}

}  // namespace egtb::api
