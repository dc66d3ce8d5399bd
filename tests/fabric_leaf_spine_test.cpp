// Leaf-spine: hand-derived switch and cable counts, oversubscription, and the radix limit.
// Switches are NVIDIA QM9700 (the ib-ndr default): 64 ports, NICs 400 Gb/s.
#include <gtest/gtest.h>

#include "test_clusters.hpp"
#include "topology/cluster_spec.hpp"
#include "topology/servers/servers.hpp"

namespace {

using gftest::small_server;
using gftest::spec_of;

TEST(FabricLeafSpine, NonBlocking100Nics) {
  // 64-port leaves at 1:1 keep 32 down, 32 up. 100 NICs -> ceil(100 / 32) = 4 leaves (the last
  // with 4 NICs). 4 leaves x 32 uplinks = 128 over 64-port spines -> at least 2 spines; 32 / 2 =
  // 16 cables from each leaf to each spine, 4 x 16 = 64 ports per spine.
  auto c = gf::count_cluster(spec_of(small_server(), 100, "leaf_spine")).fabric;
  ASSERT_EQ(c.tiers.size(), 2u);
  EXPECT_EQ(c.tiers[0].switches, 4);
  EXPECT_EQ(c.tiers[0].ports_used, 100 + 128);
  EXPECT_EQ(c.tiers[1].switches, 2);
  EXPECT_EQ(c.tiers[1].ports_used, 128);
  EXPECT_EQ(c.cables[0].count, 100);
  EXPECT_EQ(c.cables[1].count, 128);
  EXPECT_EQ(c.cables[1].between, "leaf-spine");
  // Links: 100 NIC-leaf + 4 leaves x 2 spines x 16 cables, each cable its own link = 228, x 2
  // directions.
  EXPECT_EQ(c.links_directed, 456);
  EXPECT_EQ(c.max_switch_hops, 3);
  // Non-blocking: half of the NICs at full rate, 50 x 400 Gb/s = 20 Tb/s.
  EXPECT_DOUBLE_EQ(c.bisection.to_gbps(), 20'000);
}

TEST(FabricLeafSpine, TwoToOneOversubscription) {
  // o = 2 on 64 ports: up = floor(64 / 3) = 21, down = 42. 100 NICs -> 3 leaves; 3 x 21 = 63
  // uplinks fit one spine (21 cables from each leaf). Crossing capacity halves: 20 / 2 = 10 Tb/s.
  auto spec = spec_of(small_server(), 100, "leaf_spine");
  spec.fabric.oversubscription = 2;
  auto c = gf::count_cluster(spec).fabric;
  EXPECT_EQ(c.tiers[0].switches, 3);
  EXPECT_DOUBLE_EQ(c.tiers[0].oversubscription, 2.0);
  EXPECT_EQ(c.tiers[1].switches, 1);
  EXPECT_EQ(c.tiers[1].ports_used, 63);
  EXPECT_DOUBLE_EQ(c.bisection.to_gbps(), 10'000);
}

TEST(FabricLeafSpine, FewNicsAreOneLeaf) {
  // 4 DGX H100 = 32 NICs fit the 32 down ports of one leaf: no spine layer is needed.
  auto c = gf::count_cluster(spec_of(gf::make_dgx_h100(), 4, "leaf_spine")).fabric;
  ASSERT_EQ(c.tiers.size(), 1u);
  EXPECT_EQ(c.tiers[0].switches, 1);
  EXPECT_EQ(c.max_switch_hops, 1);
}

TEST(FabricLeafSpine, ServersFillLeavesInOrder) {
  // 5 DGX H100 = 40 NICs: server 0..3 (NICs 0-31) on leaf0, server 4 on leaf1.
  gf::Cluster cl = gf::build_cluster(spec_of(gf::make_dgx_h100(), 5, "leaf_spine"));
  auto leaf_of = [&](const std::string& nic) {
    for (gf::LinkId l : cl.out_links(cl.find_node(nic)))
      if (cl.node(cl.link(l).dst).kind == gf::NodeKind::Switch) return cl.node_name(cl.link(l).dst);
    return std::string();
  };
  EXPECT_EQ(leaf_of("server0/nic0"), "leaf0");
  EXPECT_EQ(leaf_of("server3/nic7"), "leaf0");
  EXPECT_EQ(leaf_of("server4/nic0"), "leaf1");
}

TEST(FabricLeafSpine, RadixLimitPointsAtFatTree) {
  // 2,049 NICs need ceil(2049 / 32) = 65 leaves, but a 64-port spine reaches at most 64.
  try {
    gf::count_cluster(spec_of(small_server(), 2049, "leaf_spine"));
    FAIL() << "expected InputError";
  } catch (const gf::InputError& e) {
    EXPECT_NE(e.message().find("needs 65 ports"), std::string::npos) << e.what();
    EXPECT_NE(e.hint().find("fat_tree"), std::string::npos) << e.what();
  }
  // 2,048 NICs is the largest non-blocking 2-tier design: 64 leaves, 32 spines.
  auto c = gf::count_cluster(spec_of(small_server(), 2048, "leaf_spine")).fabric;
  EXPECT_EQ(c.tiers[0].switches, 64);
  EXPECT_EQ(c.tiers[1].switches, 32);
}

TEST(FabricLeafSpine, ThreeTiersAreRejected) {
  auto spec = spec_of(small_server(), 100, "leaf_spine");
  spec.fabric.tiers = 3;
  EXPECT_THROW(gf::count_cluster(spec), gf::InputError);
}

TEST(FabricLeafSpine, SwitchLatencyOnLinksIntoSwitches) {
  // NIC -> leaf: 60 ns of ib-ndr wire + 130 ns QM9700 forwarding in the leaf it enters; leaf -> NIC
  // enters no switch: the wire's 60 ns only. A path through h switches so pays h forwarding delays.
  gf::Cluster cl = gf::build_cluster(spec_of(gf::make_dgx_h100(), 5, "leaf_spine"));
  gf::NodeId nic = cl.find_node("server0/nic0");
  for (gf::LinkId l : cl.out_links(nic))
    if (cl.node(cl.link(l).dst).kind == gf::NodeKind::Switch) {
      EXPECT_EQ(cl.link(l).latency, gf::Time::ns(190));
      EXPECT_EQ(cl.link(cl.link(l).reverse).latency, gf::Time::ns(60));
    }
}

}  // namespace
