// Catch2 v2/v3 shim: Debian 12 ships v2.13 (<catch2/catch.hpp>), newer systems v3.
#pragma once

#if __has_include(<catch2/catch_test_macros.hpp>)
#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>
#else
#include <catch2/catch.hpp>
#endif
