#include "tests/support/catch.hpp"
