// Routing policies (ECMP, spray, adaptive) on a 2-leaf leaf-spine small enough to follow by hand.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "routing/router.hpp"
#include "test_clusters.hpp"
#include "topology/cluster_spec.hpp"

using namespace gf;

namespace {

using gftest::small_server;
using gftest::spec_of;

// 8 one-GPU, one-NIC servers on 8-port leaves at 1:1 (4 NICs down, 4 cables up): 2 leaves.
// Spines of 2 ports (one per leaf) make the 2 x 4 uplinks land on 8 / 2 = 4 spines, one cable
// from each leaf to each: S = 4 link-disjoint leaf-spine-leaf paths between the two leaves.
Cluster two_leaves() {
  ClusterSpec s = spec_of(small_server(1), 8, "leaf_spine", 8);
  s.fabric.spine_radix = 2;
  return build_cluster(s);
}

constexpr int kSpines = 4;

// The spine a path crosses (its one tier-2 node), kNoNode if none.
NodeId spine_of(const Cluster& c, const Path& p) {
  for (LinkId l : p.links)
    if (c.node(c.link(l).dst).kind == NodeKind::Switch && c.node(c.link(l).dst).tier == 2) return c.link(l).dst;
  return kNoNode;
}

// A GPU pair on different leaves: the route goes up to a spine.
std::pair<NodeId, NodeId> across(const Cluster& c, const Router& r) {
  for (int64_t b = 1; b < c.gpu_count(); ++b)
    if (spine_of(c, r.hashed_path(c.gpu(0), c.gpu(b), 0)) != kNoNode) return {c.gpu(0), c.gpu(b)};
  return {kNoNode, kNoNode};
}

class MapLoad final : public LinkLoad {
 public:
  std::map<LinkId, double> loads;
  double load(LinkId l) const override {
    auto it = loads.find(l);
    return it == loads.end() ? 0.0 : it->second;
  }
};

}  // namespace

TEST(RoutingPolicy, NamesParseAndPrint) {
  ASSERT_EQ(kRoutingPolicyNames.size(), 3u);
  for (RoutingPolicy p : {RoutingPolicy::Ecmp, RoutingPolicy::Spray, RoutingPolicy::Adaptive})
    EXPECT_EQ(parse_routing_policy(to_string(p)), p);
  EXPECT_EQ(parse_routing_policy("spray"), RoutingPolicy::Spray);
  EXPECT_FALSE(parse_routing_policy("ECMP").has_value());  // names are exact, lower case
  EXPECT_FALSE(parse_routing_policy("random").has_value());
}

TEST(RoutingPolicy, TheClusterHasTwoLeavesAndFourSpines) {
  Cluster c = two_leaves();
  int leaves = 0, spines = 0;
  for (const Node& n : c.nodes()) {
    if (n.kind != NodeKind::Switch) continue;
    leaves += n.tier == 1;
    spines += n.tier == 2;
  }
  EXPECT_EQ(leaves, 2);
  EXPECT_EQ(spines, kSpines);
}

TEST(RoutingPolicy, EcmpIsTheHashedRoute) {
  Cluster c = two_leaves();
  Router r(c);
  auto [a, b] = across(c, r);
  ASSERT_NE(a, kNoNode);
  for (uint64_t key = 0; key < 16; ++key) {
    Route ecmp = r.route(a, b, key, 0, RoutingPolicy::Ecmp);
    ASSERT_EQ(ecmp.size(), 1u);
    EXPECT_EQ(ecmp[0].share, 1.0);
    EXPECT_EQ(ecmp[0].path.links, r.route(a, b, key, 0)[0].path.links);
    EXPECT_EQ(ecmp[0].path.links, r.hashed_path(a, b, key).links);
  }
}

TEST(RoutingPolicy, SprayCrossesEverySpineOnceWithEqualShares) {
  Cluster c = two_leaves();
  Router r(c);
  auto [a, b] = across(c, r);
  ASSERT_NE(a, kNoNode);
  for (uint64_t key : {0u, 1u, 99u}) {
    // kSprayPaths = 64 walks over S = 4 equal-cost fabric paths (4 uplinks at the leaf, then one
    // way down): each path found 16 times, kept once; 4 legs of 1/4.
    Route spray = r.route(a, b, key, 0, RoutingPolicy::Spray);
    ASSERT_EQ(spray.size(), static_cast<size_t>(kSpines));
    std::set<NodeId> spines;
    for (const Leg& leg : spray) {
      EXPECT_DOUBLE_EQ(leg.share, 1.0 / kSpines);
      // gpu -> pcie -> nic -> leaf -> spine -> leaf -> nic -> pcie -> gpu: 8 links, like ECMP's.
      EXPECT_EQ(leg.path.links.size(), 8u);
      spines.insert(spine_of(c, leg.path));
    }
    EXPECT_EQ(spines.size(), static_cast<size_t>(kSpines));
    EXPECT_EQ(spines.count(kNoNode), 0u);
  }
}

TEST(RoutingPolicy, AdaptiveAvoidsTheLoadedUplink) {
  Cluster c = two_leaves();
  Router r(c);
  auto [a, b] = across(c, r);
  ASSERT_NE(a, kNoNode);
  for (uint64_t key = 0; key < 8; ++key) {
    const Path ecmp = r.hashed_path(a, b, key);
    // The uplink ECMP takes is links[3] (gpu-pcie, pcie-nic, nic-leaf, leaf-spine).
    const LinkId uplink = ecmp.links[3];
    ASSERT_EQ(c.node(c.link(uplink).dst).tier, 2);
    MapLoad load;
    // No load anywhere: every tie goes to the ECMP hash, so adaptive is ECMP.
    EXPECT_EQ(r.route_adaptive(a, b, key, 0, load)[0].path.links, ecmp.links);
    EXPECT_EQ(r.route(a, b, key, 0, RoutingPolicy::Adaptive, nullptr)[0].path.links, ecmp.links);
    // Load ECMP's uplink: the leaf picks one of the 3 idle ones instead.
    load.loads[uplink] = 1.0;
    Route ad = r.route_adaptive(a, b, key, 0, load);
    ASSERT_EQ(ad.size(), 1u);
    EXPECT_NE(ad[0].path.links[3], uplink);
    EXPECT_NE(spine_of(c, ad[0].path), spine_of(c, ecmp));
    EXPECT_EQ(ad[0].path.links.size(), ecmp.links.size());
    // Load every uplink but one, less than the first: the least loaded one wins.
    std::vector<LinkId> ups;
    for (LinkId l : c.out_links(c.link(uplink).src))
      if (c.node(c.link(l).dst).tier == 2) ups.push_back(l);
    ASSERT_EQ(ups.size(), static_cast<size_t>(kSpines));
    for (size_t i = 0; i < ups.size(); ++i) load.loads[ups[i]] = 1.0 + static_cast<double>(i);
    EXPECT_EQ(r.route_adaptive(a, b, key, 0, load)[0].path.links[3], ups[0]);
  }
}
