// Transports inside a server (topology/p2p_level.hpp): P2P where NCCL's P2P level allows it, else
// SHM through the host memory of the receiver's CPU, else NET through the NICs; set by
// NCCL_P2P_LEVEL / NCCL_P2P_DISABLE / NCCL_SHM_DISABLE and a server's `p2p: false`.
#include <gtest/gtest.h>

#include <algorithm>

#include <gpufabric/perf_context.hpp>

#include "collective/communicator.hpp"
#include "config/cluster_yaml.hpp"
#include "config/presets.hpp"
#include "core/error.hpp"
#include "nccl/nccl_env.hpp"
#include "routing/router.hpp"
#include "topology/cluster_spec.hpp"
#include "topology/p2p_level.hpp"
#include "workload/sweep.hpp"

using namespace gf;

namespace {

ClusterOverrides env(const std::vector<std::pair<std::string, std::string>>& vars) {
  NcclSettings s;
  apply_nccl_env(s, vars, "--env");
  return with_ib_hca(ClusterOverrides{}, s);
}

// The nodes a route's first leg enters, by their names inside the server ("server0/" dropped).
std::vector<std::string> hops(const Cluster& c, const Route& r) {
  std::vector<std::string> out;
  for (LinkId l : r.at(0).path.links) {
    const std::string n = c.node_name(c.link(l).dst);
    out.push_back(n.substr(n.find('/') + 1));
  }
  return out;
}

// Ring all-reduce busbw of the first `gpus` GPUs of pcie-8gpu, one server, ring/Simple, 1 GiB.
double ring_busbw(const ClusterOverrides& o, int gpus) {
  const Cluster c = build_cluster(resolve_cluster("pcie-8gpu", o));
  const Router r(c);
  const Communicator comm = make_communicator(c, r, 1, gpus);
  SweepOptions s;
  s.call.kind = CollectiveKind::AllReduce;
  s.min_bytes = s.max_bytes = Bytes(int64_t{1} << 30);
  s.algo = "ring";
  s.proto = "simple";
  return run_sweep(comm, r, s).at(0).busbw_gBps;
}

}  // namespace

TEST(Transport, LevelsParseAsNcclNamesAndOldNumbers) {
  EXPECT_EQ(parse_path_type("LOC"), PathType::Loc);
  EXPECT_EQ(parse_path_type("NVL"), PathType::Nvl);
  EXPECT_EQ(parse_path_type("PHB"), PathType::Phb);
  // NCCL's old numbering (src/graph/paths.cc levelsOldToNew): 0 LOC, 1 PIX, 2 PXB, 3 PHB, 4+ SYS.
  EXPECT_EQ(parse_path_type("1"), PathType::Pix);
  EXPECT_EQ(parse_path_type("3"), PathType::Phb);
  EXPECT_EQ(parse_path_type("9"), PathType::Sys);
  EXPECT_FALSE(parse_path_type("pxb"));  // NCCL compares with strcmp: upper case only
  NcclSettings s;
  try {
    apply_nccl_env(s, {{"NCCL_P2P_LEVEL", "NODE"}}, "--env");
    FAIL() << "NODE is nvidia-smi's word, not an NCCL level";
  } catch (const InputError& e) {
    EXPECT_EQ(e.key(), "NCCL_P2P_LEVEL");
  }
  apply_nccl_env(s, {{"NCCL_P2P_DISABLE", "1"}, {"NCCL_SHM_DISABLE", "1"}}, "--env");
  EXPECT_TRUE(s.ignored.empty());  // applied, no longer "not modelled"
  EXPECT_EQ(s.applied.size(), 2u);
  // NCCL_P2P_DISABLE=1 wins over a level given beside it (ncclGetLevel reads it first).
  apply_nccl_env(s, {{"NCCL_P2P_LEVEL", "SYS"}}, "--env");
  EXPECT_EQ(with_ib_hca({}, s).p2p_level, PathType::Loc);
}

TEST(Transport, PairsFollowNcclsOrderP2pShmNet) {
  // pcie-8gpu: GPU pairs under one PCIe switch (PIX), two switches of one socket (PHB), across the
  // sockets (SYS). 28 GPU pairs: 4 PIX, 8 PHB, 16 SYS.
  const auto counts = [](const ClusterOverrides& o) {
    const Cluster c = build_cluster(resolve_cluster("pcie-8gpu", o));
    return Router(c).transport_counts();
  };
  // NCCL's default level PXB: P2P under a switch, SHM through a CPU beyond it.
  Router::TransportCounts d = counts({});
  EXPECT_EQ(d.p2p, 4);
  EXPECT_EQ(d.shm, 24);
  EXPECT_EQ(d.net, 0);
  d = counts(env({{"NCCL_P2P_LEVEL", "SYS"}}));
  EXPECT_EQ(d.p2p, 28);
  d = counts(env({{"NCCL_P2P_LEVEL", "PHB"}}));
  EXPECT_EQ(d.p2p, 12);
  d = counts(env({{"NCCL_P2P_DISABLE", "1"}}));
  EXPECT_EQ(d.shm, 28);
  d = counts(env({{"NCCL_P2P_DISABLE", "1"}, {"NCCL_SHM_DISABLE", "1"}}));
  EXPECT_EQ(d.net, 28);
}

TEST(Transport, ShmClimbsToTheReceiversCpuEvenUnderOneSwitch) {
  const Cluster c = build_cluster(resolve_cluster("pcie-8gpu", env({{"NCCL_P2P_DISABLE", "1"}})));
  const Router r(c);
  // gpu0 and gpu1 share pcie0: P2P would turn at the switch; SHM goes up to cpu0's memory and down.
  EXPECT_EQ(r.transport(c.gpu(0), c.gpu(1)), Transport::Shm);
  EXPECT_EQ(hops(c, r.route(c.gpu(0), c.gpu(1), 0)), (std::vector<std::string>{"pcie0", "cpu0", "pcie0", "gpu1"}));
  // Across sockets the copy crosses UPI into the receiver's socket.
  EXPECT_EQ(hops(c, r.route(c.gpu(0), c.gpu(4), 0)),
            (std::vector<std::string>{"pcie0", "cpu0", "cpu1", "pcie2", "gpu4"}));
  // With P2P as NCCL's default (PXB) the same pair turns at the switch.
  const Cluster d = build_cluster(resolve_cluster("pcie-8gpu", ClusterOverrides{}));
  const Router rd(d);
  EXPECT_EQ(hops(d, rd.route(d.gpu(0), d.gpu(1), 0)), (std::vector<std::string>{"pcie0", "gpu1"}));
}

TEST(Transport, RingThroughHostMemoryHalvesTheSwitchUplinks) {
  // Ring all-reduce on the 4 GPUs of socket 0 (gpu0, gpu1 on pcie0; gpu2, gpu3 on pcie1; both
  // switches on cpu0), ring 0-1-2-3-0.
  // P2P at SYS level: 0->1 and 2->3 turn at their switch; 1->2 and 3->0 use each switch uplink
  // once per direction. Every link carries one flow a direction, so each ring step runs at PCIe
  // Gen4 x16 as the models carry it, NCCL's 24 GB/s (src/graph/topo.h PCI_BW for Gen4 x16, the
  // figure tests/analytical_transport_cost_test.cpp derives too; line rate 16 x 1.969 = 31.504),
  // and busbw, the per-rank link rate of a bandwidth-bound ring, is that: 24 GB/s.
  // NCCL's default level (PXB) gives the same: 1->2 and 3->0 become SHM, whose route (up to cpu0,
  // down the other switch) is the links their P2P route used.
  // P2P off (SHM everywhere): every step climbs to cpu0. pcie0's uplink carries 0->1 and 1->2 up,
  // 0->1 and 3->0 down: two flows a direction, 24 / 2 = 12 GB/s each, so busbw halves.
  const double p2p = ring_busbw(env({{"NCCL_P2P_LEVEL", "SYS"}}), 4);
  const double dflt = ring_busbw(ClusterOverrides{}, 4);
  const double shm = ring_busbw(env({{"NCCL_P2P_DISABLE", "1"}}), 4);
  EXPECT_NEAR(p2p, 24.0, 24.0 * 0.03);
  EXPECT_NEAR(dflt, 24.0, 24.0 * 0.03);
  EXPECT_NEAR(shm, 12.0, 12.0 * 0.03);
}

TEST(Transport, WithShmOffPairsGoThroughTheNics) {
  const Cluster c =
      build_cluster(resolve_cluster("pcie-8gpu", env({{"NCCL_P2P_DISABLE", "1"}, {"NCCL_SHM_DISABLE", "1"}})));
  const Router r(c);
  EXPECT_EQ(r.transport(c.gpu(0), c.gpu(1)), Transport::Net);
  // gpu0 and gpu1 share nic0 (on pcie0): out to the NIC and back, never up to cpu0.
  const std::vector<std::string> same = hops(c, r.route(c.gpu(0), c.gpu(1), 0));
  EXPECT_NE(std::find(same.begin(), same.end(), "nic0"), same.end());
  EXPECT_EQ(std::find(same.begin(), same.end(), "cpu0"), same.end());
  EXPECT_EQ(same.back(), "gpu1");
  // SHM alone off leaves P2P where NCCL's level allows it (PIX under pcie0).
  const Cluster d = build_cluster(resolve_cluster("pcie-8gpu", env({{"NCCL_SHM_DISABLE", "1"}})));
  EXPECT_EQ(Router(d).transport(d.gpu(0), d.gpu(1)), Transport::P2p);
  EXPECT_EQ(Router(d).transport(d.gpu(0), d.gpu(2)), Transport::Net);
}

TEST(Transport, NvlinkServersKeepP2pUnderNcclsDefault) {
  // Every pair of an HGX board is NV# (NVL), below NCCL's default level PXB: no pair changes.
  const Cluster c = build_cluster(resolve_cluster("hgx-h100", ClusterOverrides{}));
  const Router::TransportCounts n = Router(c).transport_counts();
  EXPECT_EQ(n.p2p, 28);
  EXPECT_EQ(n.shm + n.net, 0);
}

TEST(Transport, ServerWithoutP2pIsWrittenAndReadBack) {
  ClusterSpec spec = resolve_cluster("pcie-8gpu", ClusterOverrides{});
  spec.server.transport.p2p_capable = false;
  const std::string yaml = cluster_to_yaml(spec);
  EXPECT_NE(yaml.find("p2p: false"), std::string::npos);
  const ClusterSpec back = parse_cluster_yaml(yaml, "back.yaml");
  EXPECT_FALSE(back.server.transport.p2p_capable);
  const Cluster c = build_cluster(back);
  EXPECT_EQ(Router(c).transport_counts().shm, 28);
  // Listed in the `# nccl:` line with the reason.
  const std::string line = transport_line(back.server, 0, 28, 0);
  EXPECT_NE(line.find("p2p: false"), std::string::npos) << line;
}

TEST(Transport, BadP2pValueIsAnErrorAtItsKey) {
  try {
    parse_cluster_yaml("server: {base: pcie-8gpu, p2p: maybe}\nservers: 1\n", "bad.yaml");
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.key(), "server.p2p");
    EXPECT_EQ(e.where().line, 1);
  }
}

TEST(Transport, NetPairOnTwoSwitchesLeavesThroughEachGpusNic) {
  // pcie-8gpu on two servers (a fabric joins the NICs), P2P and SHM off: gpu0 (nic0, pcie0) and
  // gpu2 (nic1, pcie1) are a NET pair. NCCL's NET transport sends from the sender's NIC to the
  // receiver's NIC over the network, so the route passes nic0, a network switch and nic1, and
  // never climbs to cpu0.
  ClusterOverrides o = env({{"NCCL_P2P_DISABLE", "1"}, {"NCCL_SHM_DISABLE", "1"}});
  o.nodes = 2;
  const Cluster c = build_cluster(resolve_cluster("pcie-8gpu", o));
  const Router r(c);
  ASSERT_EQ(r.transport(c.gpu(0), c.gpu(2)), Transport::Net);
  std::vector<std::string> path;
  for (const Leg& leg : r.route(c.gpu(0), c.gpu(2), 0))
    for (LinkId l : leg.path.links) path.push_back(c.node_name(c.link(l).dst));
  std::string joined;
  for (const std::string& n : path) joined += n + " ";
  EXPECT_NE(std::find(path.begin(), path.end(), "server0/nic0"), path.end()) << joined;
  EXPECT_NE(std::find(path.begin(), path.end(), "server0/nic1"), path.end()) << joined;
  EXPECT_EQ(std::find(path.begin(), path.end(), "server0/cpu0"), path.end()) << joined;
}
