// The Router's distance tables against the reference search: the route planning and hashed
// walks of the Router as it was before the tables (each segment searched afresh, exactly the
// code below) must give the same NIC pairings and the same links for the same flow key, on
// every kind of fabric: 3-tier fat-trees (one and two planes, the latter falling back to
// any-NIC pairings), rail-optimized, leaf-spine, dragonfly, torus and full mesh (whose NIC ports
// forward), and NVLink-domain servers.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/hash.hpp"
#include "routing/router.hpp"
#include "routing/segment_search.hpp"
#include "test_clusters.hpp"
#include "topology/cluster_spec.hpp"
#include "topology/servers/servers.hpp"

using namespace gf;

namespace {

using gftest::small_server;
using gftest::spec_of;

// The planning of the search-per-query Router, verbatim but for the search's name.
Router::Plans reference_plans(const Cluster& c, NodeId a, NodeId b) {
  Router::Plans out;
  if (a == b) return out;
  RouteSegment up{a, b, SegmentKind::ScaleUp};
  if (SegmentSearch(c, up).reached()) return {{up}};
  auto nearest = [&](NodeId gpu) {
    int best = -1;
    std::vector<int> nics;
    for (int nic : c.nic_locals()) {
      SegmentSearch s(c, {c.server_node(c.node(gpu).server, nic), gpu, SegmentKind::InServer});
      if (!s.reached()) continue;
      if (best < 0 || s.hops() < best) best = s.hops(), nics.clear();
      if (s.hops() == best) nics.push_back(nic);
    }
    return nics;
  };
  int sa = c.node(a).server, sb = c.node(b).server;
  const auto& nodes = c.server_template().nodes;
  auto best_pairs = [&](const std::vector<int>& src_nics, const std::vector<int>& dst_nics) {
    Router::Plans found;
    int best = -1;
    bool best_same_rail = false;
    for (int src_nic : src_nics)
      for (int dst_nic : dst_nics) {
        NodeId sn = c.server_node(sa, src_nic), dn = c.server_node(sb, dst_nic);
        SegmentSearch fab(c, {sn, dn, SegmentKind::Fabric});
        if (!fab.reached()) continue;
        int first = SegmentSearch(c, {a, sn, SegmentKind::InServer}).hops();
        int last = SegmentSearch(c, {dn, b, SegmentKind::InServer}).hops();
        if (first < 0 || last < 0) continue;
        int hops = first + fab.hops() + last;
        bool same_rail = nodes[src_nic].rail == nodes[dst_nic].rail;
        if (best >= 0 && (hops > best || (hops == best && best_same_rail && !same_rail))) continue;
        if (best < 0 || hops < best || (same_rail && !best_same_rail)) found.clear();
        best = hops;
        best_same_rail = same_rail;
        found.push_back({{a, sn, SegmentKind::InServer}, {sn, dn, SegmentKind::Fabric}, {dn, b, SegmentKind::InServer}});
      }
    return found;
  };
  out = best_pairs(nearest(a), nearest(b));
  if (out.empty()) out = best_pairs(c.nic_locals(), c.nic_locals());
  return out;
}

Path reference_hashed(const Cluster& c, const Router::Plans& ps, uint64_t key) {
  Path out;
  if (ps.empty()) return out;
  for (const auto& seg : ps[mix_hash(key, 0x9e3779b97f4a7c15ULL) % ps.size()]) {
    Path p = SegmentSearch(c, seg).hashed(key);
    out.links.insert(out.links.end(), p.links.begin(), p.links.end());
  }
  return out;
}

bool same_plans(const Router::Plans& x, const Router::Plans& y) {
  if (x.size() != y.size()) return false;
  for (size_t i = 0; i < x.size(); ++i) {
    if (x[i].size() != y[i].size()) return false;
    for (size_t j = 0; j < x[i].size(); ++j)
      if (x[i][j].from != y[i][j].from || x[i][j].to != y[i][j].to || x[i][j].kind != y[i][j].kind) return false;
  }
  return true;
}

// `pairs` pseudo-random GPU pairs, each with its own flow key and NIC choice: plans, hashed paths
// and routes must equal the reference's. Returns how many pairs went over the fabric, so a test
// can check that it exercised the tables at all.
int compare_on(const Cluster& c, int pairs, uint64_t seed) {
  Router r(c);
  const uint64_t gpus = static_cast<uint64_t>(c.gpu_count());
  int scale_out = 0;
  for (int i = 0; i < pairs; ++i) {
    const NodeId a = c.gpu(static_cast<int64_t>(mix_hash(seed, 2 * i) % gpus));
    const NodeId b = c.gpu(static_cast<int64_t>(mix_hash(seed, 2 * i + 1) % gpus));
    const uint64_t key = mix_hash(seed ^ 0x5555, i);
    const int nic_choice = static_cast<int>(i % 5) - 1;  // -1 (by hash) and 0..3
    Router::Plans want = reference_plans(c, a, b);
    Router::Plans got = r.plans(a, b);
    EXPECT_TRUE(same_plans(got, want)) << c.node_name(a) << " -> " << c.node_name(b);
    EXPECT_EQ(r.hashed_path(got, key).links, reference_hashed(c, want, key).links) << c.node_name(a) << " -> " << c.node_name(b);
    if (want.empty() || (want.size() == 1 && want[0].size() == 1)) continue;  // none, or scale-up
    ++scale_out;
    Router::Plans chosen = want;
    if (nic_choice >= 0 && chosen.size() > 1) {
      // The documented turn (router.cpp): a's (nic_choice + a's position)-th distinct source NIC,
      // then b's (nic_choice + b's position)-th destination NIC among that NIC's pairings.
      auto position = [&](NodeId g) { return static_cast<size_t>(c.gpu_index(g) % c.gpus_per_server()); };
      std::vector<NodeId> srcs, dsts;
      for (const auto& p : chosen)
        if (std::find(srcs.begin(), srcs.end(), p.front().to) == srcs.end()) srcs.push_back(p.front().to);
      const NodeId sn = srcs[(static_cast<size_t>(nic_choice) + position(a)) % srcs.size()];
      for (const auto& p : chosen)
        if (p.front().to == sn && std::find(dsts.begin(), dsts.end(), p.back().from) == dsts.end()) dsts.push_back(p.back().from);
      const NodeId dn = dsts[(static_cast<size_t>(nic_choice) + position(b)) % dsts.size()];
      for (const auto& p : chosen)
        if (p.front().to == sn && p.back().from == dn) {
          chosen = {p};
          break;
        }
    }
    Route route = r.route(a, b, key, nic_choice);
    EXPECT_EQ(route.size(), 1u);
    if (route.size() != 1) continue;
    EXPECT_EQ(route[0].path.links, reference_hashed(c, chosen, key).links) << c.node_name(a) << " -> " << c.node_name(b);
  }
  return scale_out;
}

}  // namespace

TEST(RouterTables, ThreeTierFatTreeMatchesSearch) {
  // 16 DGX H100 = 128 NICs on a k=8 fat-tree (128 hosts): 3 tiers, 8 pods.
  auto spec = spec_of(make_dgx_h100(), 16, "fat_tree", 8);
  spec.fabric.tiers = 3;
  EXPECT_GT(compare_on(build_cluster(spec), 400, 1), 300);
}

TEST(RouterTables, TwoPlaneFatTreeMatchesSearch) {
  // 2 planes: GPUs whose nearest NICs sit on different planes pair any NICs instead.
  auto spec = spec_of(make_dgx_h100(), 16, "fat_tree", 8);
  spec.fabric.tiers = 3;
  spec.fabric.planes = 2;
  EXPECT_GT(compare_on(build_cluster(spec), 400, 2), 300);
}

TEST(RouterTables, RailOptimizedMatchesSearch) {
  auto spec = spec_of(make_dgx_h100(), 32, "rail_optimized", 16);
  spec.fabric.tiers = 3;
  EXPECT_GT(compare_on(build_cluster(spec), 400, 3), 300);
}

TEST(RouterTables, LeafSpineWithLanesMatchesSearch) {
  EXPECT_GT(compare_on(build_cluster(spec_of(small_server(2), 100, "leaf_spine")), 300, 4), 250);
}

TEST(RouterTables, DragonflyMatchesSearch) {
  EXPECT_GT(compare_on(build_cluster(spec_of(small_server(), 72, "dragonfly", 8)), 300, 5), 250);
}

TEST(RouterTables, TorusAndFullMeshPortsForward) {
  // Torus ports and full-mesh NICs have several fabric neighbours: they are transit nodes.
  ServerTemplate t = small_server(4);
  ClusterSpec s = spec_of(t, 16, "torus");
  s.fabric.torus_dims = {4, 4};
  EXPECT_GT(compare_on(build_cluster(s), 300, 6), 250);
  EXPECT_GT(compare_on(build_cluster(spec_of(make_dgx_h100(), 4, "full_mesh")), 300, 7), 200);
}

TEST(RouterTables, SmallBudgetDropsTablesWithoutChangingRoutes) {
  // A budget of one table: every new destination leaf drops the last; distances stay exact.
  auto spec = spec_of(make_dgx_h100(), 16, "fat_tree", 8);
  spec.fabric.tiers = 3;
  Cluster c = build_cluster(spec);
  FabricDistances small(c, 1), big(c);
  int compared = 0;
  for (int i = 0; i < 200; ++i) {
    const NodeId sn = c.server_node(static_cast<int64_t>(mix_hash(8, i) % 16), c.nic_locals()[i % 8]);
    const NodeId dn = c.server_node(static_cast<int64_t>(mix_hash(9, i) % 16), c.nic_locals()[(i / 8) % 8]);
    const int want = SegmentSearch(c, {sn, dn, SegmentKind::Fabric}).hops();
    EXPECT_EQ(small.hops(sn, dn), want);
    EXPECT_EQ(big.hops(sn, dn), want);
    EXPECT_LE(small.tables(), 1u);
    compared += want > 0;
  }
  EXPECT_GT(compared, 150);
  EXPECT_EQ(small.tables(), 1u);
  // 16 servers x 8 NICs on k=8 leaves of 4 NICs: 32 leaves, the only destinations tables are kept
  // for; 200 random destinations visit more than one of them.
  EXPECT_LE(big.tables(), 32u);
  EXPECT_GT(big.tables(), 1u);
}

TEST(RouterTables, NvlinkDomainsMatchSearch) {
  // GB200 NVL72: 36 trays = 2 domains of 18; pairs inside a domain go scale-up through the
  // domain's switch chips, the others over the fabric.
  EXPECT_GT(compare_on(build_cluster(spec_of(make_gb200_nvl72(), 36, "leaf_spine")), 200, 10), 60);
}
