// make_test_tables DIR (--all N | SIG...): builds tables with their dependencies into DIR for the
// tests that probe real tables (ctest fixtures, see CMakeLists.txt). Tables already in DIR and valid
// are kept, so a second run costs only the checks.
#include <cstdlib>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "egtb/core/material.hpp"
#include "retro/scheduler.hpp"

namespace {

std::vector<egtb::Material> targets_of(int argc, char** argv) {
  const std::string first = argv[2];
  if (first == "--all") {
    if (argc != 4) throw std::invalid_argument("--all takes one number of men");
    return egtb::all_signatures(std::stoi(argv[3]));
  }
  std::vector<egtb::Material> targets;
  for (int i = 2; i < argc; ++i) {
    const auto m = egtb::Material::parse(argv[i]);
    if (!m) throw std::invalid_argument(m.error());
    targets.push_back(m->normalized());
  }
  return targets;
}

void report(const egtb::retro::BuildRecord& r) {
  std::cout << r.material.str() << (r.built ? " built in " + std::to_string(r.seconds) + " s" : " kept") << '\n';
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: make_test_tables DIR (--all N | SIG...)\n";
    return 2;
  }
  try {
    egtb::retro::BuildOptions options;
    options.directory = argv[1];
    const std::vector<egtb::Material> targets = targets_of(argc, argv);
    egtb::retro::build_tables(targets, options, report);
  } catch (const std::exception& e) {
    std::cerr << "make_test_tables: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
