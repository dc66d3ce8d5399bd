// The fabric rules of `gpufabric doctor` (src/doctor/rules/): each on a cluster built to trigger it
// and on one built not to. Clusters are small_server copies (test_clusters.hpp: 1 GPU, NDR NICs of
// 400 Gb/s = 50 GB/s each way) on a leaf-spine whose port split is worked out in each test from
// fabric_common's split_ports: up = floor(radix / (1 + o)), down = min(radix - up, round(o x up)).
#include <gtest/gtest.h>

#include <algorithm>

#include "config/presets.hpp"
#include "doctor/doctor.hpp"
#include "doctor/rules/fabric_rules.hpp"
#include "model/transfer_cost.hpp"
#include "test_clusters.hpp"

namespace {

using gf::Finding;

std::vector<Finding> run_rule(const gf::DoctorRule& rule, const gf::ClusterSpec& spec) {
  gf::Cluster c = gf::build_cluster(spec);
  gf::Router router(c);
  return rule.check(gf::DoctorContext{spec, c, router});
}

// `servers` small servers of `nics` NICs of `tech` on a leaf_spine of `radix` ports at ratio `o`.
gf::ClusterSpec leaf_spine(int64_t servers, int nics, int radix, double o, const std::string& tech = "ib-ndr") {
  gf::ServerTemplate t = gftest::small_server(nics);
  for (auto& n : t.nodes)
    if (n.kind == gf::NodeKind::Nic) n.tech = tech;
  gf::ClusterSpec s = gftest::spec_of(t, servers, "leaf_spine", radix);
  s.fabric.oversubscription = o;
  return s;
}

bool mentions(const Finding& f, const std::string& text) {
  return std::any_of(f.evidence.begin(), f.evidence.end(), [&](const std::string& e) { return e.find(text) != e.npos; });
}

// ---- oversubscription ----

TEST(DoctorOversubscription, TwoToOneLeafCrossedByTrafficFires) {
  // radix 12, o = 2: up = floor(12/3) = 4, down = min(8, 2 x 4) = 8. 16 one-NIC servers fill
  // 16 / 8 = 2 leaves, so half the servers' traffic climbs the leaf uplinks, which carry 4 x 50 =
  // 200 GB/s for 8 x 50 = 400 GB/s of NICs: cross-leaf all-to-all gets at most 1/2 of its NIC
  // bandwidth (the evidence's "1/2 = 50%"); o >= 2 is critical.
  auto findings = run_rule(gf::oversubscription_rule(), leaf_spine(16, 1, 12, 2));
  ASSERT_EQ(findings.size(), 1u);
  const Finding& f = findings[0];
  EXPECT_EQ(f.rule, "oversubscription");
  EXPECT_EQ(f.severity, gf::Severity::Critical);
  EXPECT_TRUE(mentions(f, "down:up bandwidth 2.00:1")) << f.evidence[0];
  EXPECT_TRUE(mentions(f, "16 servers on 2 leaves, at most 8 servers per leaf"));
  EXPECT_TRUE(mentions(f, "1/2 = 50%"));
  ASSERT_TRUE(f.compare.has_value());
  EXPECT_EQ(f.compare->collective, gf::CollectiveKind::AllToAll);
  EXPECT_DOUBLE_EQ(f.compare->before.fabric.oversubscription, 2);
  EXPECT_DOUBLE_EQ(f.compare->after.fabric.oversubscription, 1);
}

TEST(DoctorOversubscription, PredictsOnTwoLeavesWorthOfALargeCluster) {
  // The same leaves (8 servers each) with 32 servers: 4 leaves. Two leaves' worth, 16 servers,
  // already crosses the 2:1 uplinks, so the prediction runs on 16 (the all-to-all it runs grows
  // with the square of the GPUs).
  auto f = run_rule(gf::oversubscription_rule(), leaf_spine(32, 1, 12, 2));
  ASSERT_EQ(f.size(), 1u);
  ASSERT_TRUE(f[0].compare.has_value());
  EXPECT_EQ(f[0].compare->before.servers, 16);
  EXPECT_EQ(f[0].compare->after.servers, 16);
  EXPECT_TRUE(mentions(f[0], "predicted on 16 of the 32 servers"));
}

TEST(DoctorOversubscription, TooLargeToPredictStillReports) {
  // radix 400, o = 2: up = floor(400 / 3) = 133, down = min(400 - 133, 2 x 133) = 266: two
  // leaves' worth is 532 one-GPU servers, over the 512-GPU prediction budget: the finding stands,
  // without a Comparison.
  auto f = run_rule(gf::oversubscription_rule(), leaf_spine(600, 1, 400, 2));
  ASSERT_EQ(f.size(), 1u);
  EXPECT_FALSE(f[0].compare.has_value());
  EXPECT_TRUE(mentions(f[0], "not predicted: all-to-all over 532 GPUs"));
}

TEST(DoctorOversubscription, MildRatioIsAWarning) {
  // radix 11, o = 2.6: up = floor(11 / 3.6) = 3, down = min(8, round(7.8)) = 8, ratio 8/3 = 2.67
  // (critical); radix 14, o = 1.5: up = floor(14 / 2.5) = 5, down = min(9, round(7.5)) = 8 (lround
  // rounds half away from zero), ratio 8/5 = 1.6 < 2: a warning. 16 servers -> 2 leaves either way.
  auto mild = run_rule(gf::oversubscription_rule(), leaf_spine(16, 1, 14, 1.5));
  ASSERT_EQ(mild.size(), 1u);
  EXPECT_EQ(mild[0].severity, gf::Severity::Warning);
  EXPECT_TRUE(mentions(mild[0], "down:up bandwidth 1.60:1"));
  auto steep = run_rule(gf::oversubscription_rule(), leaf_spine(16, 1, 11, 2.6));
  ASSERT_EQ(steep.size(), 1u);
  EXPECT_EQ(steep[0].severity, gf::Severity::Critical);
}

TEST(DoctorOversubscription, SingleLeafDoesNotFire) {
  // radix 10, o = 4: down = 8 ports, and 4 one-NIC servers need 4: one leaf holds every NIC, so
  // no traffic climbs above it whatever the configured ratio.
  EXPECT_TRUE(run_rule(gf::oversubscription_rule(), leaf_spine(4, 1, 10, 4)).empty());
}

TEST(DoctorOversubscription, NonBlockingDoesNotFire) {
  // radix 12, o = 1: up = 6, down = 6: 16 servers on 3 leaves, every tier 1:1.
  EXPECT_TRUE(run_rule(gf::oversubscription_rule(), leaf_spine(16, 1, 12, 1)).empty());
}

// ---- tcp-fallback ----

TEST(DoctorTcpFallback, TcpNicsFireAndTheFixIsTheirRoceTwin) {
  auto findings = run_rule(gf::tcp_fallback_rule(), leaf_spine(2, 1, 0, 1, "eth-400g-tcp"));
  ASSERT_EQ(findings.size(), 1u);
  const Finding& f = findings[0];
  EXPECT_EQ(f.severity, gf::Severity::Critical);
  EXPECT_TRUE(mentions(f, "nic0 (eth-400g-tcp)"));
  // 2 servers x 1 NIC = 2 cables from a NIC to the one leaf.
  EXPECT_TRUE(mentions(f, "2 NIC ports of eth-400g-tcp"));
  ASSERT_TRUE(f.compare.has_value());
  EXPECT_EQ(f.compare->after.server.nodes[2].tech, "roce-400g");  // node 2 = nic0 (small_server order)
  EXPECT_EQ(f.compare->collective, gf::CollectiveKind::AllReduce);
}

TEST(DoctorTcpFallback, RoceNicsOnATcpFabricFire) {
  // radix 12, o = 1: 6 down, 6 up; 16 servers -> 3 leaves, so switch-to-switch links exist, and
  // fabric.link makes them eth-400g-tcp while the NICs speak RoCE.
  gf::ClusterSpec s = leaf_spine(16, 1, 12, 1, "roce-400g");
  s.fabric.link = "eth-400g-tcp";
  auto findings = run_rule(gf::tcp_fallback_rule(), s);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_TRUE(mentions(findings[0], "switch-to-switch links of eth-400g-tcp"));
  EXPECT_FALSE(mentions(findings[0], "NICs without RDMA"));
  ASSERT_TRUE(findings[0].compare.has_value());
  EXPECT_EQ(findings[0].compare->after.fabric.link, "roce-400g");
}

TEST(DoctorTcpFallback, RdmaFabricsDoNotFire) {
  EXPECT_TRUE(run_rule(gf::tcp_fallback_rule(), leaf_spine(2, 1, 0, 1, "ib-ndr")).empty());
  EXPECT_TRUE(run_rule(gf::tcp_fallback_rule(), leaf_spine(2, 1, 0, 1, "roce-400g")).empty());
}

TEST(DoctorTcpFallback, ModelsChargeTcpLinksTheTcpEfficiency) {
  // What makes the prediction show a slowdown: a link's capacity is its catalog bandwidth x its
  // efficiency, 50 GB/s x tcp_efficiency for eth-400g-tcp and 50 GB/s x net_efficiency for
  // roce-400g, so a transfer bound by the NIC is net_efficiency / tcp_efficiency slower over TCP
  // (0.92 / 0.30 = 3.07x with the defaults, ModelParams).
  const gf::ModelParams p;
  auto nic_capacity = [&](const std::string& tech) {
    gf::Cluster c = gf::build_cluster(leaf_spine(2, 1, 0, 1, tech));
    gf::TransferCost cost(c, p);
    for (gf::LinkId l = 0; l < static_cast<gf::LinkId>(c.links().size()); ++l)
      if (c.node(c.link(l).src).kind == gf::NodeKind::Nic && c.node(c.link(l).dst).kind == gf::NodeKind::Switch)
        return cost.capacity(l);
    return 0.0;
  };
  const double tcp = nic_capacity("eth-400g-tcp"), roce = nic_capacity("roce-400g");
  EXPECT_DOUBLE_EQ(tcp, 50e9 * p.tcp_efficiency);
  EXPECT_DOUBLE_EQ(roce, 50e9 * p.net_efficiency);
  EXPECT_NEAR(roce / tcp, 0.92 / 0.30, 1e-9);
  // GPUDirect-TCPXO is TCP (Ethernet-TCP family) but GPU-direct (rdma: true in the catalog): it is
  // charged like RDMA, 25 GB/s x net_efficiency, not the host-staged TCP efficiency.
  EXPECT_DOUBLE_EQ(nic_capacity("tcpxo-200g"), 25e9 * p.net_efficiency);
}

// ---- ecmp-collision ----

TEST(DoctorEcmpCollision, FourFlowsOnThreeUplinksCollide) {
  // radix 11, o = 2.6: up 3, down 8 (worked out above). small_server(2): 2 NICs, so 16 NICs fill 2
  // leaves of 8 (servers 0-3 on leaf0, 4-7 on leaf1). spine_radix 2 forces 3 spines of one port
  // per leaf (clos.cpp spread_uplinks: S >= ceil(2 leaves x 3 / 2) = 3, 1 lane each), so each leaf
  // has 3 single-lane 50 GB/s uplinks. Ring channels = max(2, 2 x 2 NICs / 1 GPU x 1) = 4
  // (default_channels); each channel's ring crosses from leaf0 to leaf1 once, so 4 flows of 50
  // GB/s climb 3 uplinks: evenly 4/3 = 1.33x per link, and by pigeonhole some uplink carries >= 2
  // flows (2.00x): expected busbw <= (1/2) / (1/1.33) = 67% < 90%, whatever the hash.
  gf::ClusterSpec s = leaf_spine(8, 2, 11, 2.6);
  s.fabric.spine_radix = 2;
  auto findings = run_rule(gf::ecmp_collision_rule(), s);
  ASSERT_EQ(findings.size(), 1u);
  const Finding& f = findings[0];
  EXPECT_EQ(f.rule, "ecmp-collision");
  EXPECT_TRUE(mentions(f, "(4 channels)"));
  EXPECT_TRUE(mentions(f, "3 uplinks (150 GB/s): 1.33x per link")) << f.evidence[2];
  ASSERT_TRUE(f.compare.has_value());
  EXPECT_EQ(f.compare->before_routing, gf::RoutingPolicy::Ecmp);
  EXPECT_EQ(f.compare->after_routing, gf::RoutingPolicy::Adaptive);
}

TEST(DoctorEcmpCollision, ThreeCablesToOneSpineCollideAsThreeSpinesDo) {
  // The same leaves with the default spine radix (11): S = max(1, ceil(6 / 11)) = 1 spine, each
  // leaf's 3 uplinks 3 parallel 50 GB/s cables to it. The hash picks a cable (each is its own
  // link, topology/bundle.hpp), so by pigeonhole the 4 flows put >= 2 on one cable (2.00x) against
  // 1.33x evenly: <= 67% < 90%, as with 3 spines above. The finding names the cable.
  auto findings = run_rule(gf::ecmp_collision_rule(), leaf_spine(8, 2, 11, 2.6));
  ASSERT_EQ(findings.size(), 1u);
  const Finding& f = findings[0];
  EXPECT_TRUE(mentions(f, "3 uplinks (150 GB/s): 1.33x per link")) << f.evidence[2];
  EXPECT_TRUE(mentions(f, " of 3 (50 GB/s)")) << f.evidence[1];
}

TEST(DoctorEcmpCollision, RailAlignedDgxRingStaysOnItsRailLeaf) {
  // dgx-h100-2node: rail-optimized, NIC r of both servers on rail r's leaf; ring edges between the
  // servers leave and enter on the same rail (Communicator::ring), so no flow reaches a spine.
  gf::ClusterSpec s = gf::resolve_cluster("dgx-h100-2node");
  EXPECT_TRUE(run_rule(gf::ecmp_collision_rule(), s).empty());
  EXPECT_TRUE(run_rule(gf::oversubscription_rule(), s).empty());
  EXPECT_TRUE(run_rule(gf::tcp_fallback_rule(), s).empty());
}

TEST(DoctorFabricRules, RegistryNamesAreUniqueAndCited) {
  const auto& rules = gf::fabric_rules();
  ASSERT_EQ(rules.size(), 5u);
  EXPECT_STREQ(rules[0].name, "oversubscription");
  EXPECT_STREQ(rules[1].name, "tcp-fallback");
  EXPECT_STREQ(rules[2].name, "ecmp-collision");
  EXPECT_STREQ(rules[3].name, "fabric-shape");
  EXPECT_STREQ(rules[4].name, "sharp-trees");
  for (const auto& r : rules) {
    EXPECT_GT(std::string(r.description).size(), 10u) << r.name;
    EXPECT_NE(std::string(r.source).find("seeds/00"), std::string::npos) << r.name;
  }
}

}  // namespace

// ---- fabric-shape ----

TEST(DoctorFabricShape, DragonflyLocalLinksCapTheRingAtOneEighth) {
  // 64 DGX H100 (8 NDR NICs of 50 GB/s each) on the default dragonfly of Quantum-2 (64 ports):
  // p = (64 + 1) / 4 = 16 NICs per router, a = 2p = 32 routers, and 512 NICs fit one group, so the
  // routers are fully connected by single 50 GB/s local links and router r holds servers 2r and
  // 2r + 1. The ring runs server 0, 1, ..., 63: the edge from server 2r + 1 to 2r + 2 (and 63 to 0)
  // crosses the one link router r -> r + 1, 32 such links. All C channels cross it; each NIC
  // carries C / 8 of them, so each flow is offered 50 / (C / 8) GB/s and the link C x 50 x 8 / C =
  // 400 GB/s: 8x its 50 GB/s, whatever C is. The ring keeps 1/8 = 12.5% of its NIC rate.
  gf::ClusterSpec spec = gf::resolve_cluster("dgx-h100", 64);
  spec.fabric.kind = "dragonfly";
  const auto f = run_rule(gf::fabric_shape_rule(), spec);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, gf::Severity::Critical);  // 12.5% < 50%
  EXPECT_NE(f[0].summary.find("a ring all-reduce at 12% of what the NICs offer: 32 links cap it"), std::string::npos)
      << f[0].summary;
  EXPECT_TRUE(mentions(f[0], "offered 8.00x its bandwidth")) << f[0].evidence[0];
  EXPECT_TRUE(mentions(f[0], "group0/router0 -> group0/router1"));
  ASSERT_TRUE(f[0].compare.has_value());
  EXPECT_EQ(f[0].compare->after.fabric.kind, "rail_optimized");
}

TEST(DoctorFabricShape, NonBlockingRailOptimizedDoesNotFire) {
  // A rail-optimized fabric at 1:1 carries every NIC's full rate between any two servers: with
  // every equal-cost path used no fabric link is offered more than its bandwidth.
  const auto f = run_rule(gf::fabric_shape_rule(), gf::resolve_cluster("dgx-h100", 64));
  EXPECT_TRUE(f.empty()) << f.front().summary;
}

TEST(DoctorFabricShape, DeclaredOversubscriptionIsLeftToItsOwnRule) {
  const auto f = run_rule(gf::fabric_shape_rule(), leaf_spine(8, 1, 8, 3));
  EXPECT_TRUE(f.empty());
}
