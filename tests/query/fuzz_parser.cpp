// libFuzzer target: any input must lex, parse, analyse, print and compile without crashing,
// hanging or leaking; errors are ordinary results. fuzz_eval.cpp also evaluates. Built with
// -DEGTB_FUZZ=ON under clang 16 or later (egtb/core uses C++20's parenthesized aggregate
// initialization, and indexing/kk_map.hpp needs more constexpr steps than clang's default):
//   cmake -S . -B build-fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++-16 -DEGTB_FUZZ=ON \
//         -DCMAKE_BUILD_TYPE=RelWithDebInfo -DEGTB_LTO=OFF \
//         -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link,address,undefined -fconstexpr-steps=100000000"
//   ninja -C build-fuzz fuzz_query_parser fuzz_query_eval
//   mkdir -p build-fuzz/corpus  # new inputs go to the first directory, the seeds stay as they are
//   build-fuzz/tests/query/fuzz_query_parser build-fuzz/corpus tests/fuzz/corpus/query -max_total_time=300
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "query/compile.hpp"
#include "query/parser.hpp"
#include "query/print.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto tree = egtb::query::parse(text);
  if (!tree) {
    (void)egtb::query::format_error(tree.error(), text);
    return 0;
  }
  (void)egtb::query::to_sexpr(**tree);
  const auto info = egtb::query::analyze(**tree);
  if (!info) return 0;
  (void)egtb::query::compile(**tree, *info);
  return 0;
}
