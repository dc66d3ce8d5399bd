// ModelTransfer::route_id (src/model/model.hpp): a caller's index naming a route, which RoutePins
// (src/model/flow/route_pins.hpp) uses to find the route's entry without hashing its address.
// Checked here: a route named by an id is the same entry as when found by its address, and an id
// is only a hint: reused for another route, or naming a route whose entry was dropped and its
// index reused, it leads to that route's own entry, never to the one the id named before.
#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <vector>

#include "model/flow/route_pins.hpp"
#include "model/transfer_cost.hpp"
#include "routing/router.hpp"
#include "test_clusters.hpp"
#include "topology/cluster_spec.hpp"

using namespace gf;

namespace {

struct ThreeHosts {
  // Three one-GPU servers on one switch (tests/test_clusters.hpp).
  Cluster c = build_cluster(gftest::spec_of(gftest::small_server(1), 3, "single_switch"));
  Router router{c};
  TransferCost cost{c, ModelParams{}};
  ModelTransfer transfer(int from, int to, int32_t id) const {
    ModelTransfer t;
    t.route = std::make_shared<const Route>(router.route(c.gpu(from), c.gpu(to), 7));
    t.bytes = Bytes::mib(1);
    t.route_id = id;
    return t;
  }
};

}  // namespace

TEST(FlowSpeedRouteId, AnIdFindsTheSameEntryAsTheAddress) {
  ThreeHosts h;
  RoutePins pins;
  ModelTransfer t = h.transfer(0, 1, 5);
  const RoutePins::Pin a = pins.pin(t, h.cost);
  EXPECT_TRUE(a.fresh);
  const RoutePins::Pin b = pins.pin(t, h.cost);  // by id now
  EXPECT_FALSE(b.fresh);
  EXPECT_EQ(b.index, a.index);
  ModelTransfer no_id = t;  // the same route object without an id: by address, same entry
  no_id.route_id = -1;
  EXPECT_EQ(pins.pin(no_id, h.cost).index, a.index);
  ModelTransfer other_id = t;  // two ids may name one route
  other_id.route_id = 0;
  EXPECT_EQ(pins.pin(other_id, h.cost).index, a.index);
  EXPECT_EQ(pins.listed(), 1u);
  // The route under another id with other cost fields (50 us a step, 2 steps): its own alpha,
  // 2 x (50 us + the path's own latency) (TransferCost::alpha for a network step), while id 5
  // keeps the alpha of its own fields.
  ModelTransfer slow = t;
  slow.step_latency = {Time::us(50), Time::us(50), Time::us(50)};
  slow.steps = 2;
  slow.route_id = 6;
  Time path = Time::zero();
  for (LinkId l : t.legs().front().path.links) path += h.c.link(l).latency;
  EXPECT_EQ(pins.pin(slow, h.cost).alpha, (Time::us(50) + path) * 2);
  EXPECT_EQ(pins.pin(t, h.cost).alpha, h.cost.alpha(t));
  EXPECT_EQ(pins.pin(slow, h.cost).alpha, (Time::us(50) + path) * 2);
  EXPECT_EQ(pins.pin(no_id, h.cost).alpha, h.cost.alpha(t));
}

TEST(FlowSpeedRouteId, AnIdReusedForAnotherRouteFindsThatRoute) {
  ThreeHosts h;
  RoutePins pins;
  ModelTransfer near = h.transfer(0, 1, 3);
  ModelTransfer far = h.transfer(0, 2, 3);  // another route object under the same id
  const RoutePins::Pin a = pins.pin(near, h.cost);
  const RoutePins::Pin b = pins.pin(far, h.cost);
  EXPECT_TRUE(b.fresh);
  EXPECT_NE(b.index, a.index);
  EXPECT_EQ(pins.pin(near, h.cost).index, a.index);  // and back: the id moved, the entries did not
  EXPECT_EQ(pins.pin(far, h.cost).index, b.index);
  EXPECT_EQ(pins.listed(), 2u);
}

TEST(FlowSpeedRouteId, AnIdNeverLeadsToAnEntryDroppedAndReused) {
  // Route r is pinned under id 1 and left idle; routes made one per start then fill the table
  // past its 32,768 entries, so the idle ones (r's too) are dropped and their indices handed out
  // again; those made after the drop stay in flight. Once r's old index belongs to one of them,
  // r pinned again under id 1 must be listed afresh, not find the index the id named.
  ThreeHosts h;
  RoutePins pins;
  const ModelTransfer r = h.transfer(0, 1, 1);
  const int32_t old = pins.pin(r, h.cost).index;
  pins.unpin(old);
  std::set<int32_t> in_flight;
  size_t listed = pins.listed();
  bool dropped = false;
  std::vector<ModelTransfer> held;  // the routes in flight stay alive
  for (int i = 0; i < 80'000 && !in_flight.count(old); ++i) {
    ModelTransfer t = h.transfer(0, 2, -1);
    const RoutePins::Pin p = pins.pin(t, h.cost);
    ASSERT_TRUE(p.fresh);
    dropped = dropped || pins.listed() < listed;
    listed = pins.listed();
    if (dropped) {
      in_flight.insert(p.index);
      held.push_back(t);
    } else {
      pins.unpin(p.index);
    }
  }
  ASSERT_TRUE(dropped);
  ASSERT_TRUE(in_flight.count(old));  // the case under test did happen
  const RoutePins::Pin again = pins.pin(r, h.cost);
  EXPECT_TRUE(again.fresh);
  EXPECT_FALSE(in_flight.count(again.index));
}
