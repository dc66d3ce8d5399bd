// The flow model's completion tolerance (ModelParams::flow_completion_tolerance): a flow due
// within that fraction of its lifetime after an instant the model is at finishes at that instant.
// Two transfers on links of their own (four one-GPU servers on one switch, 0 -> 1 and 2 -> 3)
// never share bandwidth, so each alone takes alpha + bytes / bottleneck, and only the tolerance
// can move one's finish onto the other's.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

#include "model/flow/flow_model.hpp"
#include "routing/router.hpp"
#include "test_clusters.hpp"

using namespace gf;

namespace {

struct Done final : CompletionSink {
  std::vector<Time> at = std::vector<Time>(3, Time::infinity());
  void completed(TransferId id, Time t) override { at[static_cast<size_t>(id)] = t; }
};

class FlowCompletionTolerance : public ::testing::Test {
 protected:
  Cluster c = build_cluster(gftest::spec_of(gftest::small_server(1), 4, "single_switch"));
  Router router{c};
  TransferCost cost{c, ModelParams{}};

  ModelTransfer transfer(int from, int to, Bytes b) {
    ModelTransfer t;
    t.route = std::make_shared<const Route>(router.route(c.gpu(from), c.gpu(to), 7));
    t.bytes = b;
    return t;
  }
  double wire_s(const ModelTransfer& t) const {
    double cap = 1e300;
    for (LinkId l : t.legs().front().path.links) cap = std::min(cap, cost.capacity(l));
    return static_cast<double>(t.bytes.count()) / cap;
  }
  // Runs both (and an optional third) to the end with the given tolerance.
  std::vector<Time> run(double tolerance, const std::vector<std::pair<ModelTransfer, Time>>& ts) {
    ModelParams p;
    p.flow_completion_tolerance = tolerance;
    FlowModel m(c, p);
    for (size_t i = 0; i < ts.size(); ++i) m.start(static_cast<TransferId>(i), ts[i].first, ts[i].second);
    Done d;
    while (!m.next_event_time().is_infinite()) m.advance_to(m.next_event_time(), d);
    return d.at;
  }
};

}  // namespace

TEST_F(FlowCompletionTolerance, AFlowDueWithinTheToleranceFinishesWithTheEarlierOne) {
  // B carries 0.05 % more than A: it is due 0.0005 x W after A (W = A's wire time, about B's
  // lifetime), inside 1e-3 x W, so with the tolerance it finishes at A's instant; exact without.
  const ModelTransfer a = transfer(0, 1, Bytes::mib(64));
  const ModelTransfer b = transfer(2, 3, Bytes(Bytes::mib(64).count() + Bytes::mib(64).count() / 2000));
  const double alpha = cost.alpha(a).to_s();
  const std::vector<Time> exact = run(0, {{a, Time::zero()}, {b, Time::zero()}});
  EXPECT_NEAR(exact[0].to_s(), alpha + wire_s(a), 1e-11);
  EXPECT_NEAR(exact[1].to_s(), alpha + wire_s(b), 1e-11);
  const std::vector<Time> merged = run(1e-3, {{a, Time::zero()}, {b, Time::zero()}});
  EXPECT_EQ(merged[0], exact[0]);
  EXPECT_EQ(merged[1], exact[0]);
}

TEST_F(FlowCompletionTolerance, AFlowDueLaterThanTheToleranceKeepsItsOwnInstant) {
  // 0.2 % more: due 0.002 x W after A, outside 1e-3 x W.
  const ModelTransfer a = transfer(0, 1, Bytes::mib(64));
  const ModelTransfer b = transfer(2, 3, Bytes(Bytes::mib(64).count() + Bytes::mib(64).count() / 500));
  const std::vector<Time> exact = run(0, {{a, Time::zero()}, {b, Time::zero()}});
  const std::vector<Time> merged = run(1e-3, {{a, Time::zero()}, {b, Time::zero()}});
  EXPECT_EQ(merged[0], exact[0]);
  EXPECT_EQ(merged[1], exact[1]);
  EXPECT_GT(exact[1], exact[0]);
}

TEST_F(FlowCompletionTolerance, AnActivationIsNeverPulledForward) {
  // C (1 MiB, 0 -> 1 after A) is started so that its latency ends 1 ns after A finishes: well
  // inside any tolerance window of A's lifetime, but an activation keeps its instant, so C still
  // takes exactly alpha + its wire time from its start. B (2 -> 3) is a bystander as above.
  const ModelTransfer a = transfer(0, 1, Bytes::mib(64));
  const ModelTransfer b = transfer(2, 3, Bytes(Bytes::mib(64).count() + Bytes::mib(64).count() / 2000));
  const ModelTransfer cc = transfer(0, 1, Bytes::mib(1));
  const Time a_done = run(0, {{a, Time::zero()}})[0];
  const Time c_start = a_done - cost.alpha(cc) + Time::ps(1000);
  const std::vector<Time> merged = run(1e-3, {{a, Time::zero()}, {b, Time::zero()}, {cc, c_start}});
  EXPECT_NEAR(merged[2].to_s(), c_start.to_s() + cost.alpha(cc).to_s() + wire_s(cc), 1e-11);
}
