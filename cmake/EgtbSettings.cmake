# egtb_settings: language level and build policy shared by every first-party target.
add_library(egtb_settings INTERFACE)
target_compile_features(egtb_settings INTERFACE cxx_std_20)
target_include_directories(egtb_settings INTERFACE ${PROJECT_SOURCE_DIR})
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
# table generation about 10% faster (KQRkr, egtb bench generate). Only what users run is linked
# so (egtb_link_time_optimised: the egtb program, the C library, the Python module): every
# first-party source is compiled to GCC's intermediate code, and, when the tests are built, to
# object code as well (-ffat-lto-objects), which the test programs and the other tools link
# without link-time optimisation (-fno-lto). Otherwise each of them would compile the libraries
# again when linked. GCC only: other compilers build without it.
option(EGTB_LTO "Link-time optimisation for release builds" ON)
if(EGTB_LTO)
  include(CheckIPOSupported)
  check_ipo_supported(RESULT egtb_ipo_supported OUTPUT egtb_ipo_output LANGUAGES CXX)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    message(STATUS "Link-time optimisation: only with GCC, not ${CMAKE_CXX_COMPILER_ID}")
  elseif(NOT egtb_ipo_supported)
    message(STATUS "Link-time optimisation not supported: ${egtb_ipo_output}")
  else()
    if(EGTB_BUILD_TESTS)
      set(egtb_lto_objects -ffat-lto-objects)
    else()
      set(egtb_lto_objects -fno-fat-lto-objects)
    endif()
    target_compile_options(egtb_settings INTERFACE $<$<CONFIG:Release>:-flto=auto ${egtb_lto_objects}>)
    # The static libraries through gcc-ar, which indexes the symbols of the intermediate code.
    set(CMAKE_AR ${CMAKE_CXX_COMPILER_AR})
    set(CMAKE_RANLIB ${CMAKE_CXX_COMPILER_RANLIB})
    # $<TARGET_PROPERTY:EGTB_LTO_LINK> is that of the target being linked.
    target_link_options(egtb_settings INTERFACE
      $<$<CONFIG:Release>:$<IF:$<BOOL:$<TARGET_PROPERTY:EGTB_LTO_LINK>>,-flto=auto,-fno-lto>>)
  endif()
endif()
# egtb_link_time_optimised(TARGET): TARGET, which users run, is linked with link-time optimisation
# when EGTB_LTO is on.
function(egtb_link_time_optimised target)
  set_property(TARGET ${target} PROPERTY EGTB_LTO_LINK ON)
endfunction()
