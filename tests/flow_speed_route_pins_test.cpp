// RoutePins (src/model/flow/route_pins.hpp): the flow model's table of routes in flight, each held
// once with its alpha. Checked here: alpha per route and per step latency, and the bound on
// routes made per start (adaptive routing): idle routes are dropped past the table's cap, routes
// in flight never are.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "model/flow/route_pins.hpp"
#include "model/transfer_cost.hpp"
#include "routing/router.hpp"
#include "test_clusters.hpp"
#include "topology/cluster_spec.hpp"

using namespace gf;

namespace {

struct TwoHosts {
  // Two one-GPU servers on one switch (tests/test_clusters.hpp).
  Cluster c = build_cluster(gftest::spec_of(gftest::small_server(1), 2, "single_switch"));
  Router router{c};
  TransferCost cost{c, ModelParams{}};
  Route route = router.route(c.gpu(0), c.gpu(1), 7);
  ModelTransfer fresh_transfer() const {  // a route object of its own, as adaptive routing makes
    ModelTransfer t;
    t.route = std::make_shared<const Route>(route);
    t.bytes = Bytes::mib(1);
    return t;
  }
};

}  // namespace

TEST(FlowSpeedRoutePins, ARouteIsListedOnceWithItsAlpha) {
  TwoHosts h;
  RoutePins pins;
  ModelTransfer t = h.fresh_transfer();
  const RoutePins::Pin a = pins.pin(t, h.cost);
  EXPECT_TRUE(a.fresh);
  EXPECT_EQ(a.alpha, h.cost.alpha(t));
  const RoutePins::Pin b = pins.pin(t, h.cost);  // same route object: same entry
  EXPECT_FALSE(b.fresh);
  EXPECT_EQ(b.index, a.index);
  EXPECT_EQ(pins.listed(), 1u);
  // The same route with a 50 us step latency over 3 steps: alpha becomes 3 x (50 us + the path's
  // wire and switch time, which a network step pays on top), then back when started as before.
  ModelTransfer slow = t;
  slow.step_latency = {Time::us(50), Time::us(50), Time::us(50)};
  slow.steps = 3;
  ASSERT_LT(h.cost.alpha(t), Time::us(50));
  Time path = Time::zero();  // the route's one leg: the sum of its links' latencies
  for (LinkId l : t.legs().front().path.links) path += h.c.link(l).latency;
  EXPECT_EQ(pins.pin(slow, h.cost).alpha, (Time::us(50) + path) * 3);
  EXPECT_EQ(pins.pin(t, h.cost).alpha, h.cost.alpha(t));
}

TEST(FlowSpeedRoutePins, RoutesMadePerStartAreDroppedWhenIdleButNotInFlight) {
  // 40,000 routes made one per start (more than the 32,768 the table keeps), each unpinned at
  // once except the first 8: those stay listed with their index, the rest are dropped once the
  // table is full, so the count listed stays bounded and a dropped route pins again as new.
  TwoHosts h;
  RoutePins pins;
  std::vector<ModelTransfer> kept;
  std::vector<int32_t> kept_index;
  ModelTransfer first_idle;
  for (int i = 0; i < 40'000; ++i) {
    ModelTransfer t = h.fresh_transfer();
    const RoutePins::Pin p = pins.pin(t, h.cost);
    ASSERT_TRUE(p.fresh);
    ASSERT_EQ(p.alpha, h.cost.alpha(t));
    if (i < 8) {
      kept.push_back(t);
      kept_index.push_back(p.index);
    } else {
      pins.unpin(p.index);
      if (i == 8) first_idle = t;
    }
    ASSERT_LE(pins.listed(), 32'768u);
  }
  for (size_t k = 0; k < kept.size(); ++k) {
    const RoutePins::Pin p = pins.pin(kept[k], h.cost);
    EXPECT_FALSE(p.fresh) << k;
    EXPECT_EQ(p.index, kept_index[k]) << k;
  }
  EXPECT_TRUE(pins.pin(first_idle, h.cost).fresh);  // dropped when the table filled
}
