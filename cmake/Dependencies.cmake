# Third-party libraries, all from Debian packages, behind deps::* aliases.
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
find_package(Threads REQUIRED)
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
  find_package(Threads REQUIRED)
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
