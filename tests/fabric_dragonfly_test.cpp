// Dragonfly (Kim et al., ISCA 2008): the paper's balanced example, defaults from the radix,
// parallel global cables kept as distinct cables, and the group limit g <= a*h + 1.
#include <gtest/gtest.h>

#include <vector>

#include "test_clusters.hpp"
#include "topology/bundle.hpp"
#include "topology/cluster_spec.hpp"
#include "topology/servers/servers.hpp"

namespace {

using gftest::small_server;
using gftest::spec_of;

TEST(FabricDragonfly, KimBalancedExample) {
  // Radix 8 -> balanced p = h = floor(9 / 4) = 2, a = 2p = 4 (router radix 2 + 3 + 2 = 7), as in
  // Kim et al.'s 72-terminal example: 72 / (4 x 2) = 9 groups = a*h + 1, one cable per pair.
  auto c = gf::count_cluster(spec_of(small_server(), 72, "dragonfly", 8)).fabric;
  ASSERT_EQ(c.tiers.size(), 1u);
  EXPECT_EQ(c.tiers[0].name, "router");
  EXPECT_EQ(c.tiers[0].switches, 36);           // 9 groups x 4 routers
  EXPECT_EQ(c.tiers[0].ports_used, 36 * 7);     // every router: 2 NICs + 3 local + 2 global
  EXPECT_DOUBLE_EQ(c.tiers[0].oversubscription, 1.0);  // p / h
  ASSERT_EQ(c.cables.size(), 3u);
  EXPECT_EQ(c.cables[0].count, 72);             // nic-router
  EXPECT_EQ(c.cables[1].count, 9 * 4 * 3 / 2);  // local: 54
  EXPECT_EQ(c.cables[2].count, 9 * 8 / 2);      // global: 36
  EXPECT_EQ(c.links_directed, 2 * (72 + 54 + 36));
  EXPECT_EQ(c.max_switch_hops, 4);  // local, global, local
  // Groups split 4 | 5: 20 global cables cross (8 Tb/s), fewer than 36 NICs' 14.4 Tb/s.
  EXPECT_DOUBLE_EQ(c.bisection.to_gbps(), 20 * 400.0);
}

TEST(FabricDragonfly, SmallClusterIsOneGroup) {
  // 4 DGX H100 = 32 NICs, radix 64: p = 16 per router -> 2 routers in one group, 1 local cable,
  // no global links; NIC to NIC crosses at most 2 routers.
  auto c = gf::count_cluster(spec_of(gf::make_dgx_h100(), 4, "dragonfly")).fabric;
  EXPECT_EQ(c.tiers[0].switches, 2);
  ASSERT_EQ(c.cables.size(), 2u);
  EXPECT_EQ(c.cables[1].count, 1);
  EXPECT_EQ(c.max_switch_hops, 2);
}

TEST(FabricDragonfly, ParallelGlobalCablesStayDistinctCables) {
  // 2 groups of 2 routers with 2 global ports each: 4 global ports per group, all to the one other
  // group -> 4 cables. Ports 0,1 are router 0's and 2,3 router 1's on both sides: router 0 <->
  // router 0 and router 1 <-> router 1, 2 cables each. p = 8 / 4 = 2. Each cable is its own
  // link (a bundle, as leaf-spine's parallel cables are), so the ECMP hash can pick one: directed
  // links 2 x (8 NIC links + 2 local + 4 global cables) = 28.
  auto spec = spec_of(small_server(), 8, "dragonfly", 8);
  spec.fabric.groups = 2;
  spec.fabric.routers_per_group = 2;
  spec.fabric.global_links_per_router = 2;
  auto c = gf::count_cluster(spec).fabric;
  EXPECT_EQ(c.cables[2].count, 4);
  EXPECT_EQ(c.links_directed, 2 * (8 + 2 + 4));
  gf::Cluster cl = gf::build_cluster(spec);
  gf::NodeId a = cl.find_node("group0/router0"), b = cl.find_node("group1/router0");
  std::vector<gf::LinkId> cables;
  for (gf::LinkId l : cl.out_links(a))
    if (cl.link(l).dst == b) cables.push_back(l);
  ASSERT_EQ(cables.size(), 2u);
  for (gf::LinkId l : cables) {
    EXPECT_EQ(cl.link(l).lanes, 1);
    EXPECT_EQ(gf::bundle_links(cl, l), cables);  // found as one bundle: "#1 of 2", "#2 of 2"
  }
  EXPECT_EQ(gf::bundle_place(cl, cables[1]).cable, 2);
  EXPECT_EQ(gf::bundle_place(cl, cables[1]).cables, 2);
}

TEST(FabricDragonfly, TooManyGroupsForTheGlobalLinks) {
  // 10 groups need 9 global cables from each group, but 4 routers x 2 global links give 8.
  auto spec = spec_of(small_server(), 72, "dragonfly", 8);
  spec.fabric.groups = 10;
  spec.fabric.routers_per_group = 4;
  spec.fabric.global_links_per_router = 2;
  EXPECT_THROW(gf::count_cluster(spec), gf::InputError);
}

TEST(FabricDragonfly, RouterRadixIsChecked) {
  // 8 routers per group on 8-port routers: 7 local + 4 global + 1 NIC = 12 > 8.
  auto spec = spec_of(small_server(), 72, "dragonfly", 8);
  spec.fabric.routers_per_group = 8;
  EXPECT_THROW(gf::count_cluster(spec), gf::InputError);
}

TEST(FabricDragonfly, LargestBalancedDesignOf64PortRouters) {
  // Radix 64: p = h = 16, a = 32 -> at most 32 x 16 + 1 = 513 groups of 512 NICs = 262,656.
  auto c = gf::count_cluster(spec_of(small_server(), 262'656, "dragonfly")).fabric;
  EXPECT_EQ(c.tiers[0].switches, 513 * 32);
  EXPECT_EQ(c.cables[2].count, 513 * 512 / 2);
  EXPECT_THROW(gf::count_cluster(spec_of(small_server(), 262'657, "dragonfly")), gf::InputError);
}

}  // namespace
