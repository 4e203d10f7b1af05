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
