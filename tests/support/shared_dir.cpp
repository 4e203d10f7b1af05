#include "tests/support/shared_dir.hpp"

#include <cstdlib>

namespace egtb::test {

std::optional<std::filesystem::path> shared_dir() {
  std::filesystem::path dir = EGTB_SOURCE_DIR "/../shared";
  if (const char* env = std::getenv("EGTB_SHARED_DIR")) dir = env;
  if (!std::filesystem::is_directory(dir)) return std::nullopt;
  return std::filesystem::canonical(dir);
}

std::filesystem::path data_dir() { return EGTB_SOURCE_DIR "/data"; }

}  // namespace egtb::test
