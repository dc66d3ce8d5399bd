// Single switch: the seed's "one massive switch" arithmetic.
#include <gtest/gtest.h>

#include "test_clusters.hpp"
#include "topology/cluster_spec.hpp"
#include "topology/servers/servers.hpp"

namespace {

using gftest::small_server;
using gftest::spec_of;

TEST(FabricSingleSwitch, SeedArithmeticFor200000Gpus) {
  // Seed 000: one switch for 200,000 GPUs takes one cable per GPU and 200,000 ports.
  gf::ClusterSpec spec = spec_of(small_server(), 200'000, "single_switch");
  auto c = gf::count_cluster(spec).fabric;
  ASSERT_EQ(c.tiers.size(), 1u);
  EXPECT_EQ(c.tiers[0].switches, 1);
  EXPECT_EQ(c.tiers[0].ports_used, 200'000);
  EXPECT_EQ(c.cables[0].count, 200'000);
  // ... which no 64-port switch has.
  EXPECT_THROW(gf::build_cluster(spec), gf::InputError);
}

}  // namespace
