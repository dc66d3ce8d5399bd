#include <gtest/gtest.h>
#include "core/parse_units.hpp"
TEST(Units, Placeholder) { EXPECT_EQ(gf::parse_time("1us").picoseconds(), 1000000); }
