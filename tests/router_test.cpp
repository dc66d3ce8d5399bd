// Routing on small hand-made clusters, each expected count derived in a comment.
#include <gtest/gtest.h>

#include "routing/router.hpp"
#include "test_clusters.hpp"
#include "topology/cluster_spec.hpp"
#include "topology/servers/template_builder.hpp"

using namespace gf;

namespace {

// Two GPUs, each with its own PCIe switch and NIC (rails 0 and 1), one CPU above both switches,
// and optionally a 2-lane NVLink between the GPUs.
ServerTemplate two_gpu_box(bool nvlink) {
  ServerTemplate t;
  t.name = "box";
  t.gpu = {"test-gpu", "hopper", Bandwidth::gBps(1000), 0, "test"};
  TemplateBuilder b(t);
  int cpu = b.cpu("cpu0", 0, "0-7");
  int g[2], sw[2];
  for (int i = 0; i < 2; ++i) {
    sw[i] = b.pcie_switch("pcie" + std::to_string(i), 0);
    b.link(sw[i], cpu, "pcie-gen5-x16");
    g[i] = b.gpu("gpu" + std::to_string(i), 0);
    b.link(g[i], sw[i], "pcie-gen5-x16");
    int nic = b.nic("nic" + std::to_string(i), 0, i, "ib-ndr", "");
    b.link(nic, sw[i], "pcie-gen5-x16");
  }
  if (nvlink) b.link(g[0], g[1], "nvlink4", 2);
  return t;
}

using gftest::spec_of;

}  // namespace

TEST(Router, NvlinkBeatsPcie) {
  Cluster c = build_cluster(spec_of(two_gpu_box(true), 1, "single_switch"));
  Router r(c);
  // Direct NVLink: 1 link, one route; 2 lanes x 25 GB/s = 50 GB/s.
  Path p = r.hashed_path(c.gpu(0), c.gpu(1), 7);
  ASSERT_EQ(p.links.size(), 1u);
  EXPECT_DOUBLE_EQ(bottleneck(c, p).to_gBps(), 50.0);
  EXPECT_EQ(r.count_paths(c.gpu(0), c.gpu(1)), 1.0);
}

TEST(Router, PcieThroughTheCpuWithoutNvlink) {
  Cluster c = build_cluster(spec_of(two_gpu_box(false), 1, "single_switch"));
  Router r(c);
  // gpu0 -> pcie0 -> cpu0 -> pcie1 -> gpu1: 4 links, a single route.
  Path p = r.hashed_path(c.gpu(0), c.gpu(1), 7);
  EXPECT_EQ(p.links.size(), 4u);
  EXPECT_EQ(r.count_paths(c.gpu(0), c.gpu(1)), 1.0);
}

TEST(Router, AcrossServersThroughNearestNics) {
  Cluster c = build_cluster(spec_of(two_gpu_box(true), 2, "single_switch"));
  Router r(c);
  // gpu0 (server 0) -> gpu3 (server 1, position 1): gpu0 -> pcie0 -> nic0 -> switch0 ->
  // server1/nic1 -> server1/pcie1 -> gpu3 = 6 links; the NVLink inside server 0 is not used and
  // no other NIC pairing is as short, so exactly one route.
  Path p = r.hashed_path(c.gpu(0), c.gpu(3), 1);
  ASSERT_EQ(p.links.size(), 6u);
  EXPECT_EQ(c.node_name(c.link(p.links[1]).dst), "server0/nic0");
  EXPECT_EQ(c.node_name(c.link(p.links[3]).dst), "server1/nic1");
  EXPECT_EQ(r.count_paths(c.gpu(0), c.gpu(3)), 1.0);
  // The bottleneck is the 400 Gb/s NIC port = 50 GB/s (PCIe Gen5 x16 is 63 GB/s).
  EXPECT_DOUBLE_EQ(bottleneck(c, p).to_gBps(), 50.0);
  // Path latency: 4 PCIe hops x 150 ns + 2 NIC-switch wires x 60 ns + the one switch's 130 ns
  // (QM9700 forwarding, charged on the link entering it) = 850 ns.
  EXPECT_EQ(latency(c, p).picoseconds(), 850'000);
}

TEST(Router, EcmpCountsMultiplyAndHashIsDeterministic) {
  // A GPU behind 4 NVSwitch chips: gpu0 -> chip k -> gpu1 for k = 0..3 gives 4 equal-cost routes.
  ServerTemplate t;
  t.name = "nvs";
  t.gpu = {"test-gpu", "hopper", Bandwidth::gBps(1000), 0, "test"};
  TemplateBuilder b(t);
  int g0 = b.gpu("gpu0", 0), g1 = b.gpu("gpu1", 0);
  const int lanes[4] = {5, 4, 4, 5};
  for (int k = 0; k < 4; ++k) {
    int s = b.nvswitch("nvswitch" + std::to_string(k));
    b.link(g0, s, "nvlink4", lanes[k]);
    b.link(g1, s, "nvlink4", lanes[k]);
  }
  Cluster c = build_cluster(spec_of(t, 1, "single_switch"));
  Router r(c);
  EXPECT_EQ(r.count_paths(c.gpu(0), c.gpu(1)), 4.0);
  auto paths = r.equal_cost_paths(c.gpu(0), c.gpu(1), 100);
  EXPECT_EQ(paths.size(), 4u);
  // Max-flow over the 4 routes: (5+4+4+5) lanes x 25 GB/s = 450 GB/s, the H100's NVLink per direction.
  EXPECT_DOUBLE_EQ(max_flow(c, paths).to_gBps(), 450.0);
  // Same key, same route; the hash spreads keys over all 4 chips.
  EXPECT_EQ(r.hashed_path(c.gpu(0), c.gpu(1), 42).links, r.hashed_path(c.gpu(0), c.gpu(1), 42).links);
  std::set<NodeId> used;
  for (uint64_t k = 0; k < 64; ++k) used.insert(c.link(r.hashed_path(c.gpu(0), c.gpu(1), k).links[0]).dst);
  EXPECT_EQ(used.size(), 4u);
}

TEST(Router, GpusDoNotForward) {
  // gpu0 - gpu1 - gpu2 in a chain of NVLinks: gpu0 cannot reach gpu2 through gpu1.
  ServerTemplate t;
  t.name = "chain";
  t.gpu = {"test-gpu", "hopper", Bandwidth::gBps(1000), 0, "test"};
  TemplateBuilder b(t);
  int g0 = b.gpu("gpu0", 0), g1 = b.gpu("gpu1", 0), g2 = b.gpu("gpu2", 0);
  b.link(g0, g1, "nvlink4");
  b.link(g1, g2, "nvlink4");
  int cpu = b.cpu("cpu0", 0, "");
  for (int g : {g0, g1, g2}) b.link(g, cpu, "pcie-gen4-x16");
  Cluster c = build_cluster(spec_of(t, 1, "single_switch"));
  Router r(c);
  // The only route avoiding gpu1 is gpu0 -> cpu0 -> gpu2 (2 links).
  Path p = r.hashed_path(c.gpu(0), c.gpu(2), 3);
  ASSERT_EQ(p.links.size(), 2u);
  EXPECT_EQ(c.node(c.link(p.links[0]).dst).kind, NodeKind::Cpu);
}

TEST(Router, TorusRoutesCrossServersThroughTheirRouters) {
  // 1-GPU servers with 4 ports on a 4x4 torus. gpu0 at (0,0) to gpu10 at (2,2) is 4 server hops.
  // Links: gpu -> first port (1), 4 cables, a router detour (port -> router -> port) in each of the
  // 3 servers passed through (6), last port -> gpu (1): 12 links through 3 routers.
  ServerTemplate t;
  t.name = "chip";
  t.gpu = {"test-gpu", "tpu", Bandwidth::gBps(1000), 0, "test"};
  TemplateBuilder b(t);
  int g = b.gpu("chip0", 0);
  for (int r = 0; r < 4; ++r) b.link(g, b.nic("port" + std::to_string(r), 0, r, "ib-ndr", ""), "ib-ndr");
  ClusterSpec s = spec_of(t, 16, "single_switch");
  s.fabric.kind = "torus";
  s.fabric.torus_dims = {4, 4};
  Cluster c = build_cluster(s);
  Router r(c);
  Path p = r.hashed_path(c.gpu(0), c.gpu(10), 5);
  ASSERT_EQ(p.links.size(), 12u);
  int routers = 0;
  for (LinkId l : p.links) routers += c.node(c.link(l).dst).kind == NodeKind::Switch;
  EXPECT_EQ(routers, 3);
}
