// count() must describe exactly what build() builds, for every fabric kind: the same switches per
// tier, the same cables per technology and "between" label, the same ports used per tier (and
// never more than a switch's radix), the same directed links, and (for switched fabrics) the same
// longest shortest path in switches. Small designs of each kind are built and walked here; the
// hand-derived figures of each kind are in fabric_<kind>_test.cpp.
#include <gtest/gtest.h>

#include <cctype>
#include <deque>
#include <map>

#include "topology/cluster_spec.hpp"
#include "test_clusters.hpp"
#include "topology/servers/servers.hpp"

namespace {

using gftest::small_server;
using gftest::spec_of;

// "nic", or the name of the switch's tier in the counts.
std::string end_name(const gf::Cluster& c, gf::NodeId n, const gf::FabricCounts& f) {
  const gf::Node& x = c.node(n);
  if (x.kind == gf::NodeKind::Nic) return "nic";
  return f.tiers.at(static_cast<size_t>(x.tier - 1)).name;
}

// "p1/" of "p1/leaf3": planes are separate fabrics, so only switches of one plane reach each other.
std::string plane_of(const std::string& name) {
  return name.size() > 1 && name[0] == 'p' && std::isdigit(static_cast<unsigned char>(name[1]))
             ? name.substr(0, name.find('/'))
             : "";
}

// Switches on the longest shortest NIC-to-NIC path (within a plane), walking switch-to-switch
// links only.
int built_max_switch_hops(const gf::Cluster& c) {
  std::vector<gf::NodeId> attached;
  for (gf::NodeId n = 0; n < static_cast<gf::NodeId>(c.nodes().size()); ++n) {
    if (c.node(n).kind != gf::NodeKind::Switch) continue;
    for (gf::LinkId l : c.out_links(n))
      if (c.node(c.link(l).dst).kind == gf::NodeKind::Nic) {
        attached.push_back(n);
        break;
      }
  }
  int worst = 0;
  for (gf::NodeId s : attached) {
    std::vector<int> dist(c.nodes().size(), -1);
    std::deque<gf::NodeId> q{s};
    dist[s] = 0;
    while (!q.empty()) {
      gf::NodeId n = q.front();
      q.pop_front();
      for (gf::LinkId l : c.out_links(n)) {
        gf::NodeId m = c.link(l).dst;
        if (c.node(m).kind == gf::NodeKind::Switch && dist[m] < 0) dist[m] = dist[n] + 1, q.push_back(m);
      }
    }
    for (gf::NodeId t : attached) {
      if (plane_of(c.node_name(t)) != plane_of(c.node_name(s))) continue;
      EXPECT_GE(dist[t], 0) << c.node_name(t) << " unreachable from " << c.node_name(s);
      worst = std::max(worst, dist[t] + 1);
    }
  }
  return worst;
}

void expect_build_matches_count(const gf::ClusterSpec& spec, bool exact_hops = true) {
  SCOPED_TRACE(spec.fabric.kind + " with " + std::to_string(spec.servers) + " servers");
  const gf::ClusterCounts counts = gf::count_cluster(spec);
  const gf::FabricCounts& f = counts.fabric;
  const gf::Cluster c = gf::build_cluster(spec);
  EXPECT_EQ(static_cast<int64_t>(c.links().size()), counts.links_directed);

  std::map<int, int64_t> switches, ports;  // by tier
  for (gf::NodeId n = 0; n < static_cast<gf::NodeId>(c.nodes().size()); ++n) {
    if (c.node(n).kind != gf::NodeKind::Switch) continue;
    ++switches[c.node(n).tier];
    int64_t used = 0;
    for (gf::LinkId l : c.out_links(n)) used += c.link(l).lanes;
    ports[c.node(n).tier] += used;
    EXPECT_LE(used, f.tiers.at(static_cast<size_t>(c.node(n).tier - 1)).radix) << c.node_name(n);
  }
  for (size_t t = 0; t < f.tiers.size(); ++t) {
    EXPECT_EQ(switches[static_cast<int>(t + 1)], f.tiers[t].switches) << f.tiers[t].name;
    EXPECT_EQ(ports[static_cast<int>(t + 1)], f.tiers[t].ports_used) << f.tiers[t].name;
  }

  // connect() appends a link and then its reverse: even indices are the cables' forward links.
  std::map<std::string, int64_t> built, counted;
  for (size_t i = 0; i < c.links().size(); i += 2) {
    const gf::Link& l = c.link(static_cast<gf::LinkId>(i));
    gf::NodeKind a = c.node(l.src).kind, b = c.node(l.dst).kind;
    bool fabric = (a == gf::NodeKind::Switch || b == gf::NodeKind::Switch) ||
                  (a == gf::NodeKind::Nic && b == gf::NodeKind::Nic);
    if (!fabric) continue;
    std::string x = end_name(c, l.src, f), y = end_name(c, l.dst, f);
    if (x != "nic" && (y == "nic" || c.node(l.src).tier > c.node(l.dst).tier)) std::swap(x, y);
    std::string between = x + "-" + y;
    if (x == "router" && y == "router")
      between += c.node(l.src).group == c.node(l.dst).group ? " (local)" : " (global)";
    built[c.catalog().tech(l.tech).name + " " + between] += l.lanes;
  }
  for (const auto& cable : f.cables) counted[cable.tech + " " + cable.between] += cable.count;
  EXPECT_EQ(built, counted);
  if (f.max_switch_hops > 0) {
    int hops = built_max_switch_hops(c);
    if (exact_hops)
      EXPECT_EQ(hops, f.max_switch_hops);
    else
      EXPECT_LE(hops, f.max_switch_hops);
  }
}

TEST(FabricAgreement, SingleSwitch) {
  expect_build_matches_count(spec_of(gf::make_dgx_h100(), 4, "single_switch"));
}

TEST(FabricAgreement, FullMesh) {
  expect_build_matches_count(spec_of(gf::make_dgx_h100(), 5, "full_mesh"));
  expect_build_matches_count(spec_of(small_server(1), 7, "full_mesh"));
}

TEST(FabricAgreement, LeafSpine) {
  expect_build_matches_count(spec_of(small_server(1), 100, "leaf_spine"));
  expect_build_matches_count(spec_of(gf::make_dgx_h100(), 4, "leaf_spine"));   // one leaf
  expect_build_matches_count(spec_of(gf::make_dgx_h100(), 37, "leaf_spine"));  // partial last leaf
  auto o2 = spec_of(small_server(2), 61, "leaf_spine");
  o2.fabric.oversubscription = 2;
  expect_build_matches_count(o2);
  auto planes = spec_of(gf::make_dgx_h100(), 20, "leaf_spine");
  planes.fabric.planes = 4;
  expect_build_matches_count(planes);
}

TEST(FabricAgreement, FatTree) {
  expect_build_matches_count(spec_of(small_server(1), 16, "fat_tree", 4));
  auto partial = spec_of(small_server(2), 27, "fat_tree", 8);
  partial.fabric.spine_oversubscription = 3;
  expect_build_matches_count(partial);
  auto forced = spec_of(small_server(1), 8, "fat_tree", 4);
  forced.fabric.tiers = 3;
  expect_build_matches_count(forced);
  auto two = spec_of(gf::make_dgx_h100(), 40, "fat_tree", 16);
  two.fabric.planes = 2;
  expect_build_matches_count(two);
}

TEST(FabricAgreement, RailOptimized) {
  expect_build_matches_count(spec_of(gf::make_dgx_h100(), 2, "rail_optimized"));
  expect_build_matches_count(spec_of(gf::make_dgx_h100(), 31, "rail_optimized"));
  expect_build_matches_count(spec_of(gf::make_dgx_h100(), 130, "rail_optimized"));
  auto three = spec_of(gf::make_dgx_h100(), 150, "rail_optimized", 32);
  three.fabric.oversubscription = 1.5;
  expect_build_matches_count(three);
  auto planes = spec_of(gf::make_dgx_h100(), 300, "rail_optimized", 16);
  planes.fabric.planes = 4;
  expect_build_matches_count(planes);
}

TEST(FabricAgreement, Dragonfly) {
  // Non-minimal routes through a third group can be shorter than local-global-local.
  expect_build_matches_count(spec_of(small_server(1), 72, "dragonfly", 8), false);
  expect_build_matches_count(spec_of(gf::make_dgx_h100(), 4, "dragonfly"), false);
  auto lanes = spec_of(small_server(1), 8, "dragonfly", 8);
  lanes.fabric.groups = 2;
  lanes.fabric.routers_per_group = 2;
  lanes.fabric.global_links_per_router = 2;
  expect_build_matches_count(lanes, false);
  auto planes = spec_of(gf::make_dgx_h100(), 30, "dragonfly", 12);
  planes.fabric.planes = 2;
  expect_build_matches_count(planes, false);
}

TEST(FabricAgreement, Torus) {
  auto t3 = spec_of(small_server(6), 27, "torus");
  t3.fabric.torus_dims = {3, 3, 3};
  expect_build_matches_count(t3);
  auto t2 = spec_of(gf::make_dgx_h100(), 8, "torus");
  t2.fabric.torus_dims = {4, 2};
  expect_build_matches_count(t2);
  auto odd = spec_of(small_server(7), 12, "torus");
  odd.fabric.torus_dims = {2, 3, 2};
  expect_build_matches_count(odd);
}

}  // namespace
