// A small Expected<T, E>: either a value or an error (GCC 12 has no std::expected).
#pragma once

#include <cassert>
#include <utility>
#include <variant>

namespace egtb {

template <class E>
struct Unexpected {
  E error;
};

template <class E>
Unexpected<std::decay_t<E>> unexpected(E&& e) {
  return {std::forward<E>(e)};
}

template <class T, class E>
class [[nodiscard]] Expected {
public:
  Expected(T value) : data_(std::in_place_index<0>, std::move(value)) {}
  Expected(Unexpected<E> u) : data_(std::in_place_index<1>, std::move(u.error)) {}

  [[nodiscard]] bool has_value() const { return data_.index() == 0; }
  explicit operator bool() const { return has_value(); }

  [[nodiscard]] const T& value() const& {
    assert(has_value());
    return std::get<0>(data_);
  }
  [[nodiscard]] T& value() & {
    assert(has_value());
    return std::get<0>(data_);
  }
  [[nodiscard]] T&& value() && {
    assert(has_value());
    return std::get<0>(std::move(data_));
  }
  [[nodiscard]] const E& error() const {
    assert(!has_value());
    return std::get<1>(data_);
  }
  const T& operator*() const& { return value(); }
  T& operator*() & { return value(); }
  const T* operator->() const { return &value(); }
  T* operator->() { return &value(); }

private:
  std::variant<T, E> data_;
};

}  // namespace egtb
