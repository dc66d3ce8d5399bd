// The flow model on cases small enough to work out by hand: bandwidth sharing between transfers
// on one link, a transfer joining half-way, an ECMP collision on a leaf-spine, and agreement with
// the analytical model wherever no two transfers compete for a link.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "collective/algorithm.hpp"
#include "config/presets.hpp"
#include "engine/executor.hpp"
#include "model/analytical/analytical_model.hpp"
#include "model/flow/flow_model.hpp"
#include "model_completions.hpp"
#include "test_clusters.hpp"
#include "topology/cluster_spec.hpp"

using namespace gf;

namespace {

using gftest::Done;
using gftest::drain;

ModelTransfer transfer(Route r, Bytes b) {
  ModelTransfer t;
  t.route = std::make_shared<const Route>(std::move(r));
  t.bytes = b;
  return t;
}

// Runs until idle, returning each transfer's finish time.
// The smallest capacity along a route's legs (one leg here), from the shared link constants.
double bottleneck(const TransferCost& cost, const Route& r) {
  double b = 1e300;
  for (LinkId l : r.front().path.links) b = std::min(b, cost.capacity(l));
  return b;
}

}  // namespace

class FlowModelTwoHosts : public ::testing::Test {
 protected:
  // Two one-GPU servers on one switch: gpu0 -> pcie -> nic -> switch -> nic -> pcie -> gpu1.
  Cluster c = build_cluster(gftest::spec_of(gftest::small_server(1), 2, "single_switch"));
  Router router{c};
  TransferCost cost{c, ModelParams{}};
  Route r = router.route(c.gpu(0), c.gpu(1), 7);
  const Bytes bytes = Bytes::mib(64);
};

TEST_F(FlowModelTwoHosts, AloneATransferTakesAlphaPlusBytesOverTheBottleneck) {
  FlowModel m(c);
  ModelTransfer t = transfer(r, bytes);
  m.start(0, t, Time::zero());
  const double expected = cost.alpha(t).to_s() + static_cast<double>(bytes.count()) / bottleneck(cost, r);
  EXPECT_NEAR(drain(m, 1)[0].to_s(), expected, 1e-11);
  // ... exactly what the analytical model charges on an idle network.
  AnalyticalModel a(c);
  EXPECT_NEAR(a.duration(t).to_s(), expected, 1e-11);
}

TEST_F(FlowModelTwoHosts, OneRouteStartedWithOtherStepLatenciesPaysEach) {
  // The model remembers alpha per route; the same shared route started again with a step latency
  // of 50 us and 3 steps must pay 3 x (50 us + the path's wire and switch time, which a network
  // step pays on top of its step figure), and started again as at first must pay the first alpha
  // again. Transfers start one after another on an idle network, so each takes alpha + bytes /
  // bottleneck.
  FlowModel m(c);
  ModelTransfer plain = transfer(r, bytes);
  ModelTransfer slow = plain;  // same route object
  slow.step_latency = {Time::us(50), Time::us(50), Time::us(50)};
  slow.steps = 3;
  const double wire = static_cast<double>(bytes.count()) / bottleneck(cost, r);
  ASSERT_LT(cost.alpha(plain).to_s(), 50e-6);
  Done d;
  Time now = Time::zero();
  const ModelTransfer* order[] = {&plain, &slow, &plain};
  for (int i = 0; i < 3; ++i) {
    m.start(i, *order[i], now);
    while (d.order.size() < static_cast<size_t>(i + 1)) m.advance_to(m.next_event_time(), d);
    double path = 0;  // the route's one leg: the sum of its links' latencies
    for (LinkId l : r.front().path.links) path += c.link(l).latency.to_s();
    const double expected = (i == 1 ? 3 * (50e-6 + path) : cost.alpha(plain).to_s()) + wire;
    EXPECT_NEAR((d.order.back().second - now).to_s(), expected, 1e-11) << "transfer " << i;
    now = d.order.back().second;
  }
}

TEST_F(FlowModelTwoHosts, TwoTransfersOnOneLinkGetHalfEach) {
  // Both start at 0 on the same path (two connections: two Route objects; one connection's steps
  // go in order, flow_connection_queue_test.cpp): each gets half the bottleneck, so each wire
  // time doubles.
  FlowModel m(c);
  ModelTransfer t = transfer(r, bytes), u = transfer(r, bytes);
  m.start(0, t, Time::zero());
  m.start(1, u, Time::zero());
  const double wire = static_cast<double>(bytes.count()) / bottleneck(cost, r);
  auto done = drain(m, 2);
  EXPECT_NEAR(done[0].to_s(), cost.alpha(t).to_s() + 2 * wire, 1e-11);
  EXPECT_NEAR(done[1].to_s(), cost.alpha(t).to_s() + 2 * wire, 1e-11);
}

TEST_F(FlowModelTwoHosts, MergedIdenticalFlowsStillShareWithOthers) {
  // Transfers 0 and 1 are identical (merged into one solver variable of weight 2); transfer 2
  // carries half as much. All three share the link at a third each. Transfer 2 finishes after
  // moving B/2 at cap/3: 1.5 W. Transfers 0 and 1 have then B/2 left each, at cap/2: W more, so
  // they finish at 2.5 W (the link carried 2.5 B at full rate throughout). Three connections.
  FlowModel m(c);
  ModelTransfer t = transfer(r, bytes), u = transfer(r, bytes), half = transfer(r, Bytes(bytes.count() / 2));
  m.start(0, t, Time::zero());
  m.start(1, u, Time::zero());
  m.start(2, half, Time::zero());
  const double wire = static_cast<double>(bytes.count()) / bottleneck(cost, r);
  const double alpha = cost.alpha(t).to_s();
  auto done = drain(m, 3);
  EXPECT_NEAR(done[2].to_s(), alpha + 1.5 * wire, 1e-9);
  EXPECT_NEAR(done[0].to_s(), alpha + 2.5 * wire, 1e-9);
  EXPECT_NEAR(done[1].to_s(), alpha + 2.5 * wire, 1e-9);
  EXPECT_EQ(m.peak_flows(), 2u);  // the two identical transfers were one variable
}

TEST_F(FlowModelTwoHosts, ASecondTransferJoiningHalfWaySharesTheRest) {
  // Alone, a transfer's wire time is W. Transfer 1 starts W/2 after transfer 0, so it begins
  // moving bytes when transfer 0 is half done. Both then run at half rate: transfer 0's remaining
  // half takes W, finishing at alpha + 1.5 W; by then transfer 1 has moved half, which it
  // finishes alone in W/2: at alpha + W/2 + 1.5 W. Two connections (two Route objects).
  FlowModel m(c);
  ModelTransfer t = transfer(r, bytes), u = transfer(r, bytes);
  const double wire = static_cast<double>(bytes.count()) / bottleneck(cost, r);
  const double alpha = cost.alpha(t).to_s();
  m.start(0, t, Time::zero());
  Done d;
  const Time half = seconds_to_time(wire / 2);
  m.advance_to(half, d);
  m.start(1, u, half);
  auto done = drain(m, 2);
  EXPECT_NEAR(done[0].to_s(), alpha + 1.5 * wire, 1e-9);
  EXPECT_NEAR(done[1].to_s(), alpha + 2.0 * wire, 1e-9);
  // Carried bytes: both transfers crossed every link of the path once.
  for (LinkId l : r.front().path.links) EXPECT_DOUBLE_EQ(m.carried_bytes()[static_cast<size_t>(l)], 2.0 * static_cast<double>(bytes.count()));
}

TEST_F(FlowModelTwoHosts, OppositeDirectionsDoNotShare) {
  // Links are full duplex: gpu0 -> gpu1 and gpu1 -> gpu0 each run at the full bottleneck.
  FlowModel m(c);
  ModelTransfer t0 = transfer(r, bytes), t1 = transfer(router.route(c.gpu(1), c.gpu(0), 7), bytes);
  m.start(0, t0, Time::zero());
  m.start(1, t1, Time::zero());
  auto done = drain(m, 2);
  EXPECT_NEAR(done[0].to_s(), cost.alpha(t0).to_s() + static_cast<double>(bytes.count()) / bottleneck(cost, r), 1e-11);
}

TEST_F(FlowModelTwoHosts, ReductionRateCapsTheTransfer) {
  // A GPU reducing at 10 GB/s cannot take 64 MiB faster than 64 MiB / 10 GB/s, slower than the
  // wire: the transfer lasts alpha + that.
  FlowModel m(c);
  ModelTransfer t = transfer(r, bytes);
  t.reduce = bytes;
  t.reduce_rate = Bandwidth::gBps(10);
  m.start(0, t, Time::zero());
  EXPECT_NEAR(drain(m, 1)[0].to_s(), cost.alpha(t).to_s() + static_cast<double>(bytes.count()) / 10e9, 1e-11);
}

TEST(FlowModelLeafSpine, AnEcmpCollisionDoublesAFlowsTime) {
  // 8 one-GPU servers on a leaf-spine of 4-port switches: 4 leaves x (2 down, 2 up), 2 spines,
  // every leaf joined to every spine. Servers 0,1 sit on leaf 0 and 2,3 on leaf 1. Flows 0->2 and
  // 1->3 each pick a spine by hash. When both pick the same spine they share its uplink from leaf 0
  // and its downlink to leaf 1: each takes twice as long as when they pick different spines (the
  // NIC links are not shared).
  Cluster c = build_cluster(gftest::spec_of(gftest::small_server(1), 8, "leaf_spine", 4));
  Router router(c);
  TransferCost cost(c, ModelParams{});
  // The switch-to-switch links a route crosses (leaf -> spine, spine -> leaf).
  auto fabric_links = [&](const Route& r) {
    std::vector<LinkId> out;
    for (LinkId l : r.front().path.links)
      if (c.node(c.link(l).dst).kind == NodeKind::Switch && c.node(c.link(l).src).kind == NodeKind::Switch)
        out.push_back(l);
    return out;
  };
  Route a = router.route(c.gpu(0), c.gpu(2), 1);
  // Find one key for 1->3 that collides with `a` and one that does not.
  Route same, other;
  for (uint64_t k = 0; k < 64 && (same.empty() || other.empty()); ++k) {
    Route b = router.route(c.gpu(1), c.gpu(3), k);
    std::vector<LinkId> fa = fabric_links(a), fb = fabric_links(b);
    ASSERT_EQ(fb.size(), 2u);
    // The test wants both links shared or neither.
    if (fa == fb) same = b;
    if (fa[0] != fb[0] && fa[1] != fb[1]) other = b;
  }
  ASSERT_FALSE(same.empty());
  ASSERT_FALSE(other.empty());
  const Bytes bytes = Bytes::mib(16);
  const double wire = static_cast<double>(bytes.count()) / bottleneck(cost, a);
  for (bool collide : {false, true}) {
    FlowModel m(c);
    ModelTransfer ta = transfer(a, bytes), tb = transfer(collide ? same : other, bytes);
    m.start(0, ta, Time::zero());
    m.start(1, tb, Time::zero());
    auto done = drain(m, 2);
    EXPECT_NEAR(done[1].to_s(), cost.alpha(tb).to_s() + (collide ? 2 : 1) * wire, 1e-9) << "collide=" << collide;
  }
}

// Where no two transfers compete for a link at different times (a ring: every step's channels
// start together on the same links; CollNet chain), the flow model must agree with the
// analytical one: the "within 1%". (CollNet direct is not such a case: a head GPU's
// NVLink carries chunk j's copy-back while chunk j+1's scatter starts, and the analytical model
// fixes each transfer's share when it starts; flow is 4.3 % faster at 256 MiB.)
TEST(FlowModelAgreement, UncontendedCollectivesMatchTheAnalyticalModel) {
  struct Case {
    const char* cluster;
    int nodes, ppn;
    const char* algo;
    CollectiveKind kind;
  };
  const Case cases[] = {
      {"dgx-h100", 1, 8, "ring", CollectiveKind::AllReduce},
      {"dgx-h100-2node", 2, 8, "ring", CollectiveKind::AllReduce},
      {"dgx-h100-2node", 2, 8, "ring", CollectiveKind::AllGather},
      {"dgx-h100-2node", 2, 8, "ring", CollectiveKind::ReduceScatter},
      {"dgx-h100-2node", 2, 8, "collnet_chain", CollectiveKind::AllReduce},
      {"dgx-h100-2node", 2, 4, "ring", CollectiveKind::AllReduce},
  };
  for (const Case& k : cases) {
    Cluster c = build_cluster(resolve_cluster(k.cluster));
    Router router(c);
    Communicator comm = make_communicator(c, router, k.nodes, k.ppn);
    for (Bytes size : {Bytes::kib(64), Bytes::mib(4), Bytes::mib(256)}) {
      CollectiveCall call;
      call.kind = k.kind;
      call.bytes = size;
      Schedule s = find_algorithm(k.algo)->build(comm, call, {Protocol::Simple, 4});
      AnalyticalModel a(c);
      FlowModel f(c);
      const double ta = run_schedule(s, comm, router, a).duration.to_s();
      const double tf = run_schedule(s, comm, router, f).duration.to_s();
      const std::string what = std::string(k.cluster) + " " + k.algo + " " + to_string(k.kind) + " " + std::to_string(size.count());
      if (k.algo == std::string("ring") && k.nodes > 1) {
        // Across servers a ring's steps pile up on the network edge (NCCL_STEPS slots in flight,
        // collective/algorithms/patterns.hpp): the flow model shares the edge among them, the
        // analytical model charges each the load it met at its start for its whole life, so it
        // can only be slower, by at most the extra share a step sees: 2 steps at once for a step
        // time, +25% held (measured up to +21%, docs/models.md).
        EXPECT_GE(ta, tf * (1 - 1e-9)) << what;
        EXPECT_LE(ta, 1.25 * tf) << what;
      } else if (k.algo == std::string("collnet_chain")) {
        // Inside a server a chain's later chunks carry no step latency (patterns.hpp add_chunk),
        // so each follows the one before at once and the 4 channels' chunks overlap on the GPUs'
        // shared NVLink ports: the analytical model, charging a chunk the load it met at its start,
        // can only be slower (measured +1.4 % and +1.8 % at 4 and 256 MiB); 5 % held.
        EXPECT_GE(ta, tf * (1 - 1e-9)) << what;
        EXPECT_LE(ta, 1.05 * tf) << what;
      } else {
        EXPECT_NEAR(tf, ta, 0.01 * ta) << what;
      }
    }
  }
}
