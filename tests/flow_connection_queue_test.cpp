// One connection's steps sent in order by the flow model (model/flow/connection_queue.hpp):
// transfers started with one Route object are one connection's steps; each waits for the one
// before it to drain, its latency overlapping, while other connections share links as before.
// Every time below is derived by hand from alpha and W = bytes / bottleneck.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "model/flow/flow_model.hpp"
#include "model_completions.hpp"
#include "routing/router.hpp"
#include "test_clusters.hpp"

using namespace gf;

namespace {

using gftest::Done;
using gftest::drain;

// Two one-GPU servers on one switch: gpu0 -> pcie -> nic -> switch -> nic -> pcie -> gpu1.
struct TwoHosts {
  Cluster c = build_cluster(gftest::spec_of(gftest::small_server(1), 2, "single_switch"));
  Router router{c};
  TransferCost cost{c, ModelParams{}};
  Route r = router.route(c.gpu(0), c.gpu(1), 7);
  const Bytes bytes = Bytes::mib(64);
  // A connection: its own Route object (the engine shares one per source, destination, channel).
  ModelTransfer connection() const {
    ModelTransfer t;
    t.route = std::make_shared<const Route>(r);
    t.bytes = bytes;
    return t;
  }
  double wire() const {
    double b = 1e300;
    for (LinkId l : r.front().path.links) b = std::min(b, cost.capacity(l));
    return static_cast<double>(bytes.count()) / b;
  }
};

}  // namespace

TEST(FlowConnectionQueue, TwoStepsOfOneConnectionGoOneAfterTheOther) {
  // Both posted at 0: the first drains alone at the full bottleneck, alpha + W; the second waited
  // behind it and ends W later, alpha + 2 W (shared, both would end at alpha + 2 W).
  const TwoHosts h;
  FlowModel m(h.c);
  const ModelTransfer a = h.connection();
  m.start(0, a, Time::zero());
  m.start(1, a, Time::zero());
  const double alpha = h.cost.alpha(a).to_s(), w = h.wire();
  auto done = drain(m, 2);
  EXPECT_NEAR(done[0].to_s(), alpha + w, 1e-11);
  EXPECT_NEAR(done[1].to_s(), alpha + 2 * w, 1e-11);
}

TEST(FlowConnectionQueue, ALaterStepsLatencyOverlapsTheOneBeforeIt) {
  // The second step posted at W/2, inside the first's wire time: its latency ends at
  // W/2 + alpha, before the first drains at alpha + W, so it starts then and ends at alpha + 2 W,
  // not alpha + W + alpha + W as a step waiting for the one before it to arrive would.
  const TwoHosts h;
  FlowModel m(h.c);
  const ModelTransfer a = h.connection();
  const double alpha = h.cost.alpha(a).to_s(), w = h.wire();
  ASSERT_LT(w / 2 + alpha, alpha + w);
  Done d;
  m.start(0, a, Time::zero());
  const Time half = Time::ps(static_cast<int64_t>(w / 2 * 1e12));
  m.advance_to(half, d);
  m.start(1, a, half);
  auto done = drain(m, 2);
  EXPECT_NEAR(done[0].to_s(), alpha + w, 1e-11);
  EXPECT_NEAR(done[1].to_s(), alpha + 2 * w, 1e-11);
}

TEST(FlowConnectionQueue, AConnectionGetsOneShareWhateverItHasQueued) {
  // Connection A posts two steps, connection B one, all at 0, on the same path. A's first step
  // and B's share the bottleneck (half each) and both end at alpha + 2 W; A's second then drains
  // alone, alpha + 3 W. (With every step its own flow A would have taken two thirds.)
  const TwoHosts h;
  FlowModel m(h.c);
  const ModelTransfer a = h.connection(), b = h.connection();
  m.start(0, a, Time::zero());
  m.start(1, a, Time::zero());
  m.start(2, b, Time::zero());
  const double alpha = h.cost.alpha(a).to_s(), w = h.wire();
  auto done = drain(m, 3);
  EXPECT_NEAR(done[0].to_s(), alpha + 2 * w, 1e-11);
  EXPECT_NEAR(done[2].to_s(), alpha + 2 * w, 1e-11);
  EXPECT_NEAR(done[1].to_s(), alpha + 3 * w, 1e-11);
}

TEST(FlowConnectionQueue, AnEmptyStepBehindAnotherEndsWithIt) {
  // A step of no bytes queued behind a full one finishes when that one drains (in order), and
  // the step behind it starts then: alpha + W, then alpha + 2 W.
  const TwoHosts h;
  FlowModel m(h.c);
  const ModelTransfer a = h.connection();
  ModelTransfer empty = a;
  empty.bytes = Bytes(0);
  m.start(0, a, Time::zero());
  m.start(1, empty, Time::zero());
  m.start(2, a, Time::zero());
  const double alpha = h.cost.alpha(a).to_s(), w = h.wire();
  auto done = drain(m, 3);
  EXPECT_NEAR(done[0].to_s(), alpha + w, 1e-11);
  EXPECT_NEAR(done[1].to_s(), alpha + w, 1e-11);
  EXPECT_NEAR(done[2].to_s(), alpha + 2 * w, 1e-11);
}
