# Third-party libraries, all from Debian packages, behind deps::* aliases.
# Threads::Threads: the query stream's thread (api/), the HTTP server's, Gaviota's.
find_package(Threads REQUIRED)

find_package(TBB 2021 CONFIG REQUIRED)
add_library(deps::tbb INTERFACE IMPORTED)
target_link_libraries(deps::tbb INTERFACE TBB::tbb)

find_package(zstd CONFIG REQUIRED)
add_library(deps::zstd INTERFACE IMPORTED)
if(TARGET zstd::libzstd_shared)
  target_link_libraries(deps::zstd INTERFACE zstd::libzstd_shared)
else()
  target_link_libraries(deps::zstd INTERFACE zstd::libzstd_static)
endif()

# xxHash ships no CMake config: header-only use through XXH_INLINE_ALL.
find_path(XXHASH_INCLUDE_DIR xxhash.h REQUIRED)
add_library(deps::xxhash INTERFACE IMPORTED)
target_include_directories(deps::xxhash INTERFACE ${XXHASH_INCLUDE_DIR})
target_compile_definitions(deps::xxhash INTERFACE XXH_INLINE_ALL)

find_package(Boost 1.74 REQUIRED COMPONENTS program_options)
add_library(deps::program_options INTERFACE IMPORTED)
target_link_libraries(deps::program_options INTERFACE Boost::program_options)

# Boost.Beast and Boost.Asio, header-only (libboost-dev, which libboost-program-options-dev brings),
# for the HTTP server of `egtb serve`, with the threads they run on.
add_library(deps::beast INTERFACE IMPORTED)
target_link_libraries(deps::beast INTERFACE Boost::headers Threads::Threads)

find_package(nlohmann_json 3 REQUIRED)
add_library(deps::json INTERFACE IMPORTED)
target_link_libraries(deps::json INTERFACE nlohmann_json::nlohmann_json)

# Gaviota DTM tables (libgaviotatb-dev), optional: the independent oracle of retro/gaviota.cpp.
# deps::gaviota exists only when both the library and its header are found.
find_library(GAVIOTATB gaviotatb)
find_path(GAVIOTATB_INCLUDE_DIR gtb-probe.h)
if(GAVIOTATB AND GAVIOTATB_INCLUDE_DIR)
  add_library(deps::gaviota INTERFACE IMPORTED)
  target_include_directories(deps::gaviota INTERFACE ${GAVIOTATB_INCLUDE_DIR})
  target_link_libraries(deps::gaviota INTERFACE ${GAVIOTATB} Threads::Threads m)
  message(STATUS "Gaviota probing: ${GAVIOTATB}")
else()
  message(STATUS "Gaviota probing: libgaviotatb not found, retro/gaviota.cpp is not built")
endif()

if(EGTB_BUILD_TESTS)
  find_package(Catch2 REQUIRED)
  include(Catch)
endif()

# Python, optional: its interpreter runs the tests of the Python module and of the C library, and
# with its development headers and pybind11 the Python module (python/) is built; EGTB_PYTHON_MODULE
# tells. Debian's interpreter is preferred, since python3-dev and pybind11-dev are built for it
# (another python3 may come first on PATH).
if(NOT DEFINED Python3_EXECUTABLE AND EXISTS /usr/bin/python3)
  set(Python3_EXECUTABLE /usr/bin/python3 CACHE FILEPATH "The Python interpreter of the module and its tests")
endif()
find_package(Python3 COMPONENTS Interpreter Development.Module)
set(EGTB_PYTHON_MODULE FALSE)
if(Python3_Development.Module_FOUND)
  find_package(pybind11 2.6 CONFIG QUIET)
  if(pybind11_FOUND)
    set(EGTB_PYTHON_MODULE TRUE)
  endif()
endif()
option(EGTB_REQUIRE_PYTHON_MODULE "Stop when the Python module cannot be built (setup.py sets it)" OFF)
if(EGTB_PYTHON_MODULE)
  message(STATUS "Python module: ${Python3_EXECUTABLE} ${Python3_VERSION}, pybind11 ${pybind11_VERSION}")
elseif(EGTB_REQUIRE_PYTHON_MODULE)
  message(FATAL_ERROR "The Python module needs the development headers of ${Python3_EXECUTABLE} "
    "(Debian: python3-dev) and pybind11's CMake files (Debian: pybind11-dev)")
else()
  message(STATUS "Python module: not built (needs python3-dev and pybind11-dev)")
endif()
