// Torus: NICs as torus ports (rail r faces direction r % 2D), size-2 dimensions cabled once,
// dimensions that must multiply to the server count.
#include <gtest/gtest.h>

#include "test_clusters.hpp"
#include "topology/cluster_spec.hpp"
#include "topology/servers/servers.hpp"

namespace {

using gftest::small_server;

// A torus of the given dimensions, one server per position.
gf::ClusterSpec torus(gf::ServerTemplate server, std::vector<int> dims) {
  int64_t servers = 1;
  for (int d : dims) servers *= d;
  gf::ClusterSpec s = gftest::spec_of(std::move(server), servers, "torus");
  s.fabric.torus_dims = std::move(dims);
  return s;
}

// The servers a NIC is cabled to, by node name.
std::vector<std::string> peers(const gf::Cluster& c, const std::string& nic) {
  std::vector<std::string> out;
  for (gf::LinkId l : c.out_links(c.find_node(nic)))
    if (c.node(c.link(l).dst).kind == gf::NodeKind::Nic) out.push_back(c.node_name(c.link(l).dst));
  return out;
}

TEST(FabricTorus, Cube4x4x4) {
  // 64 servers with 6 NICs (one per direction): each server cables +x, +y, +z -> 3 x 64 = 192
  // cables. Halving across any dimension cuts 16 rings twice: 32 cables x 400 Gb/s. Farthest
  // server: 2 + 2 + 2 = 6 hops. Each server also has its own torus router joined on-chip to its 6
  // ports: 64 x 6 = 384 router links, so 2 x (192 + 384) = 1152 directed links.
  auto c = gf::count_cluster(torus(small_server(6), {4, 4, 4})).fabric;
  EXPECT_EQ(c.cables[0].count, 192);
  EXPECT_EQ(c.cables[1].count, 384);
  EXPECT_EQ(c.links_directed, 1152);
  EXPECT_DOUBLE_EQ(c.bisection.to_gbps(), 32 * 400.0);
  EXPECT_EQ(c.max_server_hops, 6);
  EXPECT_EQ(c.max_switch_hops, 0);
  EXPECT_EQ(c.tiers[0].switches, 64);  // one router per server
}

TEST(FabricTorus, DgxH100On4x2) {
  // 8 NICs in 2D: rail r faces r % 4: +x {0, 4}, -x {1, 5}, +y {2, 6}, -y {3, 7}: 2 cables per
  // neighbour. x (size 4): 8 servers x 2 = 16 cables; y (size 2): the pair is cabled once, 4 pairs
  // x 2 = 8 cables; 24 in all. Cut across x: 2 rings-cuts x 2 rows x 2 = 8 cables; across y:
  // 4 columns x 2 = 8 cables -> 8 x 400 Gb/s. Farthest server: 2 + 1 = 3 hops.
  auto spec = torus(gf::make_dgx_h100(), {4, 2});
  auto c = gf::count_cluster(spec).fabric;
  EXPECT_EQ(c.cables[0].count, 24);
  EXPECT_DOUBLE_EQ(c.bisection.to_gbps(), 8 * 400.0);
  EXPECT_EQ(c.max_server_hops, 3);

  gf::Cluster cl = gf::build_cluster(spec);
  // Server s sits at (s % 4, s / 4). +x of server 0 is server 1; +x of server 3 wraps to 0.
  EXPECT_EQ(peers(cl, "server0/nic0"), std::vector<std::string>{"server1/nic1"});
  EXPECT_EQ(peers(cl, "server3/nic4"), std::vector<std::string>{"server0/nic5"});
  // Size-2 y: server 0's +y NICs reach server 4's -y NICs; the -y NICs of server 0 stay uncabled
  // (one cable set between the pair, not two).
  EXPECT_EQ(peers(cl, "server0/nic2"), std::vector<std::string>{"server4/nic3"});
  EXPECT_TRUE(peers(cl, "server0/nic3").empty());
}

TEST(FabricTorus, DimsMustMultiplyToServers) {
  auto spec = torus(small_server(4), {4, 4});
  spec.servers = 15;
  try {
    gf::count_cluster(spec);
    FAIL() << "expected InputError";
  } catch (const gf::InputError& e) {
    EXPECT_NE(e.message().find("= 16"), std::string::npos) << e.what();
    EXPECT_NE(e.message().find("15"), std::string::npos) << e.what();
  }
}

TEST(FabricTorus, NeedsTwoOrThreeDimensions) {
  EXPECT_THROW(gf::count_cluster(torus(small_server(4), {8})), gf::InputError);
  auto none = torus(small_server(4), {});
  none.servers = 8;
  EXPECT_THROW(gf::count_cluster(none), gf::InputError);
}

TEST(FabricTorus, NeedsANicPerDirection) {
  // 2D has 4 directions; 2 NICs leave y without ports.
  EXPECT_THROW(gf::count_cluster(torus(small_server(2), {2, 2})), gf::InputError);
}

TEST(FabricTorus, UnpairedNicsStayUncabled) {
  // 7 NICs in 3D: +x {0, 6}, -x {1}: one x cable per neighbour; nic6 has no partner.
  // 3 x 3 x 3: 27 cables per dimension = 81.
  auto spec = torus(small_server(7), {3, 3, 3});
  EXPECT_EQ(gf::count_cluster(spec).fabric.cables[0].count, 81);
  gf::Cluster cl = gf::build_cluster(spec);
  EXPECT_TRUE(peers(cl, "server0/nic6").empty());
}

}  // namespace
