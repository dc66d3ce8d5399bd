// Single switch: the seed's "one massive switch" arithmetic.
#include <gtest/gtest.h>

#include "topology/cluster_spec.hpp"
#include "topology/servers/servers.hpp"

namespace {

gf::ServerTemplate one_gpu_one_nic() {
  gf::ServerTemplate t;
  t.name = "test-1gpu";
  t.gpu = {"test-gpu", "hopper", gf::Bandwidth::gBps(1000), 100, "test"};
  t.nodes.push_back({"gpu0", gf::NodeKind::Gpu, 0, -1, "", "", ""});
  t.nodes.push_back({"pcie0", gf::NodeKind::PcieSwitch, 0, -1, "", "", ""});
  t.nodes.push_back({"nic0", gf::NodeKind::Nic, 0, 0, "ib-ndr", "", ""});
  t.links = {{0, 1, "pcie-gen5-x16", 1}, {2, 1, "pcie-gen5-x16", 1}};
  return t;
}

TEST(FabricSingleSwitch, SeedArithmeticFor200000Gpus) {
  // Seed 000: one switch for 200,000 GPUs takes one cable per GPU and 200,000 ports.
  gf::ClusterSpec spec;
  spec.server = one_gpu_one_nic();
  spec.servers = 200'000;
  spec.fabric.kind = "single_switch";
  auto c = gf::count_cluster(spec).fabric;
  ASSERT_EQ(c.tiers.size(), 1u);
  EXPECT_EQ(c.tiers[0].switches, 1);
  EXPECT_EQ(c.tiers[0].ports_used, 200'000);
  EXPECT_EQ(c.cables[0].count, 200'000);
  // ... which no 64-port switch has.
  EXPECT_THROW(gf::build_cluster(spec), gf::InputError);
}

}  // namespace
