// NCCL's PXN for send/recv (Router::pxn_relay / pxn_route, Schedule::pxn): a send to a GPU in
// another server leaves through the NIC on the receiver's rail, relayed over NVLink to the GPU
// that owns it, so a rail-optimized fabric carries an all-to-all without climbing to its spines.
#include <gtest/gtest.h>

#include <set>

#include "collective/algorithm.hpp"
#include "collective/communicator.hpp"
#include "collective/nccl_constants.hpp"
#include "model/flow/flow_model.hpp"
#include "routing/router.hpp"
#include "test_clusters.hpp"
#include "topology/cluster_spec.hpp"
#include "topology/servers/servers.hpp"
#include "engine/executor.hpp"

using namespace gf;

namespace {

// Four DGX H100 on a rail-optimized NDR fabric of 12-port switches at 2:1: every leaf has 8 ports
// down and 4 up (2 used), so the 4 NICs of one rail sit on one leaf and other rails are a spine
// away.
ClusterSpec rail_dgx(double oversubscription = 2, int radix = 12) {
  ClusterSpec s = gftest::spec_of(make_dgx_h100(), 4, "rail_optimized", radix);
  s.fabric.oversubscription = oversubscription;
  return s;
}

NodeId gpu(const Cluster& c, int server, int g) { return c.find_node("server" + std::to_string(server) + "/gpu" + std::to_string(g)); }

// The NICs a route crosses and whether any of its links reaches a spine (tier-2 switch).
struct Crossed {
  std::vector<NodeId> nics;
  bool spine = false;
};
Crossed crossed(const Cluster& c, const Route& r) {
  Crossed x;
  for (const Leg& leg : r)
    for (LinkId l : leg.path.links) {
      const Node& d = c.node(c.link(l).dst);
      if (d.kind == NodeKind::Nic) x.nics.push_back(c.link(l).dst);
      if (d.kind == NodeKind::Switch && d.tier == 2) x.spine = true;
    }
  return x;
}

}  // namespace

TEST(RouterPxn, RelaysThroughTheGpuOnTheReceiversRail) {
  Cluster c = build_cluster(rail_dgx());
  Router router(c);
  const NodeId a = gpu(c, 0, 0), b = gpu(c, 1, 3);
  // The relay is the GPU at b's position (3) in a's server.
  EXPECT_EQ(router.pxn_relay(a, b), gpu(c, 0, 3));
  for (int turn = 0; turn < 4; ++turn) {
    const Route r = router.pxn_route(a, b, 11, turn, RoutingPolicy::Ecmp);
    // NVLink legs from gpu0 to gpu3 through the 4 NVSwitch chips (shares 1 in all), then one
    // fabric path from gpu3's side: leaving and entering on one rail, so one leaf, no spine.
    double nvlink_share = 0;
    for (const Leg& leg : r) {
      const NodeId end = c.link(leg.path.links.back()).dst;
      if (end == gpu(c, 0, 3)) nvlink_share += leg.share;
    }
    EXPECT_NEAR(nvlink_share, 1.0, 1e-12) << "turn " << turn;
    const Crossed x = crossed(c, r);
    ASSERT_EQ(x.nics.size(), 2u) << "turn " << turn;
    EXPECT_EQ(c.node(x.nics[0]).server, 0);
    EXPECT_EQ(c.node(x.nics[1]).server, 1);
    EXPECT_EQ(c.server_template().nodes[static_cast<size_t>(c.node(x.nics[0]).local)].rail,
              c.server_template().nodes[static_cast<size_t>(c.node(x.nics[1]).local)].rail);
    EXPECT_FALSE(x.spine) << "turn " << turn;
    EXPECT_EQ(c.link(r.back().path.links.back()).dst, b);
    // Without the relay, gpu0 leaves through its own NIC, on another rail than gpu3's, so the
    // path climbs to a spine: what PXN avoids.
    EXPECT_TRUE(crossed(c, router.route(a, b, 11, turn)).spine) << "turn " << turn;
  }
}

TEST(RouterPxn, NoRelayWhereNcclWouldSendDirectly) {
  Cluster c = build_cluster(rail_dgx());
  Router router(c);
  // Same position: a's own NIC is on b's rail already.
  EXPECT_EQ(router.pxn_relay(gpu(c, 0, 2), gpu(c, 3, 2)), gpu(c, 0, 2));
  // Same server: NVLink reaches b, nothing crosses the network.
  EXPECT_EQ(router.pxn_relay(gpu(c, 0, 0), gpu(c, 0, 5)), gpu(c, 0, 0));
  // pxn_route without a relay is route().
  const Route direct = router.route(gpu(c, 0, 2), gpu(c, 3, 2), 5, 1);
  const Route relayed = router.pxn_route(gpu(c, 0, 2), gpu(c, 3, 2), 5, 1, RoutingPolicy::Ecmp);
  ASSERT_EQ(relayed.size(), direct.size());
  for (size_t i = 0; i < direct.size(); ++i) EXPECT_EQ(relayed[i].path.links, direct[i].path.links);

  // GPUs joined by PCIe only (one GPU per server here, so test the NVLink rule on a 2-GPU box
  // below): no NVLink, no PXN.
  ServerTemplate t;
  t.name = "test-2gpu-phb";
  t.gpu = {"test-gpu", "hopper", Bandwidth::gBps(1000), 100, "test"};
  // gpu0 and nic0 under PCIe switch pcie0; gpu1 straight on the CPU's root port, nic1 under pcie1:
  // gpu1 reaches its NIC through the CPU (PHB), gpu0 reaches its own through one switch (PIX).
  t.nodes = {{"cpu0", NodeKind::Cpu, 0, -1, "", "0-15", ""},     {"gpu0", NodeKind::Gpu, 0, -1, "", "", ""},
             {"gpu1", NodeKind::Gpu, 0, -1, "", "", ""},         {"pcie0", NodeKind::PcieSwitch, 0, -1, "", "", ""},
             {"pcie1", NodeKind::PcieSwitch, 0, -1, "", "", ""}, {"nic0", NodeKind::Nic, 0, 0, "ib-ndr", "", ""},
             {"nic1", NodeKind::Nic, 0, 1, "ib-ndr", "", ""}};
  t.links = {{3, 0, "pcie-gen5-x16", 1}, {4, 0, "pcie-gen5-x16", 1}, {1, 3, "pcie-gen5-x16", 1},
             {5, 3, "pcie-gen5-x16", 1}, {2, 0, "pcie-gen5-x16", 1}, {6, 4, "pcie-gen5-x16", 1}};
  ServerTemplate nv = t;
  nv.links.push_back({1, 2, "nvlink4", 4});
  {
    Cluster pc = build_cluster(gftest::spec_of(t, 2, "single_switch"));
    Router r(pc);
    EXPECT_EQ(r.pxn_relay(gpu(pc, 0, 0), gpu(pc, 1, 1)), gpu(pc, 0, 0)) << "PCIe only: no NVLink hop";
  }
  Cluster nc = build_cluster(gftest::spec_of(nv, 2, "single_switch"));
  Router r(nc);
  // To server 1's gpu1: the relay would be gpu1, whose NIC is behind the host bridge: no PXN.
  EXPECT_EQ(r.pxn_relay(gpu(nc, 0, 0), gpu(nc, 1, 1)), gpu(nc, 0, 0));
  // To server 1's gpu0: the relay gpu0 has its NIC one switch away and NVLink to gpu1: PXN.
  EXPECT_EQ(r.pxn_relay(gpu(nc, 0, 1), gpu(nc, 1, 0)), gpu(nc, 0, 0));
}

TEST(RouterPxn, OnlyNcclSendRecvSchedulesRelay) {
  Cluster c = build_cluster(rail_dgx());
  Router router(c);
  Communicator comm = make_communicator(c, router, 2, 8);
  EXPECT_TRUE(library_uses_pxn(comm));
  CollectiveCall a2a{CollectiveKind::AllToAll, Bytes::mib(1)};
  CollectiveCall sr{CollectiveKind::SendRecv, Bytes::mib(1)};
  EXPECT_TRUE(find_algorithm("direct")->build(comm, a2a, {Protocol::Simple, 2}).pxn());
  EXPECT_TRUE(find_algorithm("sendrecv")->build(comm, sr, {Protocol::Simple, 2}).pxn());
  // MPI's pairwise exchange is not NCCL's send/recv; collectives use NCCL's graph NICs.
  EXPECT_FALSE(find_algorithm("pairwise")->build(comm, a2a, {Protocol::Simple, 2}).pxn());
  CollectiveCall ar{CollectiveKind::AllReduce, Bytes::mib(1)};
  EXPECT_FALSE(find_algorithm("ring")->build(comm, ar, {Protocol::Simple, 2}).pxn());
  // RCCL ships PXN off (NCCL_PXN_DISABLE=1 in ROCm/rccl).
  Communicator amd = comm;
  amd.arch = "cdna3";
  EXPECT_FALSE(library_uses_pxn(amd));
  Communicator pcie = comm;
  pcie.nvlink = false;
  EXPECT_FALSE(library_uses_pxn(pcie));
}

TEST(RouterPxn, AllToAllOnRailsIgnoresAnOversubscribedLeafTier) {
  // All-to-all of S = 1 GiB over the 4 servers x 8 GPUs of rail_dgx(): each GPU sends S/32 to each
  // of 31 peers, 24 of them in other servers. With PXN, NIC r carries what its server's 8 GPUs send
  // to position r of the 3 other servers, 8 x 3 x S/32 = 0.75 S, out of a 400 Gb/s port at the
  // network efficiency 0.92: 46 GB/s. Every send stays on its rail's leaf, so the 2:1 uplinks carry
  // nothing and the time is the NIC's: 0.75 x 2^30 B / 46e9 B/s = 17.506 ms (plus the latency,
  // tens of us). Without PXN, a GPU's sends to the 21 peers at other positions leave through its
  // own NIC and climb: each leaf's 4 NICs push 4 x 0.75 S x 21/24 = 2.625 S up 2 uplinks of 46 GB/s,
  // 2.625 / 2 / 0.75 = 1.75x the NIC time at the very least (ECMP collisions add to it).
  Cluster c = build_cluster(rail_dgx());
  Router router(c);
  Communicator comm = make_communicator(c, router, 4, 8);
  CollectiveCall call{CollectiveKind::AllToAll, Bytes::gib(1)};
  Schedule s = find_algorithm("direct")->build(comm, call, {Protocol::Simple, 16});
  ASSERT_TRUE(s.pxn());
  const double nic_time = 0.75 * static_cast<double>(Bytes::gib(1).count()) / 46e9;
  FlowModel with(c);
  const double t = run_schedule(s, comm, router, with).duration.to_s();
  EXPECT_GE(t, nic_time);
  EXPECT_LT(t, nic_time * 1.005);
  s.set_pxn(false);
  FlowModel without(c);
  EXPECT_GE(run_schedule(s, comm, router, without).duration.to_s(), 1.75 * nic_time);
}
