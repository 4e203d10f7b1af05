// Compilation: an analysed syntax tree to a Program, a tree of filter objects built once and run
// on any number of positions (see eval.hpp). Transforms are expanded here: "flipcolor F"
// compiles F twice, the second time with its constants transformed (transform.hpp), and "shift"
// drops the shifts that move a square designator entirely off the board and keeps one of each
// group of shifts that give the same constants. Nested transforms multiply ("flip flip flip Q"
// compiles Q up to 8^3 times), so the work inside transforms is bounded: each filter compiled
// and each node read for the constants of a step counts one filter, and beyond
// MaxTransformedFilters compiling fails at the outermost transform.
#pragma once

#include <memory>
#include <string_view>

#include "egtb/core/expected.hpp"
#include "query/ast.hpp"
#include "query/sema.hpp"

namespace egtb::query {

inline constexpr size_t MaxTransformedFilters = 200000;

namespace detail {
class Filter;
}

class Program {
public:
  Program(Program&&) noexcept;
  Program& operator=(Program&&) noexcept;
  ~Program();

  [[nodiscard]] FilterKind kind() const { return kind_; }
  [[nodiscard]] const SemaInfo& info() const { return info_; }
  [[nodiscard]] const detail::Filter& root() const { return *root_; }

private:
  friend Expected<Program, QueryError> compile(const Node& root, const SemaInfo& info);
  Program(std::unique_ptr<detail::Filter> root, SemaInfo info, FilterKind kind);

  std::unique_ptr<detail::Filter> root_;
  SemaInfo info_;
  FilterKind kind_;
};

// root: a Query node annotated by analyze().
[[nodiscard]] Expected<Program, QueryError> compile(const Node& root, const SemaInfo& info);
// lex, parse, analyze and compile.
[[nodiscard]] Expected<Program, QueryError> compile(std::string_view source);

}  // namespace egtb::query
