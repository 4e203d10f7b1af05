// Where the project's shared verification assets live (../shared beside the repository).
#pragma once

#include <filesystem>
#include <optional>

namespace egtb::test {

// The shared directory, or nothing when it is absent (tests then skip with a message).
// EGTB_SHARED_DIR overrides the default of ../shared next to the source tree.
std::optional<std::filesystem::path> shared_dir();

// The repository's data/ directory.
std::filesystem::path data_dir();

}  // namespace egtb::test
