# egtb_warnings: the warning set every first-party target compiles with.
add_library(egtb_warnings INTERFACE)
target_compile_options(egtb_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion
  -Wnon-virtual-dtor -Wold-style-cast -Woverloaded-virtual -Wnull-dereference)
# GCC 12 reports false positives inside libstdc++ and Boost.Asio in code inlined from ours:
# -Wrestrict in std::string concatenation (GCC bug 105651), -Wnull-dereference in std::string built
# from an istreambuf_iterator and in the Asio scheduler, -Warray-bounds in std::sort of an array under
# 16 elements (indexing/index.cpp, indexing/index_order.cpp). A build with GCC 12 leaves them out, so
# that the build a user runs prints no warning; GCC 13 and clang (scripts/sanitize.sh) keep them.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  target_compile_options(egtb_warnings INTERFACE -Wno-restrict -Wno-null-dereference -Wno-array-bounds)
endif()
if(EGTB_WARNINGS_AS_ERRORS)
  target_compile_options(egtb_warnings INTERFACE -Werror)
endif()
