// NCCL's network-transport variables (topology/net_transport.hpp): NCCL_NET_GDR_LEVEL and
// NCCL_NET=Socket (host staging, TCP), NCCL_PXN_DISABLE (sends leave through the sender's own NIC),
// NCCL_CROSS_NIC (rings may change rails between servers). Every expected figure is derived in the
// comment beside it from catalog rates and NCCL's constants, never read off the program.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <gpufabric/perf_context.hpp>

#include "collective/algorithm.hpp"
#include "collective/communicator.hpp"
#include "collective/nccl_constants.hpp"
#include "config/presets.hpp"
#include "core/error.hpp"
#include "engine/executor.hpp"
#include "model/flow/flow_model.hpp"
#include "nccl/nccl_env.hpp"
#include "routing/gpu_nic_path.hpp"
#include "routing/router.hpp"
#include "test_clusters.hpp"
#include "topology/cluster_spec.hpp"
#include "topology/servers/servers.hpp"
#include "topology/transport_env.hpp"
#include "workload/sweep.hpp"

using namespace gf;

namespace {

NcclSettings settings(const std::vector<std::pair<std::string, std::string>>& vars) {
  NcclSettings s;
  apply_nccl_env(s, vars, "--env");
  return s;
}

ClusterOverrides env(const std::vector<std::pair<std::string, std::string>>& vars, int64_t nodes) {
  ClusterOverrides o = with_ib_hca(ClusterOverrides{}, settings(vars));
  o.nodes = nodes;
  return o;
}

// Ring all-reduce busbw, ring/Simple, 1 GiB, of GPU 0 of each of 2 pcie-8gpu servers (2 ranks).
double pcie_pair_busbw(const std::vector<std::pair<std::string, std::string>>& vars) {
  const Cluster c = build_cluster(resolve_cluster("pcie-8gpu", env(vars, 2)));
  const Router r(c);
  const Communicator comm = make_communicator(c, r, 2, 1);
  SweepOptions s;
  s.call.kind = CollectiveKind::AllReduce;
  s.min_bytes = s.max_bytes = Bytes(int64_t{1} << 30);
  s.algo = "ring";
  s.proto = "simple";
  return run_sweep(comm, r, s).at(0).busbw_gBps;
}

std::vector<std::string> node_names(const Cluster& c, const Path& p) {
  std::vector<std::string> out;
  for (LinkId l : p.links) {
    const std::string n = c.node_name(c.link(l).dst);
    out.push_back(n.substr(n.find('/') + 1));
  }
  return out;
}

// Four DGX H100 on a rail-optimized NDR fabric of 12-port switches at 2:1 (as
// tests/router_pxn_test.cpp): the 4 NICs of one rail sit on one leaf, 2 uplinks used per leaf.
ClusterSpec rail_dgx(const NcclSettings& s) {
  ClusterSpec spec = gftest::spec_of(make_dgx_h100(), 4, "rail_optimized", 12);
  spec.fabric.oversubscription = 2;
  apply_transport_env(spec.server.transport, s);
  return spec;
}

NodeId gpu(const Cluster& c, int server, int g) {
  return c.find_node("server" + std::to_string(server) + "/gpu" + std::to_string(g));
}

bool climbs_to_spine(const Cluster& c, const Path& p) {
  for (LinkId l : p.links) {
    const Node& d = c.node(c.link(l).dst);
    if (d.kind == NodeKind::Switch && d.tier == 2) return true;
  }
  return false;
}

}  // namespace

TEST(NcclNetEnv, ParsesAppliesAndRefuses) {
  const NcclSettings s = settings({{"NCCL_NET_GDR_LEVEL", "PHB"}, {"NCCL_NET", "socket"},
                                   {"NCCL_PXN_DISABLE", "1"}, {"NCCL_CROSS_NIC", "1"}});
  EXPECT_EQ(s.applied.size(), 4u);
  EXPECT_TRUE(s.ignored.empty());
  EXPECT_EQ(s.net.gdr_level.value_or(-1), int{kNcclPathPhb});
  EXPECT_TRUE(s.net.socket);  // NCCL matches NCCL_NET without case
  EXPECT_TRUE(s.net.pxn_disabled);
  EXPECT_EQ(s.net.cross_nic, 1);
  EXPECT_TRUE(changes_cluster(s));
  // NCCL's old numbers (paths.cc levelsOldToNew): 1 PIX, 2 PXB, 3 PHB, 4 and above SYS.
  EXPECT_EQ(parse_gdr_level("2").value_or(-1), int{kNcclPathPxb});
  EXPECT_EQ(parse_gdr_level("7").value_or(-1), int{kNcclPathSys});
  EXPECT_EQ(parse_gdr_level("P2C").value_or(-1), int{kNcclPathP2c});
  EXPECT_FALSE(parse_gdr_level("NODE"));
  for (const auto& bad : std::vector<std::pair<std::string, std::string>>{
           {"NCCL_NET_GDR_LEVEL", "NODE"}, {"NCCL_NET", "UCX"}, {"NCCL_PXN_DISABLE", "2"}, {"NCCL_CROSS_NIC", "3"}}) {
    try {
      settings({bad});
      FAIL() << bad.first << "=" << bad.second << " accepted";
    } catch (const InputError& e) {
      EXPECT_EQ(e.key(), bad.first);
    }
  }
}

TEST(NcclNetEnv, GpuToNicPathTypes) {
  // pcie-8gpu: each GPU shares a PCIe switch with one NIC (PIX); NCCL's default GDR level P2C
  // keeps GPUDirect RDMA, so no GPU stages and routes are as before.
  const Cluster c = build_cluster(resolve_cluster("pcie-8gpu", env({}, 2)));
  EXPECT_EQ(gpu_nic_path_type(c, c.find_node("server0/gpu0"), c.find_node("server0/nic0")), kNcclPathPix);
  // gpu2 reaches nic0 up its switch, through cpu0's root complex and down pcie0: PHB.
  EXPECT_EQ(gpu_nic_path_type(c, c.find_node("server0/gpu2"), c.find_node("server0/nic0")), kNcclPathPhb);
  // gpu4 (socket 1) to nic0 crosses the UPI link: SYS.
  EXPECT_EQ(gpu_nic_path_type(c, c.find_node("server0/gpu4"), c.find_node("server0/nic0")), kNcclPathSys);
  EXPECT_EQ(Router(c).staged_gpus(), 0);
}

TEST(NcclNetEnv, GdrOffStagesThroughTheGpusCpu) {
  // NCCL_NET_GDR_LEVEL=LOC: the PIX path is beyond the level, so gpu0's traffic detours through
  // cpu0 (paths.cc addInterStep CPU between GPU and NET, both ways): gpu0 -> pcie0 -> cpu0 ->
  // pcie0 -> nic0 out, and nic0 -> pcie0 -> cpu0 -> pcie0 -> gpu0 in.
  const Cluster c = build_cluster(resolve_cluster("pcie-8gpu", env({{"NCCL_NET_GDR_LEVEL", "LOC"}}, 2)));
  const Router r(c);
  EXPECT_EQ(r.staged_gpus(), 8);
  const NodeId b = gpu(c, 1, 0);
  const std::vector<std::string> names = node_names(c, r.hashed_path(gpu(c, 0, 0), b, 3));
  ASSERT_GE(names.size(), 9u);
  const std::vector<std::string> out(names.begin(), names.begin() + 4);
  EXPECT_EQ(out, (std::vector<std::string>{"pcie0", "cpu0", "pcie0", "nic0"}));
  const std::vector<std::string> in(names.end() - 4, names.end() - 1);
  EXPECT_EQ(in, (std::vector<std::string>{"pcie0", "cpu0", "pcie0"}));
  EXPECT_EQ(c.link(r.hashed_path(gpu(c, 0, 0), b, 3).links.back()).dst, b);
  // PXB keeps the PIX GPUs direct.
  const Cluster pxb = build_cluster(resolve_cluster("pcie-8gpu", env({{"NCCL_NET_GDR_LEVEL", "PXB"}}, 2)));
  EXPECT_EQ(Router(pxb).staged_gpus(), 0);
}

TEST(NcclNetEnv, GdrOffAndSocketsCostWhatTheirPathsCost) {
  // Two ranks, GPU 0 of two pcie-8gpu servers, ring/Simple all-reduce of 1 GiB: busbw is the
  // per-rank rate of the one flow each way (2 ranks: busbw = algbw).
  // GPUDirect (default): gpu0 -> pcie0 -> nic0 -> leaf -> nic0 -> pcie0 -> gpu0. The 200 Gb/s RoCE
  // port at the network efficiency 0.92 is 25 x 0.92 = 23.0 GB/s; PCIe Gen4 x16 at NCCL's 24 GB/s
  // is wider. So 23.0.
  // GDR off: pcie0's uplink carries the outgoing flow up (gpu0 -> cpu0) and the incoming one up
  // (nic0 -> cpu0), and both down: two flows a direction on 24 GB/s, 12.0 each.
  // Sockets (NCCL_NET=Socket): staged as GDR off (12.0 on the uplink), and the port at the TCP
  // fraction 0.30 (model_params.hpp tcp_efficiency): 25 x 0.30 = 7.5 GB/s, the bottleneck.
  const double gdr = pcie_pair_busbw({});
  const double staged = pcie_pair_busbw({{"NCCL_NET_GDR_LEVEL", "LOC"}});
  const double socket = pcie_pair_busbw({{"NCCL_NET", "Socket"}});
  EXPECT_NEAR(gdr, 23.0, 23.0 * 0.03);
  EXPECT_NEAR(staged, 12.0, 12.0 * 0.03);
  EXPECT_NEAR(socket, 7.5, 7.5 * 0.03);
  // NCCL_NET=IB is NCCL's verbs transport: what runs by default on RoCE NICs.
  EXPECT_NEAR(pcie_pair_busbw({{"NCCL_NET", "IB"}}), gdr, gdr * 1e-9);
}

TEST(NcclNetEnv, PxnDisableSendsThroughTheOwnNic) {
  const Cluster on = build_cluster(rail_dgx({}));
  const Cluster off = build_cluster(rail_dgx(settings({{"NCCL_PXN_DISABLE", "1"}})));
  const Router ron(on), roff(off);
  EXPECT_TRUE(library_uses_pxn(make_communicator(on, ron, 2, 8)));
  const Communicator comm = make_communicator(off, roff, 4, 8);
  EXPECT_FALSE(library_uses_pxn(comm));
  CollectiveCall call{CollectiveKind::AllToAll, Bytes::gib(1)};
  Schedule s = find_algorithm("direct")->build(comm, call, {Protocol::Simple, 16});
  EXPECT_FALSE(s.pxn());
  // All-to-all of 1 GiB on 4 x 8 GPUs, as router_pxn_test.cpp derives it: with PXN the NICs bound
  // it at 0.75 x 2^30 B / 46e9 B/s; without, each leaf's 4 NICs push 2.625 S up 2 uplinks of
  // 46 GB/s, at least 1.75x that time.
  const double nic_time = 0.75 * static_cast<double>(Bytes::gib(1).count()) / 46e9;
  FlowModel m(off);
  EXPECT_GE(run_schedule(s, comm, roff, m).duration.to_s(), 1.75 * nic_time);
}

TEST(NcclNetEnv, CrossNicRingsChangeRails) {
  const Cluster dflt = build_cluster(rail_dgx({}));
  const Cluster cross = build_cluster(rail_dgx(settings({{"NCCL_CROSS_NIC", "1"}})));
  const Router rd(dflt), rx(cross);
  const Communicator cd = make_communicator(dflt, rd, 4, 8), cx = make_communicator(cross, rx, 4, 8);
  // Channel 0 starts at position 0. Default: servers alternate direction, so server 0 ends at
  // position 7 and server 1 starts there (rank 7 -> rank 15, one rail). NCCL_CROSS_NIC=1: every
  // server walks 0..7, so server 0's position 7 sends to server 1's position 0 (rank 7 -> rank 8).
  const std::vector<Rank> d = cd.ring(0), x = cx.ring(0);
  EXPECT_EQ(d[8], 15);
  EXPECT_EQ(x[8], 8);
  for (size_t i = 0; i < x.size(); ++i) EXPECT_EQ(x[i], static_cast<Rank>(i));
  // Rail 7 to rail 0 on a rail-optimized fabric climbs to a spine; rail 7 to rail 7 does not.
  EXPECT_TRUE(climbs_to_spine(cross, rx.hashed_path(gpu(cross, 0, 7), gpu(cross, 1, 0), 1)));
  EXPECT_FALSE(climbs_to_spine(dflt, rd.hashed_path(gpu(dflt, 0, 7), gpu(dflt, 1, 7), 1)));
  // NCCL_CROSS_NIC=0 and 2 keep the default order.
  const Cluster zero = build_cluster(rail_dgx(settings({{"NCCL_CROSS_NIC", "0"}})));
  const Router rz(zero);
  EXPECT_EQ(make_communicator(zero, rz, 4, 8).ring(0), d);
}

TEST(NcclNetEnv, PreambleLineSaysWhatApplies) {
  NetTransportSettings n;
  EXPECT_EQ(net_transport_line(n, 8, 0, kNcclPathPix), "");
  n.gdr_level = kNcclPathLoc;
  EXPECT_EQ(net_transport_line(n, 8, 8, kNcclPathPix),
            "network transport the NICs' own; 8 of 8 GPUs per server stage through host memory (GPU to NIC path PIX > "
            "NCCL_NET_GDR_LEVEL LOC)");
}
