# egtb_settings: language level and build policy shared by every first-party target.
add_library(egtb_settings INTERFACE)
target_compile_features(egtb_settings INTERFACE cxx_std_20)
# Includes name files from the repository's root ("api/probe.hpp") and from src/ ("egtb/core/fen.hpp":
# the C++ folder egtb/ lives in src/ so that the root holds no folder named egtb, which Python would
# import as an empty namespace package instead of the egtb package; see python/CMakeLists.txt).
target_include_directories(egtb_settings INTERFACE ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/src)
target_compile_definitions(egtb_settings INTERFACE
  EGTB_VERSION="${PROJECT_VERSION}"
  $<$<CONFIG:Debug>:_GLIBCXX_ASSERTIONS>)

option(EGTB_SANITIZE "Build with address and undefined-behaviour sanitizers" OFF)
if(EGTB_SANITIZE)
  target_compile_options(egtb_settings INTERFACE -fsanitize=address,undefined -fno-omit-frame-pointer)
  target_link_options(egtb_settings INTERFACE -fsanitize=address,undefined)
endif()

# x86-64-v2 (SSE4.2 and POPCNT, every x86-64 processor since about 2009): without it std::popcount
# becomes a library call, which costs the index and the solver dearly.
if(CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64")
  option(EGTB_X86_64_V2 "Compile for x86-64-v2 (POPCNT, SSE4.2)" ON)
  if(EGTB_X86_64_V2)
    target_compile_options(egtb_settings INTERFACE -march=x86-64-v2)
  endif()
endif()

# Link-time optimisation in release builds: the solver's inner loops call the index (indexing/)
# and the attack tables (egtb/core) across translation units, and inlining them there makes
# table generation about 10% faster (KQRkr, egtb bench generate). Every first-party source is
# compiled to GCC's intermediate code. Without the tests, every program is linked with link-time
# optimisation. With them, only what users run is (egtb_link_time_optimised: the egtb program, the
# C library, the Python module): the sources are compiled to object code as well
# (-ffat-lto-objects), which the test programs and tools link without it (-fno-lto), instead of
# each compiling the libraries again when linked. GCC only: other compilers build without it.
option(EGTB_LTO "Link-time optimisation for release builds" ON)
if(EGTB_LTO)
  include(CheckIPOSupported)
  check_ipo_supported(RESULT egtb_ipo_supported OUTPUT egtb_ipo_output LANGUAGES CXX)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    message(STATUS "Link-time optimisation: only with GCC, not ${CMAKE_CXX_COMPILER_ID}")
  elseif(NOT egtb_ipo_supported)
    message(STATUS "Link-time optimisation not supported: ${egtb_ipo_output}")
  elseif(EGTB_BUILD_TESTS)
    target_compile_options(egtb_settings INTERFACE $<$<CONFIG:Release>:-flto=auto -ffat-lto-objects>)
    # $<TARGET_PROPERTY:EGTB_LTO_LINK> is that of the target being linked.
    target_link_options(egtb_settings INTERFACE
      $<$<CONFIG:Release>:$<IF:$<BOOL:$<TARGET_PROPERTY:EGTB_LTO_LINK>>,-flto=auto,-fno-lto>>)
  else()
    target_compile_options(egtb_settings INTERFACE $<$<CONFIG:Release>:-flto=auto -fno-fat-lto-objects>)
    target_link_options(egtb_settings INTERFACE $<$<CONFIG:Release>:-flto=auto>)
  endif()
  if(egtb_ipo_supported AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    # The static libraries through gcc-ar, which indexes the symbols of the intermediate code.
    set(CMAKE_AR ${CMAKE_CXX_COMPILER_AR})
    set(CMAKE_RANLIB ${CMAKE_CXX_COMPILER_RANLIB})
  endif()
endif()
# egtb_link_time_optimised(TARGET): TARGET, which users run, is linked with link-time optimisation
# when EGTB_LTO is on.
function(egtb_link_time_optimised target)
  set_property(TARGET ${target} PROPERTY EGTB_LTO_LINK ON)
endfunction()
