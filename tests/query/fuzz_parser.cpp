// libFuzzer target: any input must lex, parse, analyse, print and compile without crashing,
// hanging or leaking; errors are ordinary results. Built with -DEGTB_FUZZ=ON under clang:
//   cmake -S . -B build-fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DEGTB_FUZZ=ON \
//         -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link,address,undefined"
//   ninja -C build-fuzz fuzz_query_parser && build-fuzz/tests/query/fuzz_query_parser -max_total_time=300
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
