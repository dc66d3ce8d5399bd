// GPUs that share equally near NICs spread over them (NCCL's per-GPU NIC affinity): two GPUs and
// two NICs under one PCIe switch, as a GB200 tray's Grace CPU holds two GPUs and two NICs.
#include <gtest/gtest.h>

#include <set>

#include "routing/router.hpp"
#include "test_clusters.hpp"

using namespace gf;

namespace {

// gpu0, gpu1, pcie0, nic0 (rail 0), nic1 (rail 1): both NICs are two hops from both GPUs.
ServerTemplate two_gpus_two_nics() {
  ServerTemplate t;
  t.name = "test-2gpu-2nic";
  t.gpu = {"test-gpu", "hopper", Bandwidth::gBps(1000), 100, "test"};
  t.nodes.push_back({"gpu0", NodeKind::Gpu, 0, -1, "", "", ""});
  t.nodes.push_back({"gpu1", NodeKind::Gpu, 0, -1, "", "", ""});
  t.nodes.push_back({"pcie0", NodeKind::PcieSwitch, 0, -1, "", "", ""});
  t.nodes.push_back({"nic0", NodeKind::Nic, 0, 0, "ib-ndr", "", ""});
  t.nodes.push_back({"nic1", NodeKind::Nic, 0, 1, "ib-ndr", "", ""});
  for (int n : {0, 1, 3, 4}) t.links.push_back({n, 2, "pcie-gen5-x16", 1});
  return t;
}

// The NIC a route leaves its server through: the first NIC node on the path.
NodeId first_nic(const Cluster& c, const Route& r) {
  for (LinkId l : r.front().path.links)
    if (c.node(c.link(l).dst).kind == NodeKind::Nic) return c.link(l).dst;
  return kNoNode;
}

}  // namespace

TEST(RouterNicSpread, GpusSharingNicsLeaveThroughDifferentOnes) {
  Cluster c = build_cluster(gftest::spec_of(two_gpus_two_nics(), 2, "single_switch"));
  Router router(c);
  // Server 0's two GPUs send to server 1's GPU 0 on channel turn 0: before, both took the first
  // pairing (nic0); with the turn starting at each GPU's position, gpu0 takes nic0 and gpu1 nic1.
  for (int turn = 0; turn < 4; ++turn) {
    std::set<NodeId> used;
    for (int g : {0, 1}) used.insert(first_nic(c, router.route(c.gpu(g), c.gpu(2), 7, turn)));
    EXPECT_EQ(used.size(), 2u) << "turn " << turn;
    EXPECT_EQ(used.count(kNoNode), 0u);
  }
  // One GPU's successive turns alternate NICs (channels spread over both).
  EXPECT_NE(first_nic(c, router.route(c.gpu(0), c.gpu(2), 7, 0)), first_nic(c, router.route(c.gpu(0), c.gpu(2), 7, 1)));
}
