// The doctor's server rules, each on a server built to trigger it and on servers built not to
// (dgx-h100 must give none of them), and the predicted busbw before and after each modelled fix.
// Bandwidths are per direction, from the catalog: PCIe Gen5 x16 63.0 GB/s, Gen4 x16 31.5 GB/s,
// NDR 400 Gb/s = 50 GB/s, NVLink4 25 GB/s per lane, Skylake UPI 10 GB/s.
//
// Two bounds hold for any all-reduce algorithm of S bytes on n ranks (busbw = algbw x 2(n-1)/n):
//  - cut bound: across a cut splitting the ranks, each side must receive at least S bytes (the
//    other side's contribution, reduced or not), so algbw <= the cut's bandwidth per direction;
//  - rank bound: without reduction in the network, each rank receives at least 2(n-1)/n x S, so
//    busbw <= a rank's ingress bandwidth.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "doctor/doctor.hpp"
#include "test_clusters.hpp"
#include "topology/server_registry.hpp"

namespace gf {
namespace {

// A size far above the latency-bound range: busbw there is set by bandwidths alone.
constexpr Bytes kSize = Bytes::mib(256);

ServerTemplate builtin(const std::string& name) { return find_server(name)->make(); }

std::vector<Finding> run_rule(const std::string& rule, const ServerTemplate& t, int64_t servers = 1) {
  ClusterSpec spec = gftest::spec_of(t, servers, "single_switch");
  Cluster cluster = build_cluster(spec);
  Router router(cluster);
  DoctorContext ctx{spec, cluster, router};
  for (const DoctorRule& r : server_rules())
    if (rule == r.name) return r.check(ctx);
  ADD_FAILURE() << "no rule " << rule;
  return {};
}

// nic-mix on a spec the test shaped itself (a fabric link set).
std::vector<Finding> check_nic_mix_for_test(const ClusterSpec& spec, const Cluster& cluster, const Router& router) {
  DoctorContext ctx{spec, cluster, router};
  for (const DoctorRule& r : server_rules())
    if (std::string(r.name) == "nic-mix") return r.check(ctx);
  ADD_FAILURE() << "no rule nic-mix";
  return {};
}

// The rule's findings with run_doctor's predictions.
std::vector<Finding> diagnose(const std::string& rule, const ServerTemplate& t) {
  DoctorOptions opt;
  opt.size = kSize;
  opt.rules = {rule};
  return run_doctor(gftest::spec_of(t, 1, "single_switch"), opt).findings;
}

bool mentions(const Finding& f, const std::string& text) {
  return std::any_of(f.evidence.begin(), f.evidence.end(), [&](const std::string& e) {
    return e.find(text) != std::string::npos;
  });
}

// Template helpers: nodes by name, links by names.
struct Builder {
  ServerTemplate t;
  Builder() {
    t.name = "test-server";
    t.gpu = {"test-gpu", "hopper", Bandwidth::gBps(3000), 100, "test"};
  }
  int node(const std::string& name, NodeKind kind, int numa = 0, const std::string& tech = "") {
    int rail = kind == NodeKind::Nic ? t.count(NodeKind::Nic) : -1;
    t.nodes.push_back({name, kind, numa, rail, tech, "", ""});
    return static_cast<int>(t.nodes.size() - 1);
  }
  void link(const std::string& a, const std::string& b, const std::string& tech, int lanes = 1) {
    t.links.push_back({t.index_of(a), t.index_of(b), tech, lanes});
  }
};

// Two sockets joined by Skylake UPI; gpu0 and gpu1 under pcie0 on socket 0, the only NIC (NDR)
// under pcie1 on socket 1: both GPUs see it as SYS.
ServerTemplate far_nic_server() {
  Builder b;
  b.node("cpu0", NodeKind::Cpu, 0);
  b.node("cpu1", NodeKind::Cpu, 1);
  b.node("pcie0", NodeKind::PcieSwitch, 0);
  b.node("gpu0", NodeKind::Gpu, 0);
  b.node("gpu1", NodeKind::Gpu, 0);
  b.node("pcie1", NodeKind::PcieSwitch, 1);
  b.node("nic0", NodeKind::Nic, 1, "ib-ndr");
  b.link("cpu0", "cpu1", "upi-skylake");
  b.link("pcie0", "cpu0", "pcie-gen5-x16");
  b.link("gpu0", "pcie0", "pcie-gen5-x16");
  b.link("gpu1", "pcie0", "pcie-gen5-x16");
  b.link("pcie1", "cpu1", "pcie-gen5-x16");
  b.link("nic0", "pcie1", "pcie-gen5-x16");
  return b.t;
}

// gpu0 and gpu1 joined by 18 NVLink4 lanes (450 GB/s), both under pcie0 with one NDR NIC.
ServerTemplate shared_nic_server() {
  Builder b;
  b.node("cpu0", NodeKind::Cpu, 0);
  b.node("pcie0", NodeKind::PcieSwitch, 0);
  b.node("gpu0", NodeKind::Gpu, 0);
  b.node("gpu1", NodeKind::Gpu, 0);
  b.node("nic0", NodeKind::Nic, 0, "ib-ndr");
  b.link("pcie0", "cpu0", "pcie-gen5-x16");
  b.link("gpu0", "pcie0", "pcie-gen5-x16");
  b.link("gpu1", "pcie0", "pcie-gen5-x16");
  b.link("nic0", "pcie0", "pcie-gen5-x16");
  b.link("gpu0", "gpu1", "nvlink4", 18);
  return b.t;
}

// Four GPUs on one PCIe switch with its own NDR NIC each, NVLink4 between every pair: 2 lanes,
// except gpu3's links with `gpu3_lanes`; pairs listed in `skip` have no NVLink.
ServerTemplate mesh_server(int gpu3_lanes, std::vector<std::pair<int, int>> skip = {}) {
  Builder b;
  b.node("cpu0", NodeKind::Cpu, 0);
  b.node("pcie0", NodeKind::PcieSwitch, 0);
  b.link("pcie0", "cpu0", "pcie-gen5-x16");
  for (int g = 0; g < 4; ++g) {
    b.node("gpu" + std::to_string(g), NodeKind::Gpu, 0);
    b.node("nic" + std::to_string(g), NodeKind::Nic, 0, "ib-ndr");
    b.link("gpu" + std::to_string(g), "pcie0", "pcie-gen5-x16");
    b.link("nic" + std::to_string(g), "pcie0", "pcie-gen5-x16");
  }
  for (int g = 0; g < 4; ++g)
    for (int h = g + 1; h < 4; ++h)
      if (std::find(skip.begin(), skip.end(), std::pair{g, h}) == skip.end())
        b.link("gpu" + std::to_string(g), "gpu" + std::to_string(h), "nvlink4", h == 3 ? gpu3_lanes : 2);
  return b.t;
}

// dgx-h100 with gpu5's link to nvswitch0 one lane short (4 of its 5): 17 of 18 lanes.
ServerTemplate dgx_h100_lane_down() {
  ServerTemplate t = builtin("dgx-h100");
  int gpu5 = t.index_of("gpu5"), sw0 = t.index_of("nvswitch0");
  for (ServerLink& l : t.links)
    if ((l.a == gpu5 && l.b == sw0) || (l.a == sw0 && l.b == gpu5)) l.lanes -= 1;
  return t;
}

TEST(DoctorServerRules, RegistryNamesTheSixRules) {
  std::vector<std::string> names;
  for (const DoctorRule& r : server_rules()) names.emplace_back(r.name);
  EXPECT_EQ(names, (std::vector<std::string>{"nic-affinity", "pcie-contention", "gpu-p2p", "nvlink-imbalance",
                                             "nic-shortage", "nic-mix"}));
  for (const DoctorRule& r : server_rules()) {
    EXPECT_FALSE(std::string(r.description).empty()) << r.name;
    EXPECT_FALSE(std::string(r.source).empty()) << r.name;
  }
}

TEST(DoctorServerRules, DgxH100GivesNoServerFinding) {
  // One NDR NIC per GPU on the GPU's own switch (PIX), NV18 between every pair, 18 lanes each,
  // NVLink 450 GB/s / NIC 50 GB/s = 9 (below the limit of 20).
  for (const DoctorRule& r : server_rules())
    EXPECT_TRUE(run_rule(r.name, builtin("dgx-h100"), 2).empty()) << r.name;
}

TEST(DoctorServerRules, BalancedServersGiveNoFinding) {
  // GB200 trays: GPUs reach the NICs of their own Grace over C2C (nvidia-smi says SYS, NCCL uses
  // GDR over C2C); NVLink 18 x 50 = 900 GB/s / NIC 50 GB/s = 18, below 20. MI300X: xGMI full mesh,
  // one NIC per GPU on its switch.
  for (const char* server : {"gb200-nvl72", "mi300x", "dgx-a100"})
    for (const DoctorRule& r : server_rules())
      EXPECT_TRUE(run_rule(r.name, builtin(server)).empty()) << server << " " << r.name;
}

TEST(DoctorNicAffinity, NicAcrossTheSocketLinkIsCritical) {
  auto found = run_rule("nic-affinity", far_nic_server());
  ASSERT_EQ(found.size(), 1u);
  const Finding& f = found[0];
  EXPECT_EQ(f.severity, Severity::Critical);  // SYS, and no NVLink peer for PXN
  EXPECT_EQ(f.evidence.size(), 2u);           // one line per GPU
  EXPECT_TRUE(mentions(f, "gpu0 on NUMA 0: nearest NIC nic0 on NUMA 1 is SYS"));
  ASSERT_TRUE(f.compare);
  // The fix adds one NIC per affected GPU: 1 + 2 NICs; both sides run on two servers.
  EXPECT_EQ(f.compare->before.server.count(NodeKind::Nic), 1);
  EXPECT_EQ(f.compare->after.server.count(NodeKind::Nic), 3);
  EXPECT_EQ(f.compare->before.servers, 2);
  EXPECT_EQ(f.compare->after.servers, 2);
}

TEST(DoctorNicAffinity, FixIsPredictedFaster) {
  auto found = diagnose("nic-affinity", far_nic_server());
  ASSERT_EQ(found.size(), 1u);
  ASSERT_TRUE(found[0].predicted);
  const Prediction& p = *found[0].predicted;
  EXPECT_EQ(p.ranks, 4);  // 2 servers x 2 GPUs
  // Before, everything between the servers crosses the 10 GB/s UPI link on each side: cut bound
  // algbw <= 10 GB/s, busbw <= 10 x 2 x 3 / 4 = 15 GB/s. After, the UPI is off the path and each
  // server has two 50 GB/s NICs: busbw <= 100 x 1.5 = 150 GB/s; the UPI bound is gone, so expect
  // well over twice the busbw.
  EXPECT_LE(p.busbw_before_gBps, 15.0 * 1.001);
  EXPECT_LE(p.busbw_after_gBps, 150.0 * 1.001);
  EXPECT_GT(p.busbw_after_gBps, 2 * p.busbw_before_gBps);
}

TEST(DoctorNicAffinity, NvlinkPeerNearANicMakesItInfo) {
  // shared_nic_server with the NIC moved to a second socket would be SYS for both; here instead
  // one GPU of an NVLink pair has its NIC on its switch and the other sits on another socket's
  // switch: NCCL's PXN sends the far GPU's traffic through its NVLink peer.
  Builder b;
  b.node("cpu0", NodeKind::Cpu, 0);
  b.node("cpu1", NodeKind::Cpu, 1);
  b.node("pcie0", NodeKind::PcieSwitch, 0);
  b.node("pcie1", NodeKind::PcieSwitch, 1);
  b.node("gpu0", NodeKind::Gpu, 0);
  b.node("gpu1", NodeKind::Gpu, 1);
  b.node("nic0", NodeKind::Nic, 0, "ib-ndr");
  b.link("cpu0", "cpu1", "upi-skylake");
  b.link("pcie0", "cpu0", "pcie-gen5-x16");
  b.link("pcie1", "cpu1", "pcie-gen5-x16");
  b.link("gpu0", "pcie0", "pcie-gen5-x16");
  b.link("nic0", "pcie0", "pcie-gen5-x16");
  b.link("gpu1", "pcie1", "pcie-gen5-x16");
  b.link("gpu0", "gpu1", "nvlink4", 18);
  auto found = run_rule("nic-affinity", b.t);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].severity, Severity::Info);
  EXPECT_TRUE(mentions(found[0], "PXN can send through gpu0"));
}

TEST(DoctorNicAffinity, NoNicAtAll) {
  ServerTemplate t = far_nic_server();
  int nic = t.index_of("nic0");
  t.nodes.erase(t.nodes.begin() + nic);  // the last node: no link index shifts but its own
  t.links.pop_back();
  auto found = run_rule("nic-affinity", t);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].severity, Severity::Warning);
  EXPECT_FALSE(found[0].compare);  // no two-server "before" can be built without a NIC
}

TEST(DoctorPcieContention, Pcie8GpuSwitchesShareNicAndUplink) {
  // pcie-8gpu: 4 Gen4 switches, each with 2 GPUs and one 200 GbE NIC (25 GB/s): 12.5 GB/s of
  // scale-out per GPU; each GPU has PHB/SYS peers beyond its switch, so the two Gen4 x16 GPU links
  // (2 x 31.5 GB/s) feed one Gen4 x16 uplink: 2:1.
  auto found = run_rule("pcie-contention", builtin("pcie-8gpu"));
  ASSERT_EQ(found.size(), 4u);
  for (const Finding& f : found) {
    EXPECT_EQ(f.severity, Severity::Warning);
    EXPECT_TRUE(mentions(f, "share 1 NIC(s) of 25 GB/s in all: 12.5 GB/s of scale-out each")) << f.summary;
    EXPECT_TRUE(mentions(f, "2:1")) << f.summary;
    ASSERT_TRUE(f.compare);
    EXPECT_EQ(f.compare->after.server.count(NodeKind::Nic), 8);  // one per GPU
  }
  EXPECT_TRUE(mentions(found[0], "pcie0 holds gpu0, gpu1, nic0 (mlx5_0)"));
}

TEST(DoctorPcieContention, SecondNicIsPredictedFaster) {
  auto found = diagnose("pcie-contention", shared_nic_server());
  ASSERT_EQ(found.size(), 1u);
  EXPECT_FALSE(mentions(found[0], "uplink"));  // the GPUs talk over NVLink, not through the uplink
  ASSERT_TRUE(found[0].predicted);
  const Prediction& p = *found[0].predicted;
  // Before, all traffic between the two servers goes through one 50 GB/s NIC per server: cut
  // bound algbw <= 50, busbw <= 50 x 2 x 3 / 4 = 75 GB/s. After, two NICs: busbw <= 150 GB/s. The
  // NIC is the bottleneck before (NVLink 450 GB/s, PCIe 63 GB/s per GPU), so the gain is real.
  EXPECT_LE(p.busbw_before_gBps, 75.0 * 1.001);
  EXPECT_LE(p.busbw_after_gBps, 150.0 * 1.001);
  EXPECT_GE(p.busbw_after_gBps, 1.2 * p.busbw_before_gBps);
}

TEST(DoctorPcieContention, OneNicPerGpuIsFine) {
  // 4 GPUs and 4 NICs on one switch, every GPU pair on NVLink: no NIC or uplink is shared.
  EXPECT_TRUE(run_rule("pcie-contention", mesh_server(2)).empty());
}

TEST(DoctorGpuP2p, RootPortBoxHasNoPeerToPeerAtAll) {
  // pcie-8gpu-rootport (8x RTX 4090): every GPU on its own root port, each on its own NUMA node
  // across two sockets: all 8 x 7 / 2 = 28 pairs are SYS.
  auto found = run_rule("gpu-p2p", builtin("pcie-8gpu-rootport"));
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].severity, Severity::Critical);
  EXPECT_TRUE(mentions(found[0], "28 of 28 GPU pairs have no NVLink and no shared PCIe switch (28 SYS)"));
}

TEST(DoctorGpuP2p, Pcie8GpuCountsAndPrediction) {
  // pcie-8gpu: pairs share a switch (4 PIX pairs); the other pair of the same socket is PHB
  // (2 sockets x 4 = 8 pairs); the other socket is SYS (4 x 4 = 16 pairs): 24 of 28 >= half.
  auto found = diagnose("gpu-p2p", builtin("pcie-8gpu"));
  ASSERT_EQ(found.size(), 1u);
  const Finding& f = found[0];
  EXPECT_EQ(f.severity, Severity::Critical);
  EXPECT_TRUE(mentions(f, "24 of 28 GPU pairs have no NVLink and no shared PCIe switch (8 PHB, 16 SYS)"));
  EXPECT_TRUE(mentions(f, "gpu0: PHB to gpu2, gpu3; SYS to gpu4, gpu5, gpu6, gpu7"));
  ASSERT_TRUE(f.predicted);
  const Prediction& p = *f.predicted;
  EXPECT_EQ(p.ranks, 8);  // one server
  // Before, the two sockets are joined by the 10 GB/s UPI link: cut bound algbw <= 10 GB/s,
  // busbw <= 10 x 2 x 7 / 8 = 17.5 GB/s. After, every GPU is on one switch: rank bound busbw <= a
  // GPU's 31.5 GB/s Gen4 x16 link.
  EXPECT_LE(p.busbw_before_gBps, 17.5 * 1.001);
  EXPECT_GT(p.busbw_after_gBps, 1.5 * p.busbw_before_gBps);
  EXPECT_LE(p.busbw_after_gBps, 31.5 * 1.001);
}

TEST(DoctorGpuP2p, OneSwitchIsFine) { EXPECT_TRUE(run_rule("gpu-p2p", shared_nic_server()).empty()); }

TEST(DoctorNvlinkImbalance, OneLaneDownOnDgxH100) {
  auto found = diagnose("nvlink-imbalance", dgx_h100_lane_down());
  ASSERT_EQ(found.size(), 1u);
  const Finding& f = found[0];
  EXPECT_EQ(f.severity, Severity::Warning);  // 17 / 18 is far above half
  EXPECT_TRUE(mentions(f, "gpu4 18, gpu5 17, gpu6 18"));
  EXPECT_TRUE(mentions(f, "slowest GPU gpu5: 425 GB/s"));  // 17 x 25 GB/s
  ASSERT_TRUE(f.predicted);
  const Prediction& p = *f.predicted;
  // Every ring passes through gpu5, whose NVLink is 17/18 of the others' (425 vs 450 GB/s), and the
  // NVSwitch spreads its traffic over all its lanes: restoring the lane should gain 18/17 = 1.059.
  EXPECT_NEAR(p.busbw_after_gBps / p.busbw_before_gBps, 18.0 / 17.0, 0.02);
}

TEST(DoctorNvlinkImbalance, HalfLanesOnOneGpuOfAMesh) {
  // gpu3 has 1 lane to each peer, the others 2: lanes gpu0..2 = 2 + 2 + 1 = 5, gpu3 = 3.
  auto found = diagnose("nvlink-imbalance", mesh_server(1));
  ASSERT_EQ(found.size(), 1u);
  EXPECT_TRUE(mentions(found[0], "gpu0 5, gpu1 5, gpu2 5, gpu3 3"));
  ASSERT_TRUE(found[0].predicted);
  const Prediction& p = *found[0].predicted;
  // Rank bound (GPU peers talk over NVLink, not the 2-hop PCIe path): before, gpu3 receives on
  // 3 x 25 = 75 GB/s; after, every GPU on 3 x 50 = 150 GB/s.
  EXPECT_LE(p.busbw_before_gBps, 75.0 * 1.001);
  EXPECT_LE(p.busbw_after_gBps, 150.0 * 1.001);
  EXPECT_GT(p.busbw_after_gBps, 1.5 * p.busbw_before_gBps);
}

TEST(DoctorNvlinkImbalance, PartialMesh) {
  // Ring-only NVLink: 0-1, 1-2, 2-3, 0-3 (2 lanes each, 4 per GPU); 0-2 and 1-3 have none (PIX).
  auto found = run_rule("nvlink-imbalance", mesh_server(2, {{0, 2}, {1, 3}}));
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(found[0].summary.find("partial NVLink mesh: 2 GPU pairs"), std::string::npos);
  EXPECT_TRUE(mentions(found[0], "gpu0-gpu2 (PIX), gpu1-gpu3 (PIX)"));
  ASSERT_TRUE(found[0].compare);
  // The fix links the two missing pairs: 6 + 2 NVLink links.
  auto nvlinks = [](const ServerTemplate& t) {
    return std::count_if(t.links.begin(), t.links.end(), [](const ServerLink& l) { return l.tech == "nvlink4"; });
  };
  EXPECT_EQ(nvlinks(found[0].compare->before.server), 4);
  EXPECT_EQ(nvlinks(found[0].compare->after.server), 6);
}

TEST(DoctorNvlinkImbalance, FullMeshIsFine) { EXPECT_TRUE(run_rule("nvlink-imbalance", mesh_server(2)).empty()); }

TEST(DoctorNicShortage, Pcie8GpuHasHalfANicPerGpu) {
  // 4 x 200 GbE = 4 x 25 = 100 GB/s for 8 GPUs: 12.5 GB/s each; 8 GPUs < 4 x 4, so a warning.
  auto found = run_rule("nic-shortage", builtin("pcie-8gpu"));
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].severity, Severity::Warning);
  EXPECT_TRUE(mentions(found[0], "4 NICs for 8 GPUs: 100 GB/s of scale-out per server, 12.5 GB/s per GPU"));
  ASSERT_TRUE(found[0].compare);
  EXPECT_EQ(found[0].compare->after.server.count(NodeKind::Nic), 8);
}

TEST(DoctorNicShortage, SlowNicsOnAnNvlinkServer) {
  // dgx-h100 with 100 GbE NICs: 12.5 GB/s per GPU against 450 GB/s of NVLink = 36x > 20. The fix
  // is the slowest RoCE rate at or above 450 / 20 = 22.5 GB/s: 200 GbE (25 GB/s).
  ServerTemplate t = builtin("dgx-h100");
  for (ServerNode& n : t.nodes)
    if (n.kind == NodeKind::Nic) n.tech = "roce-100g";
  auto found = diagnose("nic-shortage", t);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_TRUE(mentions(found[0], "= 36x the NIC share"));
  ASSERT_TRUE(found[0].compare);
  EXPECT_EQ(found[0].compare->after_what, "every NIC roce-200g");
  ASSERT_TRUE(found[0].predicted);
  const Prediction& p = *found[0].predicted;
  // Cut bound between the two servers, n = 16 (factor 2 x 15 / 16 = 1.875): before 8 x 12.5 =
  // 100 GB/s, busbw <= 187.5; after 8 x 25 = 200 GB/s, busbw <= 375. NVLink (450) and PCIe (63 per
  // GPU) are far above the NIC share, so the NICs bind and the faster ones must show.
  EXPECT_LE(p.busbw_before_gBps, 187.5 * 1.001);
  EXPECT_LE(p.busbw_after_gBps, 375.0 * 1.001);
  EXPECT_GT(p.busbw_after_gBps, 1.5 * p.busbw_before_gBps);
}

// ---- nic-mix ----

TEST(DoctorNicMix, OneHdrAmongNdrCapsTheRingAtItsRail) {
  // dgx-h100 with nic3 at HDR (200 Gb/s = 25 GB/s) among seven NDR (50 GB/s): NCCL gives every
  // channel the same share, so the ring's channels on nic3 take twice as long: 25 / 50 = 50% of
  // the all-NDR ring, below 75%: critical. The fix (nic3 back to NDR) is predicted at ~2x.
  ServerTemplate t = builtin("dgx-h100");
  t.nodes[static_cast<size_t>(t.index_of("nic3"))].tech = "ib-hdr";
  const auto f = run_rule("nic-mix", t, 2);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::Critical);
  EXPECT_NE(f[0].summary.find("about 50%"), std::string::npos) << f[0].summary;
  EXPECT_TRUE(mentions(f[0], "1 x ib-hdr (25 GB/s per direction): nic3"));
  EXPECT_TRUE(mentions(f[0], "7 x ib-ndr (50 GB/s per direction)"));
  ASSERT_TRUE(f[0].compare.has_value());
  EXPECT_EQ(f[0].compare->after_what, "every NIC ib-ndr");
}

TEST(DoctorNicMix, NicsSlowerThanTheFabricPortsAreNamed) {
  // Every NIC HDR (25 GB/s) into NDR (50 GB/s) switch ports: the ports run at half their speed.
  ServerTemplate t = builtin("dgx-h100");
  for (ServerNode& n : t.nodes)
    if (n.kind == NodeKind::Nic) n.tech = "ib-hdr";
  ClusterSpec spec = gftest::spec_of(t, 2, "single_switch");
  spec.fabric.link = "ib-ndr";
  Cluster cluster = build_cluster(spec);
  Router router(cluster);
  const auto f = check_nic_mix_for_test(spec, cluster, router);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::Warning);
  EXPECT_NE(f[0].summary.find("slower than the fabric's ib-ndr switch ports (50 GB/s)"), std::string::npos) << f[0].summary;
}

TEST(DoctorNicMix, OneSpeedMatchingThePortsGivesNone) {
  EXPECT_TRUE(run_rule("nic-mix", builtin("dgx-h100"), 2).empty());
}

}  // namespace
}  // namespace gf
