// Fat-tree: the k-ary fat-tree of Al-Fares et al. (SIGCOMM 2008) and the general 3-tier case,
// with hand-derived counts; the 131,072-GPU DGX H100 design (counts only: building it is checked
// by hand in a Release build, see the report).
#include <gtest/gtest.h>

#include "test_clusters.hpp"
#include "topology/cluster_spec.hpp"
#include "topology/servers/servers.hpp"

namespace {

using gftest::small_server;
using gftest::spec_of;

TEST(FabricFatTree, KaryK4MatchesAlFares) {
  // k = 4: k^3/4 = 16 hosts, k pods of k/2 = 2 edge + 2 aggregation switches, (k/2)^2 = 4 cores,
  // 5k^2/4 = 20 switches. Every tier has 16 cables (k^3/4), all non-blocking.
  auto c = gf::count_cluster(spec_of(small_server(), 16, "fat_tree", 4)).fabric;
  ASSERT_EQ(c.tiers.size(), 3u);
  EXPECT_EQ(c.tiers[0].switches, 8);
  EXPECT_EQ(c.tiers[1].switches, 8);
  EXPECT_EQ(c.tiers[2].switches, 4);
  for (const auto& t : c.tiers) EXPECT_EQ(t.ports_used, t.switches * 4) << t.name << " uses every port";
  ASSERT_EQ(c.cables.size(), 3u);
  for (const auto& x : c.cables) EXPECT_EQ(x.count, 16) << x.between;
  EXPECT_EQ(c.cables[2].between, "spine-core");
  EXPECT_EQ(c.max_switch_hops, 5);
  // Full bisection: 8 hosts x 400 Gb/s.
  EXPECT_DOUBLE_EQ(c.bisection.to_gbps(), 3'200);
  // 16 NIC-leaf + 8 leaves x 2 pod spines + 8 pod spines x 2 cores, x 2 directions.
  EXPECT_EQ(c.links_directed, 96);
}

TEST(FabricFatTree, KaryK8) {
  // k = 8: 128 hosts, 8 pods x (4 edge + 4 aggregation), 16 cores.
  auto c = gf::count_cluster(spec_of(small_server(), 128, "fat_tree", 8)).fabric;
  EXPECT_EQ(c.tiers[0].switches, 32);
  EXPECT_EQ(c.tiers[1].switches, 32);
  EXPECT_EQ(c.tiers[2].switches, 16);
}

TEST(FabricFatTree, SpineOversubscription) {
  // k = 8 ports, 128 hosts, spine_oversubscription 3: a pod spine keeps floor(8 / 4) = 2 up and
  // min(6, 3 x 2) = 6 down, so a pod holds 6 leaves (4 down + 4 up each). 128 / 4 = 32 leaves ->
  // ceil(32 / 6) = 6 pods. A full pod's 6 leaves x 4 uplinks = 24 over 6-down-port pod spines ->
  // 4 pod spines per pod (one cable from each leaf), 24 in all. Their 24 x 2 = 48 uplinks: pod
  // spine j of each of the 6 pods spreads 2 uplinks over core group j; 6 x 2 = 12 > 8 ports, so
  // 2 cores per group, one cable each -> 4 groups x 2 = 8 cores of 6 used ports.
  auto spec = spec_of(small_server(), 128, "fat_tree", 8);
  spec.fabric.spine_oversubscription = 3;
  auto c = gf::count_cluster(spec).fabric;
  EXPECT_EQ(c.tiers[0].switches, 32);
  EXPECT_EQ(c.tiers[1].switches, 24);
  EXPECT_DOUBLE_EQ(c.tiers[1].oversubscription, 3.0);
  EXPECT_EQ(c.tiers[2].switches, 8);
  EXPECT_EQ(c.tiers[2].ports_used, 48);
  EXPECT_EQ(c.cables[1].count, 128);
  EXPECT_EQ(c.cables[2].count, 48);
  // Crossing the core divides the full 64 x 400 Gb/s by 3.
  EXPECT_NEAR(c.bisection.to_gbps(), 64 * 400.0 / 3, 1e-6);
}

TEST(FabricFatTree, SmallDesignsTakeTwoTiers) {
  // tiers: 0 is as few as the radix allows: 100 NICs on 64-port switches is a leaf-spine
  // (4 leaves, 2 spines; see fabric_leaf_spine_test).
  auto c = gf::count_cluster(spec_of(small_server(), 100, "fat_tree")).fabric;
  ASSERT_EQ(c.tiers.size(), 2u);
  EXPECT_EQ(c.tiers[1].switches, 2);
}

TEST(FabricFatTree, ForcedThreeTiersOnASmallDesign) {
  // 8 hosts, 4 ports, tiers: 3: 4 leaves (2 down), pods of 2 leaves -> 2 pods x 2 pod spines.
  // 4 pod spines x 2 uplinks = 8; pod spine j of the 2 pods needs 2 x 2 = 4 ports: 1 core per
  // group, 2 cables from each pod spine -> 2 cores, 8 spine-core cables, each its own link.
  auto spec = spec_of(small_server(), 8, "fat_tree", 4);
  spec.fabric.tiers = 3;
  auto c = gf::count_cluster(spec).fabric;
  EXPECT_EQ(c.tiers[1].switches, 4);
  EXPECT_EQ(c.tiers[2].switches, 2);
  EXPECT_EQ(c.cables[2].count, 8);
  EXPECT_EQ(c.links_directed, 2 * (8 + 4 * 2 + 8));
}

TEST(FabricFatTree, Dgx131072GpusNeedTwoPlanes) {
  // 16,384 DGX H100 x 8 NDR NICs = 131,072 NICs. A k = 64 fat-tree holds 64^3 / 4 = 65,536, so
  // one plane is refused with a hint naming planes: 2.
  auto spec = spec_of(gf::make_dgx_h100(), 16'384, "fat_tree");
  try {
    gf::count_cluster(spec);
    FAIL() << "expected InputError";
  } catch (const gf::InputError& e) {
    EXPECT_NE(e.message().find("65536"), std::string::npos) << e.what();
    EXPECT_NE(e.hint().find("planes: 2"), std::string::npos) << e.what();
  }
  // With 2 planes each is a full k = 64 fat-tree: 2,048 edge + 2,048 aggregation + 1,024 core
  // switches, 65,536 cables per tier; doubled.
  spec.fabric.planes = 2;
  auto c = gf::count_cluster(spec).fabric;
  EXPECT_EQ(c.tiers[0].switches, 4'096);
  EXPECT_EQ(c.tiers[1].switches, 4'096);
  EXPECT_EQ(c.tiers[2].switches, 2'048);
  for (const auto& x : c.cables) EXPECT_EQ(x.count, 131'072) << x.between;
  EXPECT_EQ(c.max_switch_hops, 5);
  // Full bisection: 8,192 servers x 8 NICs x 400 Gb/s.
  EXPECT_DOUBLE_EQ(c.bisection.to_gbps(), 8'192.0 * 8 * 400);
  // The graph stays well under the build limit: 3 x 131,072 cables x 2 directions of fabric links.
  EXPECT_EQ(c.links_directed, 2 * 3 * 131'072);
}

TEST(FabricFatTree, SwitchNamesCarryThePlane) {
  auto spec = spec_of(gf::make_dgx_h100(), 4, "fat_tree", 4);
  spec.fabric.planes = 2;
  gf::Cluster cl = gf::build_cluster(spec);
  EXPECT_NE(cl.find_node("p0/leaf0"), gf::kNoNode);
  EXPECT_NE(cl.find_node("p1/core0"), gf::kNoNode);
}

}  // namespace
