// Rerouting after a stall (model/link_events.hpp LinkEventModel::set_reroutes, the routes around
// the dead links from workload/scenario_events.hpp RouterAround): a leaf-spine with k = 3
// spines, the spine link under a transfer down at t0, the fabric reconverged at t1, the stalled
// transfer retried at tr: its finish time by hand, and a transfer started after t1 never stalls.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "model/flow/flow_model.hpp"
#include "model/link_events.hpp"
#include "model_completions.hpp"
#include "routing/router.hpp"
#include "test_clusters.hpp"
#include "topology/cluster_spec.hpp"
#include "workload/scenario_events.hpp"

using namespace gf;

namespace {

using gftest::Done;

// 24 one-GPU servers on 16-port leaves at 4:1 (12 NICs down, 3 up), two leaves and 2-port spines:
// 3 spines, one cable from each leaf (as tests/fail_faults_test.cpp's three_spines).
ClusterSpec three_spines() {
  auto spec = gftest::spec_of(gftest::small_server(), 24, "leaf_spine", 16);
  spec.fabric.oversubscription = 4;
  spec.fabric.spine_radix = 2;
  return spec;
}

class Reroute : public ::testing::Test {
 protected:
  Cluster c = build_cluster(three_spines());
  Router router{c};
  TransferCost cost{c, ModelParams{}};
  // gpu0 on leaf 0 to gpu12 on leaf 1: gpu -> pcie -> nic -> leaf0 -> spine -> leaf1 -> nic -> pcie -> gpu.
  Route r = router.route(c.gpu(0), c.gpu(12), 7);
  const Bytes bytes = Bytes::mib(64);
  ModelTransfer transfer(const Route& route) const {
    ModelTransfer t;
    t.route = std::make_shared<const Route>(route);
    t.bytes = bytes;
    return t;
  }
  double bottleneck(const Route& route) const {
    double b = 1e300;
    for (LinkId l : route.front().path.links) b = std::min(b, cost.capacity(l));
    return b;
  }
  // The leaf -> spine link of the path.
  LinkId uplink() const {
    for (LinkId l : r.front().path.links)
      if (c.node(c.link(l).dst).tier == 2) return l;  // a spine
    ADD_FAILURE() << "no spine on the path";
    return 0;
  }
};

}  // namespace

TEST_F(Reroute, TheStalledRestTakesASurvivingSpineAtTheRetry) {
  ASSERT_EQ(r.size(), 1u);
  ASSERT_EQ(router.equal_cost_paths(c.gpu(0), c.gpu(12), 64).size(), 3u);  // k = 3 spines
  const LinkId up = uplink(), down_pair = c.link(up).reverse;
  const ModelTransfer t = transfer(r);
  const double alpha = cost.alpha(t).to_s(), w = static_cast<double>(bytes.count()) / bottleneck(r);
  // Down a quarter of the way through the wire time; the fabric reconverges 1 ms later and the
  // stalled connection retries 10 ms after that.
  const Time t0 = seconds_to_time(alpha + w / 4), t1 = t0 + Time::ms(1), tr = t1 + Time::ms(10);
  // The way around, as the model will take it: one of the k - 1 = 2 spines left.
  RouterAround expect(c);
  expect.avoid({up, down_pair});
  const Route way = expect.around(r.front().path);
  ASSERT_EQ(way.size(), 1u);
  EXPECT_EQ(std::find(way[0].path.links.begin(), way[0].path.links.end(), up), way[0].path.links.end());
  EXPECT_EQ(way[0].path.links.size(), r.front().path.links.size());  // as short: leaf, spine, leaf
  const ModelTransfer rest = transfer(way);
  // By hand: 3/4 of the bytes are left at t0 and nothing moves until tr; then the rest, a new
  // transfer on the surviving spine, pays its latency (one step, as the original's) and crosses
  // at that path's bottleneck: tr + alpha' + (3/4) bytes / bottleneck'.
  const double alpha2 = cost.alpha(rest).to_s(), w2 = static_cast<double>(bytes.count()) / bottleneck(way);
  FlowModel inner(c);
  LinkEventModel m(inner, {{t0, up, 0.0}, {t0, down_pair, 0.0}}, c.links().size());
  RouterAround around(c);
  m.set_reroutes({{t1, tr, {up, down_pair}, {1.0, 1.0}}}, around);
  m.start(0, t, Time::zero());
  Done d;
  while (!m.next_event_time().is_infinite()) m.advance_to(m.next_event_time(), d);
  ASSERT_EQ(d.order.size(), 1u);
  EXPECT_EQ(d.order[0].first, 0);
  EXPECT_NEAR(d.order[0].second.to_s(), tr.to_s() + alpha2 + 0.75 * w2, 1e-9);
  EXPECT_EQ(m.moved(), 1u);
  // The dead uplink carried the whole transfer's bytes once (at its start), the surviving one
  // the rest: 3/4 of them.
  const LinkId other = way[0].path.links[3];
  EXPECT_NEAR(inner.carried_bytes()[static_cast<size_t>(other)], 0.75 * static_cast<double>(bytes.count()), 1.0);
  ASSERT_EQ(m.stalls().size(), 1u);
  EXPECT_EQ(m.stalls()[0].at, t0);
}

TEST_F(Reroute, ATransferStartedAfterTheReconvergenceGoesAround) {
  // The same failure; a second transfer on the dead route starts 1 ms after t1, before the retry:
  // the fabric has its new routes, so it goes around at once and ends at its start + alpha + W,
  // never stalled. Without reroutes it would wait for tr.
  const LinkId up = uplink(), down_pair = c.link(up).reverse;
  const ModelTransfer t = transfer(r);
  const double alpha = cost.alpha(t).to_s(), w = static_cast<double>(bytes.count()) / bottleneck(r);
  const Time t0 = Time::zero(), t1 = Time::ms(1), tr = Time::ms(100), ts = Time::ms(2);
  FlowModel inner(c);
  LinkEventModel m(inner, {{t0, up, 0.0}, {t0, down_pair, 0.0}}, c.links().size());
  RouterAround around(c);
  m.set_reroutes({{t1, tr, {up, down_pair}, {1.0, 1.0}}}, around);
  Done d;
  m.advance_to(ts, d);
  m.start(3, t, ts);
  while (!m.next_event_time().is_infinite()) m.advance_to(m.next_event_time(), d);
  ASSERT_EQ(d.order.size(), 1u);
  EXPECT_EQ(d.order[0].first, 3);
  // The way around has the same latency and bottleneck (every spine link is alike here).
  EXPECT_NEAR(d.order[0].second.to_s(), ts.to_s() + alpha + w, 1e-9);
  EXPECT_TRUE(m.stalls().empty());
  EXPECT_EQ(m.moved(), 0u);
}
