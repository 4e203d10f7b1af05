# egtb_warnings: the warning set every first-party target compiles with.
add_library(egtb_warnings INTERFACE)
target_compile_options(egtb_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion
  -Wnon-virtual-dtor -Wold-style-cast -Woverloaded-virtual -Wnull-dereference)
# GCC 12 reports -Wrestrict false positives inside std::string concatenation (GCC bug 105651).
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  target_compile_options(egtb_warnings INTERFACE -Wno-restrict)
endif()
if(EGTB_WARNINGS_AS_ERRORS)
  target_compile_options(egtb_warnings INTERFACE -Werror)
  # GCC 12's optimiser also reports -Wnull-dereference and -Warray-bounds false positives inside
  # libstdc++ and Boost.Asio (std::string built from an istreambuf_iterator, std::sort of an array
  # under 16 elements, the Asio scheduler) in code inlined from ours: they stay warnings.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(egtb_warnings INTERFACE -Wno-error=null-dereference -Wno-error=array-bounds)
  endif()
endif()
