// Time-varying link state (scenario `events:`): the flow model's capacity changes during a run
// (model/link_events.hpp) on cases worked out by hand, and the scenario's events end to end: a
// stalled job resumes at the first retry after the link is back, a NIC with no other path aborts
// after NCCL's retries, resiliency moves it after 500 ms, and bad events are errors at their line.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "model/flow/flow_model.hpp"
#include "model/link_events.hpp"
#include "model_completions.hpp"
#include "test_clusters.hpp"
#include "topology/cluster_spec.hpp"
#include "workload/failure_timeline.hpp"
#include "workload/scenario.hpp"
#include "workload/scenario_yaml.hpp"

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

class LinkEvents : public ::testing::Test {
 protected:
  // Two one-GPU servers on one switch: gpu0 -> pcie -> nic -> switch -> nic -> pcie -> gpu1.
  Cluster c = build_cluster(gftest::spec_of(gftest::small_server(1), 2, "single_switch"));
  Router router{c};
  TransferCost cost{c, ModelParams{}};
  Route r = router.route(c.gpu(0), c.gpu(1), 7);
  const Bytes bytes = Bytes::mib(64);
  ModelTransfer t = transfer(r, bytes);
  double bottleneck() const {
    double b = 1e300;
    for (LinkId l : r.front().path.links) b = std::min(b, cost.capacity(l));
    return b;
  }
  // Alone, the transfer takes alpha, then W = bytes / bottleneck on the wire.
  double alpha() const { return cost.alpha(t).to_s(); }
  double wire() const { return static_cast<double>(bytes.count()) / bottleneck(); }
};

}  // namespace

TEST_F(LinkEvents, ALinkDownForDStallsTheTransferForD) {
  // Down a quarter of the way through the wire time, back D later: the transfer moves nothing
  // for D, so it ends at alpha + W + D; the stall is recorded at the down instant, on that link.
  const LinkId l = r.front().path.links[2];  // nic -> switch
  const Time down = seconds_to_time(alpha() + wire() / 4), d = Time::ms(3);
  FlowModel inner(c);
  LinkEventModel m(inner, {{down, l, 0.0}, {down + d, l, 1.0}}, c.links().size());
  m.start(0, t, Time::zero());
  EXPECT_NEAR(drain(m, 1)[0].to_s(), alpha() + wire() + d.to_s(), 1e-9);
  ASSERT_EQ(m.stalls().size(), 1u);
  EXPECT_EQ(m.stalls()[0].id, 0);
  EXPECT_EQ(m.stalls()[0].at, down);
  EXPECT_EQ(m.stalls()[0].link, l);
}

TEST_F(LinkEvents, EveryLinkOfThePathAtHalfTheBottleneckHalvesTheRest) {
  // Half-way through the wire time one link of the path drops to half the path's bottleneck
  // (whether it was the bottleneck or a link the flow model had left out as implied by another):
  // the second half of the bytes then takes W, so the transfer ends at alpha + W/2 + W.
  for (LinkId l : r.front().path.links) {
    FlowModel inner(c);
    const double fraction = bottleneck() / 2 / cost.capacity(l);
    LinkEventModel m(inner, {{seconds_to_time(alpha() + wire() / 2), l, fraction}}, c.links().size());
    m.start(0, t, Time::zero());
    EXPECT_NEAR(drain(m, 1)[0].to_s(), alpha() + 1.5 * wire(), 1e-9) << "link " << l;
    EXPECT_TRUE(m.stalls().empty());
  }
}

TEST_F(LinkEvents, ATransferStartedOnADeadLinkWaitsForIt) {
  // Down from 0 to 5 ms, the transfer started at 1 ms: its alpha passes, then it waits until
  // 5 ms and needs its whole wire time after that: 5 ms + W. Its stall is recorded at its start.
  const LinkId l = r.front().path.links[3];  // switch -> nic
  FlowModel inner(c);
  LinkEventModel m(inner, {{Time::zero(), l, 0.0}, {Time::ms(5), l, 1.0}}, c.links().size());
  Done d;
  m.advance_to(Time::ms(1), d);
  m.start(0, t, Time::ms(1));
  EXPECT_NEAR(drain(m, 1)[0].to_s(), 5e-3 + wire(), 1e-9);
  ASSERT_EQ(m.stalls().size(), 1u);
  EXPECT_EQ(m.stalls()[0].at, Time::ms(1));
}

namespace {

// One GPU on each of two DGX H100: a 2-rank ring whose every transfer crosses both servers'
// first NIC (each GPU's nearest), 64 MiB all-reduce repeated 4 times.
std::string scenario(const std::string& events, const std::string& extra = "") {
  return "cluster: dgx-h100-2node\n" + extra +
         "jobs:\n  - {name: a, servers: 0-1, gpus_per_server: 1, repeat: 4, calls: [{collective: all_reduce, size: 64M}]}\n"
         "events:\n" + events;
}

ScenarioResult run_text(const std::string& text) { return run_scenario(parse_scenario_yaml(text, "ev.yaml")); }

const Time kAck = Time::us(4.096 * (1 << 20));  // NCCL_IB_TIMEOUT = 20: 4.096 us x 2^20 = 4.29 s

}  // namespace

TEST(ScenarioEvents, ANicCableDownAndUpStallsUntilTheFirstRetryAfter) {
  // server0/nic0 down at 1 ms, up at 2 ms: the first ACK-timeout retry after the link is back is
  // the first one, 4.29 s after the failure, so the job stalls from 1 ms to 1 ms + 4.29 s.
  // Its end moves by at most that stall (nothing moves faster for it) and by more than the stall
  // less the whole run without events (at most that much work was left after the failure).
  ScenarioResult r = run_text(scenario("  - {at: 1ms, down: server0/nic0}\n  - {at: 2ms, up: server0/nic0}\n"));
  ASSERT_TRUE(r.jobs[0].outcome);
  const JobEventOutcome& o = *r.jobs[0].outcome;
  EXPECT_EQ(o.kind, JobEventOutcome::Kind::Stalled);
  EXPECT_EQ(o.first_stall, Time::ms(1));
  EXPECT_EQ(o.stall, kAck);
  const Time shift = r.jobs[0].end - o.baseline_end;
  EXPECT_LE(shift, kAck);
  EXPECT_GT(shift, kAck - o.baseline_end);
  EXPECT_EQ(r.baseline_makespan, o.baseline_end);
}

TEST(ScenarioEvents, ANicCableThatStaysDownAbortsAfterTheRetries) {
  // Classic NCCL: 7 retries of 4.29 s, then the communicator aborts: 1 ms + 30.06 s.
  ScenarioResult r = run_text(scenario("  - {at: 1ms, down: server0/nic0}\n"));
  const JobEventOutcome& o = *r.jobs[0].outcome;
  EXPECT_EQ(o.kind, JobEventOutcome::Kind::Aborted);
  EXPECT_EQ(o.abort_at, Time::ms(1) + kAck * 7);
  // With InfiniBand resiliency the connections move after 500 ms instead.
  ScenarioResult res = run_text(scenario("  - {at: 1ms, down: server0/nic0}\n", "nccl_on_failure: resilient\n"));
  EXPECT_EQ(res.jobs[0].outcome->kind, JobEventOutcome::Kind::Stalled);
  EXPECT_EQ(res.jobs[0].outcome->stall, Time::ms(500));
}

TEST(ScenarioEvents, AHalfSpeedNicSlowsTheJobButNeverStallsIt) {
  // From 0 the NIC's cable runs at half its bandwidth: the job continues degraded, slower than
  // without the event and at most twice as slow (only the network part of each step halves).
  ScenarioResult r = run_text(scenario("  - {at: 0, degrade: server0/nic0, bandwidth: 0.5}\n"));
  const JobEventOutcome& o = *r.jobs[0].outcome;
  EXPECT_EQ(o.kind, JobEventOutcome::Kind::Degraded);
  EXPECT_GT(r.jobs[0].end, o.baseline_end);
  EXPECT_LE(r.jobs[0].end, o.baseline_end * 2);
}

TEST(ScenarioEvents, ALinkTheJobDoesNotUseLeavesItUnaffected) {
  // server1/nic7 carries nothing of a job on each server's GPU 0 (nearest NIC: nic0).
  ScenarioResult r = run_text(scenario("  - {at: 1ms, down: server1/nic7}\n"));
  EXPECT_EQ(r.jobs[0].outcome->kind, JobEventOutcome::Kind::Unaffected);
  EXPECT_EQ(r.jobs[0].end, r.jobs[0].outcome->baseline_end);
}

TEST(ScenarioEvents, BadEventsAreErrorsAtTheirLine) {
  auto error = [](const std::string& text) -> InputError {
    try {
      run_text(text);
    } catch (const InputError& e) {
      return e;
    }
    ADD_FAILURE() << "no error for:\n" << text;
    return InputError({}, "", "", "");
  };
  // Line 5 is the first event (cluster, jobs:, the job, events:).
  InputError unknown = error(scenario("  - {at: 1ms, down: server0/nic9}\n"));
  EXPECT_EQ(unknown.where().line, 5);
  EXPECT_EQ(unknown.key(), "events[0].down");
  EXPECT_NE(unknown.hint().find("server0/nic"), std::string::npos) << unknown.hint();
  InputError late = error(scenario("  - {at: 100s, down: server0/nic0}\n"));
  EXPECT_EQ(late.key(), "events[0].at");
  EXPECT_NE(late.message().find("after the run"), std::string::npos);
  EXPECT_EQ(error(scenario("  - {at: 1ms, down: server0/nic0, up: server0/nic0}\n")).key(), "events[0].degrade");
  EXPECT_EQ(error(scenario("  - {at: 1ms, degrade: server0/nic0, bandwidth: 1.5}\n")).key(), "events[0].bandwidth");
  EXPECT_EQ(error(scenario("  - {at: 1ms, degrade: server0/nic0}\n")).key(), "events[0].degrade");
  EXPECT_EQ(error(scenario("  - {down: server0/nic0}\n")).key(), "events[0].at");
  EXPECT_EQ(error(scenario("  - {at: 1ms, down: server0/nic0}\n", "model: analytical\n")).key(), "events");
  EXPECT_EQ(error(scenario("  - {at: 1ms, down: server0/nic0}\n", "nccl_on_failure: abrot\n")).key(), "nccl_on_failure");
}
