// Full mesh: the seed's "connect every GPU directly" arithmetic, and a small mesh checked link by
// link.
#include <gtest/gtest.h>

#include "test_clusters.hpp"
#include "topology/cluster_spec.hpp"
#include "topology/servers/servers.hpp"

namespace {

using gftest::small_server;
using gftest::spec_of;

TEST(FabricFullMesh, SeedArithmeticFor200000Gpus) {
  // Seed 000: 200,000 GPUs joined pairwise need 199,999 ports each and ~20 billion cables:
  // n(n-1)/2 = 200,000 x 199,999 / 2 = 19,999,900,000.
  auto c = gf::count_cluster(spec_of(small_server(), 200'000, "full_mesh")).fabric;
  EXPECT_EQ(c.ports_per_endpoint, 199'999);
  ASSERT_EQ(c.cables.size(), 1u);
  EXPECT_EQ(c.cables[0].count, 19'999'900'000);
  EXPECT_EQ(c.cables[0].between, "nic-nic");
  EXPECT_EQ(c.links_directed, 2 * 19'999'900'000);
  EXPECT_EQ(c.max_switch_hops, 0);
  EXPECT_EQ(c.max_server_hops, 1);
  // Halves of 100,000 servers: 100,000^2 = 1e10 cables cross, 400 Gb/s each.
  EXPECT_DOUBLE_EQ(c.bisection.to_gbps(), 1e10 * 400);
}

TEST(FabricFullMesh, TooLargeToBuildSaysSo) {
  // 4e10 directed links is far over kMaxBuildLinks: costed, not built.
  EXPECT_THROW(gf::build_cluster(spec_of(small_server(), 200'000, "full_mesh")), gf::InputError);
}

TEST(FabricFullMesh, FourDgxH100) {
  // 4 servers x 8 rails: each rail is a 4-node mesh of 4 x 3 / 2 = 6 cables -> 48 cables; every
  // NIC has 3 peers. A 2|2 cut is crossed by 2 x 2 = 4 cables per rail: 32 x 400 Gb/s = 12.8 Tb/s.
  auto spec = spec_of(gf::make_dgx_h100(), 4, "full_mesh");
  auto c = gf::count_cluster(spec).fabric;
  EXPECT_EQ(c.cables[0].count, 48);
  EXPECT_EQ(c.ports_per_endpoint, 3);
  EXPECT_DOUBLE_EQ(c.bisection.to_gbps(), 12'800);
  // Built: nic0 of server 0 has one fabric link to nic0 of each other server, none to other rails.
  gf::Cluster cl = gf::build_cluster(spec);
  gf::NodeId nic0 = cl.find_node("server0/nic0");
  int peers = 0;
  for (gf::LinkId l : cl.out_links(nic0)) {
    const gf::Node& d = cl.node(cl.link(l).dst);
    if (d.kind != gf::NodeKind::Nic) continue;
    ++peers;
    EXPECT_EQ(d.group, 0) << "a rail-0 NIC is cabled only to rail-0 NICs";
  }
  EXPECT_EQ(peers, 3);
}

TEST(FabricFullMesh, OddServerCountCutsFloorTimesCeil) {
  // 5 single-NIC servers: the balanced cut 2|3 is crossed by 2 x 3 = 6 cables.
  auto c = gf::count_cluster(spec_of(small_server(), 5, "full_mesh")).fabric;
  EXPECT_EQ(c.cables[0].count, 10);
  EXPECT_DOUBLE_EQ(c.bisection.to_gbps(), 6 * 400.0);
}

TEST(FabricFullMesh, PlanesAreRejected) {
  auto spec = spec_of(gf::make_dgx_h100(), 4, "full_mesh");
  spec.fabric.planes = 2;
  EXPECT_THROW(gf::count_cluster(spec), gf::InputError);
}

}  // namespace
