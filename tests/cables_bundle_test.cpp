// Parallel cables between a leaf and a spine are separate links (topology/bundle.hpp): the ECMP
// hash picks one cable, so flows can collide on a cable while its sibling idles, as in a real
// fabric; adaptive routing spreads over the cables; one cable down leaves the others carrying on.
//
// The cluster: 4 one-GPU servers (one NDR NIC each) on 4-port leaves at 1:1 (2 NICs down, 2
// uplinks), so 2 leaves; the fewest spines that take both leaves' uplinks with equal cables per
// spine is one 4-port spine (clos.cpp spread_uplinks: S = ceil(2 x 2 / 4) = 1, 2 cables per leaf).
// server0, server1 hang off leaf0; server2, server3 off leaf1.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "model/flow/flow_model.hpp"
#include "model/transfer_cost.hpp"
#include "model_completions.hpp"
#include "routing/router.hpp"
#include "test_clusters.hpp"
#include "topology/bundle.hpp"
#include "topology/cluster_spec.hpp"
#include "topology/faults.hpp"

using namespace gf;

namespace {

ClusterSpec two_cable_bundles() {
  auto spec = gftest::spec_of(gftest::small_server(), 4, "leaf_spine", 4);
  spec.fabric.oversubscription = 1;
  return spec;
}

using gftest::Done;

// The leaf -> spine link of a scale-out route.
LinkId uplink(const Cluster& c, const Route& r) {
  for (LinkId l : r.front().path.links)
    if (c.node(c.link(l).dst).tier == 2) return l;
  ADD_FAILURE() << "no spine on the path";
  return 0;
}

// Runs `routes` at once, `bytes` each, on the flow model; their completion times by id.
std::vector<double> finish_s(const Cluster& c, const std::vector<Route>& routes, Bytes bytes) {
  FlowModel m(c);
  for (size_t i = 0; i < routes.size(); ++i) {
    ModelTransfer t;
    t.route = std::make_shared<const Route>(routes[i]);
    t.bytes = bytes;
    m.start(static_cast<TransferId>(i), t, Time::zero());
  }
  Done d;
  while (!m.next_event_time().is_infinite()) m.advance_to(m.next_event_time(), d);
  std::vector<double> out(routes.size(), -1);
  for (const auto& [id, at] : d.order) out[static_cast<size_t>(id)] = at.to_s();
  return out;
}

// alpha of a transfer on `r` and the bottleneck capacity of its path with `share` of the leaf
// uplink (1: alone on its cable, 1/2: sharing it with one other flow).
struct Expect {
  double alpha, rate;
};
Expect expect_on(const Cluster& c, const Route& r, Bytes bytes, double share) {
  const TransferCost cost(c, ModelParams{});
  ModelTransfer t;
  t.route = std::make_shared<const Route>(r);
  t.bytes = bytes;
  double rate = 1e300;
  const LinkId up = uplink(c, r);
  for (LinkId l : r.front().path.links) rate = std::min(rate, cost.capacity(l) * (l == up ? share : 1.0));
  return {cost.alpha(t).to_s(), rate};
}

}  // namespace

TEST(CablesBundle, EachCableIsItsOwnLink) {
  const Cluster c = build_cluster(two_cable_bundles());
  const NodeId leaf0 = c.find_node("leaf0"), spine0 = c.find_node("spine0");
  ASSERT_NE(leaf0, kNoNode);
  ASSERT_NE(spine0, kNoNode);
  EXPECT_EQ(c.find_node("spine1"), kNoNode);  // one spine
  std::vector<LinkId> up;
  for (LinkId l : c.out_links(leaf0))
    if (c.link(l).dst == spine0) up.push_back(l);
  ASSERT_EQ(up.size(), 2u);
  // Each cable is one NDR port (400 Gb/s = 50 GB/s), not a 100 GB/s fat link.
  for (LinkId l : up) {
    EXPECT_EQ(c.link(l).lanes, 1);
    EXPECT_DOUBLE_EQ(c.link(l).bandwidth.bytes_per_second(), 50e9);
  }
  EXPECT_EQ(bundle_links(c, up[1]), up);
  EXPECT_EQ(bundle_place(c, up[1]).cable, 2);
  EXPECT_EQ(bundle_place(c, up[1]).cables, 2);
  EXPECT_EQ(cable_suffix(c, up[0]), "#1");
  // count_cluster says what build_cluster makes: 4 NIC cables + 2 leaves x 2 cables, both ways.
  EXPECT_EQ(count_cluster(two_cable_bundles()).links_directed, static_cast<int64_t>(c.links().size()));
  // A NIC's cable is alone in its bundle.
  const LinkId nic = c.out_links(c.find_node("server0/nic0")).front();
  EXPECT_EQ(cable_suffix(c, nic), "");
  // "#k" names the k-th cable; beyond the bundle it is refused, saying how many there are.
  EXPECT_EQ(component_links(c, "leaf0-spine0", "--fail").links.size(), 2u);
  EXPECT_EQ(component_links(c, "leaf0-spine0#2", "--fail").links, std::vector<LinkId>{up[1]});
  try {
    component_links(c, "leaf0-spine0#3", "--fail");
    ADD_FAILURE() << "#3 of 2 accepted";
  } catch (const InputError& e) {
    EXPECT_NE(e.message().find("2 parallel cables"), std::string::npos) << e.what();
  }
}

TEST(CablesBundle, TwoFlowsHashedOntoOneCableGetHalfEach) {
  // The ECMP hash at each hop is mix_hash(flow key, node) mod the candidates (router.cpp): it
  // does not depend on the source or destination, so two flows with the same key leaving the same
  // leaf take the same cable of its bundle, whatever the hash's value. gpu0 -> gpu2 and
  // gpu1 -> gpu3 both leave leaf0 for leaf1 through spine0, with key 7: one cable carries both,
  // the other none.
  const Cluster c = build_cluster(two_cable_bundles());
  const Router router(c);
  const Route a = router.route(c.gpu(0), c.gpu(2), 7), b = router.route(c.gpu(1), c.gpu(3), 7);
  ASSERT_EQ(a.size(), 1u);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(uplink(c, a), uplink(c, b));
  EXPECT_EQ(bundle_place(c, uplink(c, a)).cables, 2);
  // Each alone on its path is bound by 50 GB/s (NIC and cable alike); together on one 50 GB/s
  // cable each gets half of it: twice the wire time.
  const Bytes bytes = Bytes::mib(64);
  const double B = static_cast<double>(bytes.count());
  const Expect alone = expect_on(c, a, bytes, 1.0), shared = expect_on(c, a, bytes, 0.5);
  EXPECT_NEAR(shared.rate, alone.rate / 2, 1e-6 * alone.rate);  // the cable binds when shared
  const std::vector<double> t = finish_s(c, {a, b}, bytes);
  EXPECT_NEAR(t[0], shared.alpha + B / shared.rate, 1e-9);
  EXPECT_NEAR(t[1], shared.alpha + B / shared.rate, 1e-9);

  // The former fat link: each bundle on the way (leaf0 -> spine0, spine0 -> leaf1) as one link of
  // 2 lanes and twice the bandwidth, cable 2 folded into cable 1. Both flows cross it at full
  // rate: each is bound by its own 50 GB/s NIC again.
  Cluster fat = build_cluster(two_cable_bundles());
  const LinkId down = a.front().path.links[4];  // gpu, pcie, nic, leaf0 -> spine0, spine0 -> leaf1
  ASSERT_EQ(c.link(down).dst, c.find_node("leaf1"));
  for (LinkId l : {uplink(c, a), down}) {
    const std::vector<LinkId> bundle = bundle_links(fat, l);
    fat.set_capacity(bundle.front(), fat.link(bundle.front()).bandwidth * 2.0, 2);
    for (size_t i = 1; i < bundle.size(); ++i) fat.take_down(bundle[i]);
  }
  fat.finalize();
  const Router fat_router(fat);
  const Route fa = fat_router.route(fat.gpu(0), fat.gpu(2), 7), fb = fat_router.route(fat.gpu(1), fat.gpu(3), 7);
  const Expect full = expect_on(fat, fa, bytes, 0.5);  // half of a 100 GB/s link: still the NIC's 50
  EXPECT_NEAR(full.rate, alone.rate, 1e-6 * alone.rate);
  const std::vector<double> tf = finish_s(fat, {fa, fb}, bytes);
  EXPECT_NEAR(tf[0], full.alpha + B / full.rate, 1e-9);
  EXPECT_NEAR(tf[1], full.alpha + B / full.rate, 1e-9);
  // The collision doubles the wire time: B / 25 GB/s against B / 50 GB/s.
  EXPECT_NEAR((t[0] - shared.alpha) / (tf[0] - full.alpha), 2.0, 1e-6);
}

namespace {

struct OneLoaded final : LinkLoad {
  LinkId busy;
  double load(LinkId l) const override { return l == busy ? 1.0 : 0.0; }
};

}  // namespace

TEST(CablesBundle, AdaptiveRoutingSpreadsOverTheCablesEcmpDoesNot) {
  // Adaptive takes the least-loaded next hop (router.hpp): with the first flow's cable loaded, the
  // second flow, same key, takes the idle sibling; ECMP keeps it on the loaded one (above).
  const Cluster c = build_cluster(two_cable_bundles());
  const Router router(c);
  const Route a = router.route(c.gpu(0), c.gpu(2), 7);
  OneLoaded load;
  load.busy = uplink(c, a);
  const Route b = router.route(c.gpu(1), c.gpu(3), 7, -1, RoutingPolicy::Adaptive, &load);
  EXPECT_NE(uplink(c, b), uplink(c, a));
  EXPECT_EQ(bundle_links(c, uplink(c, b)), bundle_links(c, uplink(c, a)));
  EXPECT_EQ(uplink(c, router.route(c.gpu(1), c.gpu(3), 7, -1, RoutingPolicy::Ecmp, &load)), uplink(c, a));
}

TEST(CablesBundle, OneCableDownTheOtherCarriesOn) {
  // --fail leaf0-spine0#2: that cable leaves the graph; cable 1 keeps its full 50 GB/s and every
  // route from leaf0 to the spine now hashes onto it (one candidate), so a flow alone still runs
  // at alpha + B / 50 GB/s, and two flows, whatever their keys, share it: half each.
  Cluster c = build_cluster(two_cable_bundles());
  const std::vector<LinkId> bundle = component_links(c, "leaf0-spine0", "--fail").links;
  ASSERT_EQ(bundle.size(), 2u);
  const double full = c.link(bundle[0]).bandwidth.bytes_per_second();
  const auto applied = apply_faults(c, {parse_fault("--fail", "leaf0-spine0#2")});
  ASSERT_EQ(applied.size(), 1u);
  EXPECT_EQ(applied[0].effect, "cable 2 of 2 down");
  EXPECT_TRUE(c.is_down(bundle[1]));
  EXPECT_FALSE(c.is_down(bundle[0]));
  EXPECT_DOUBLE_EQ(c.link(bundle[0]).bandwidth.bytes_per_second(), full);
  // "#2" still names the cable that is down (its place in the bundle does not shift).
  EXPECT_EQ(component_links(c, "leaf0-spine0#2", "--fail").links, std::vector<LinkId>{bundle[1]});
  const Router router(c);
  const Bytes bytes = Bytes::mib(64);
  const double B = static_cast<double>(bytes.count());
  for (uint64_t key : {1u, 2u, 3u, 7u}) {
    const Route r = router.route(c.gpu(0), c.gpu(2), key);
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(uplink(c, r), bundle[0]) << key;
  }
  const Route a = router.route(c.gpu(0), c.gpu(2), 1), b = router.route(c.gpu(1), c.gpu(3), 2);
  const Expect alone = expect_on(c, a, bytes, 1.0), shared = expect_on(c, a, bytes, 0.5);
  EXPECT_NEAR(finish_s(c, {a}, bytes)[0], alone.alpha + B / alone.rate, 1e-9);
  const std::vector<double> t = finish_s(c, {a, b}, bytes);
  EXPECT_NEAR(t[0], shared.alpha + B / shared.rate, 1e-9);
  EXPECT_NEAR(t[1], shared.alpha + B / shared.rate, 1e-9);
}
