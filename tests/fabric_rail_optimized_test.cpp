// Rail-optimized fabric: NVIDIA DGX SuperPOD scalable units (32 DGX H100, 64-port NDR leaves),
// the 2-to-3-tier switch-over and the rail grouping of leaves.
#include <gtest/gtest.h>

#include "test_clusters.hpp"
#include "topology/cluster_spec.hpp"
#include "topology/servers/servers.hpp"

namespace {

gf::ClusterSpec dgx(int64_t servers) {
  return gftest::spec_of(gf::make_dgx_h100(), servers, "rail_optimized");
}

TEST(FabricRailOptimized, OneScalableUnit) {
  // 32 servers x 8 rails = 256 NIC ports; 64-port leaves with 32 down -> one leaf per rail = 8
  // leaves; 8 leaves x 32 up = 256 uplinks over 64-port spines -> 4 spines, 8 cables from each
  // leaf to each (NVIDIA's SU: 8 leaf + 4 spine switches).
  auto c = gf::count_cluster(dgx(32)).fabric;
  ASSERT_EQ(c.tiers.size(), 2u);
  EXPECT_EQ(c.tiers[0].switches, 8);
  EXPECT_EQ(c.tiers[1].switches, 4);
  EXPECT_EQ(c.tiers[0].ports_used, 8 * 64);
  EXPECT_EQ(c.tiers[1].ports_used, 4 * 64);
  EXPECT_EQ(c.cables[0].count, 256);
  EXPECT_EQ(c.cables[1].count, 256);
  EXPECT_EQ(c.max_switch_hops, 3);
  // 16 servers x 8 NICs x 400 Gb/s.
  EXPECT_DOUBLE_EQ(c.bisection.to_gbps(), 51'200);
}

TEST(FabricRailOptimized, LeavesAreGroupedByRail) {
  gf::Cluster cl = gf::build_cluster(dgx(32));
  auto leaf_of = [&](const std::string& nic) {
    for (gf::LinkId l : cl.out_links(cl.find_node(nic)))
      if (cl.node(cl.link(l).dst).kind == gf::NodeKind::Switch) return cl.link(l).dst;
    return gf::kNoNode;
  };
  // Same rail, different servers: the same leaf. Different rails: different leaves.
  EXPECT_EQ(leaf_of("server0/nic3"), leaf_of("server31/nic3"));
  EXPECT_NE(leaf_of("server0/nic3"), leaf_of("server0/nic4"));
  for (int r = 0; r < 8; ++r) EXPECT_EQ(cl.node(leaf_of("server5/nic" + std::to_string(r))).group, r);
}

TEST(FabricRailOptimized, FourScalableUnitsStayTwoTiers) {
  // 128 servers: 4 leaves per rail x 8 rails = 32 leaves <= 64, so one spine layer: 32 x 32 =
  // 1,024 uplinks over 64 ports -> 16 spines, 2 cables from each leaf.
  auto c = gf::count_cluster(dgx(128)).fabric;
  ASSERT_EQ(c.tiers.size(), 2u);
  EXPECT_EQ(c.tiers[0].switches, 32);
  EXPECT_EQ(c.tiers[1].switches, 16);
  EXPECT_EQ(c.cables[1].count, 1'024);
}

TEST(FabricRailOptimized, SixteenThousandGpusTakeThreeTiers) {
  // 2,048 servers (16,384 GPUs): 64 leaves per rail x 8 = 512 leaves > 64: 3 tiers. A pod spine
  // has 32 down ports: floor(32 / 8) = 4 leaves per rail per pod = 128 servers per pod -> 16 pods.
  // A pod's 32 leaves x 32 uplinks over 32-down pod spines -> 32 pod spines per pod, 512 in all.
  // Pod spine j of 16 pods x 32 uplinks = 512 over 64-port cores -> 8 cores per group (4 cables
  // each), 32 groups -> 256 cores. Every tier carries 16,384 cables.
  auto c = gf::count_cluster(dgx(2048)).fabric;
  ASSERT_EQ(c.tiers.size(), 3u);
  EXPECT_EQ(c.tiers[0].switches, 512);
  EXPECT_EQ(c.tiers[1].switches, 512);
  EXPECT_EQ(c.tiers[2].switches, 256);
  for (const auto& x : c.cables) EXPECT_EQ(x.count, 16'384) << x.between;
  EXPECT_EQ(c.max_switch_hops, 5);
}

TEST(FabricRailOptimized, ForcingTwoTiersOnTooManyLeavesFails) {
  auto spec = dgx(2048);
  spec.fabric.tiers = 2;
  EXPECT_THROW(gf::count_cluster(spec), gf::InputError);
}

TEST(FabricRailOptimized, PartlyFilledLeavesGetTheUplinksTheyNeed) {
  // 2 servers: each rail leaf has 2 NICs and so 2 uplinks; 8 x 2 = 16 uplinks fit one spine.
  auto c = gf::count_cluster(dgx(2)).fabric;
  EXPECT_EQ(c.tiers[0].switches, 8);
  EXPECT_EQ(c.tiers[1].switches, 1);
  EXPECT_EQ(c.cables[1].count, 16);
  // 31 servers: 31 uplinks per leaf would need a spine per uplink (31 is prime); rounded up to
  // 4 spines x 8 = 32 (the leaf has 64 - 31 = 33 spare ports): NVIDIA's 4 spines.
  c = gf::count_cluster(dgx(31)).fabric;
  EXPECT_EQ(c.tiers[1].switches, 4);
  EXPECT_EQ(c.cables[1].count, 8 * 32);
  EXPECT_DOUBLE_EQ(c.tiers[0].oversubscription, 1.0);
}

TEST(FabricRailOptimized, TwoToOneOversubscription) {
  // o = 2: 42 down, 21 up. 64 servers -> 2 leaves per rail, 16 leaves. Spines from
  // ceil(16 x 21 / 64) = 6: 6 spines need 4 cables each = 24 uplinks > 64 - 42 = 22 spare;
  // 7 spines x 3 = 21 fit -> 7 spines. Crossing halves: 32 x 8 x 400 / 2 = 51,200 Gb/s.
  auto spec = dgx(64);
  spec.fabric.oversubscription = 2;
  auto c = gf::count_cluster(spec).fabric;
  EXPECT_EQ(c.tiers[0].switches, 16);
  EXPECT_EQ(c.tiers[1].switches, 7);
  EXPECT_DOUBLE_EQ(c.tiers[0].oversubscription, 2.0);
  EXPECT_DOUBLE_EQ(c.bisection.to_gbps(), 51'200);
}

TEST(FabricRailOptimized, Dgx131072GpusOnTwoPlanes) {
  // 16,384 servers: one plane would need 128 pods of 128 servers (> 64 core ports). With planes:
  // 2, rails 0,2,4,6 and 1,3,5,7 each form a plane of 4 rails: floor(32 / 4) = 8 leaves per rail
  // per pod = 256 servers per pod -> 64 pods, 2,048 leaves, 2,048 pod spines, 1,024 cores per
  // plane.
  auto spec = dgx(16'384);
  EXPECT_THROW(gf::count_cluster(spec), gf::InputError);
  spec.fabric.planes = 2;
  auto c = gf::count_cluster(spec).fabric;
  EXPECT_EQ(c.tiers[0].switches, 4'096);
  EXPECT_EQ(c.tiers[1].switches, 4'096);
  EXPECT_EQ(c.tiers[2].switches, 2'048);
}

}  // namespace
