// When a long computation must end early: a flag that any thread may raise (a client that has
// gone, a server stopping, Ctrl-C in Python), an optional deadline on the steady clock, and an
// optional parent whose end is this one's too. The computation polls requested() often; it costs
// a relaxed atomic load per level and, where a deadline is set, one clock read (some 20 ns).
//
//   Cancellation server;                                     // raised on SIGTERM
//   Cancellation request(&server);                           // raised when the client leaves
//   Cancellation query(&request, Cancellation::Clock::now() + std::chrono::seconds(5));
//   while (!query.requested()) work();                       // ends on any of the three
//   query.past_deadline();                                   // true: it was the time budget
//   query.throw_if_requested();                              // or end it with Cancelled
#pragma once

#include <atomic>
#include <chrono>

namespace egtb {

// Thrown by Cancellation::throw_if_requested: the computation that polled it ended early (its
// caller, who raised the cancellation or set the deadline, knows why).
struct Cancelled {};

class Cancellation {
public:
  using Clock = std::chrono::steady_clock;

  explicit Cancellation(const Cancellation* parent = nullptr,
                        Clock::time_point deadline = Clock::time_point::max())
      : parent_(parent), deadline_(deadline) {}
  Cancellation(const Cancellation&) = delete;
  Cancellation& operator=(const Cancellation&) = delete;

  // Ends the computation (and those of the children); thread-safe.
  void cancel() noexcept { cancelled_.store(true, std::memory_order_relaxed); }

  // True once cancel() was called here or on a parent, or a deadline has passed.
  [[nodiscard]] bool requested() const noexcept {
    for (const Cancellation* c = this; c; c = c->parent_)
      if (c->cancelled_.load(std::memory_order_relaxed) ||
          (c->deadline_ != Clock::time_point::max() && Clock::now() >= c->deadline_))
        return true;
    return false;
  }

  // Throws Cancelled when requested().
  void throw_if_requested() const {
    if (requested()) throw Cancelled{};
  }

  // True when this object's own deadline has passed.
  [[nodiscard]] bool past_deadline() const noexcept { return Clock::now() >= deadline_; }

private:
  const Cancellation* parent_;
  Clock::time_point deadline_;
  std::atomic<bool> cancelled_ = false;
};

}  // namespace egtb
