// Rerouting in a whole scenario (docs/failures.md, "Rerouting"; examples/failure-reroute.yaml):
// one of k = 3 spine links between two hosts goes down under a running job, the fabric reroutes
// after its reconvergence, and the stalled step moves onto one of the k - 1 spines left; and
// failing every path, which no reconvergence helps, aborts.
#include "reroute_scenario.hpp"

using namespace gf;
using namespace gf::reroute_fixture;

TEST(RerouteScenario, OneOfThreeSpineLinksDownStallsUntilTheRetryThenGoesAround) {
  // Every leaf0 -> spine link in turn, down at t0 = 5 us. The channel's ECMP route crosses exactly
  // one of the three: the other two carry nothing of the job, which ends as without them.
  // On the one it crosses, t0 falls in the first step's latency (a network step's is
  // microseconds: NCCL's per-step cost, docs/models.md, above the 32 KiB's 0.66 us on the wire),
  // so the step has moved no byte when it stalls. InfiniBand's subnet manager reroutes after 10 s;
  // the connection retries every ACK timeout, 4.096 us x 2^20 = 4.294967296 s after the failure,
  // so retry ceil(10 / 4.295) = 3 resumes it at tr = t0 + 3 x 4.294967296 s, and it moves onto a
  // surviving spine as a new transfer of all its bytes, paying its latency again: from tr on the
  // call runs as the healthy one does from 0 (every spine path has the same latency and
  // bandwidth, docs/failures.md), and the seven later steps start after the reconvergence, on
  // the routes around. So the job ends at tr + (its end without the event).
  const Time t0 = Time::us(5), ack = kAck;
  int stalled = 0;
  for (int s = 0; s < 3; ++s) {
    ScenarioResult r = run_text(scenario("  - {at: 5us, down: leaf0-spine" + std::to_string(s) + "}\n"));
    ASSERT_TRUE(r.jobs[0].outcome);
    const JobEventOutcome& o = *r.jobs[0].outcome;
    if (o.kind == JobEventOutcome::Kind::Unaffected) {
      EXPECT_EQ(r.jobs[0].end, o.baseline_end);
      continue;
    }
    ++stalled;
    EXPECT_EQ(o.kind, JobEventOutcome::Kind::Stalled);
    EXPECT_EQ(o.first_stall, t0);
    EXPECT_EQ(o.stall, ack * 3);
    EXPECT_EQ(r.jobs[0].end, t0 + ack * 3 + o.baseline_end);
    bool moved = false;
    for (const std::string& line : r.event_lines) moved = moved || line == "rerouted: 1 stalled transfer moved onto the routes around the dead links";
    EXPECT_TRUE(moved);
  }
  EXPECT_EQ(stalled, 1);
}

TEST(RerouteScenario, EveryPathDownAbortsNamingTheGpusCutOff) {
  // Leaf0's links to the two spines the channel does not cross go down at 5 us (each with a
  // spine left: rerouted), then the crossed one at 6 us, still inside the first step's latency:
  // that leaves hosts 3-5 no route from host 0. No reconvergence helps, so the connection retries
  // until the transport gives up, NCCL_IB_RETRY_CNT = 7 ACK timeouts after the failure, and NCCL
  // aborts at 6 us + 7 x 4.294967296 s (docs/failures.md, "Failing the only path").
  const int s = crossed_spine();
  std::string events;
  for (int o = 0; o < 3; ++o)
    if (o != s) events += "  - {at: 5us, down: leaf0-spine" + std::to_string(o) + "}\n";
  events += "  - {at: 6us, down: leaf0-spine" + std::to_string(s) + "}\n";
  ScenarioResult r = run_text(scenario(events));
  ASSERT_TRUE(r.jobs[0].outcome);
  EXPECT_EQ(r.jobs[0].outcome->kind, JobEventOutcome::Kind::Aborted);
  EXPECT_EQ(r.jobs[0].outcome->first_stall, Time::us(6));
  EXPECT_EQ(r.jobs[0].outcome->abort_at, Time::us(6) + kAck * 7);
  ASSERT_GE(r.event_lines.size(), 3u);
  EXPECT_NE(r.event_lines[0].find("the fabric reroutes"), std::string::npos) << r.event_lines[0];
  EXPECT_NE(r.event_lines[2].find("no route is left to 3 GPUs (GPU 3 .. 5)"), std::string::npos) << r.event_lines[2];
  EXPECT_NE(r.event_lines[2].find("cannot complete"), std::string::npos) << r.event_lines[2];
  // Up again at 100 us (before the run without events ends, as every event must be): the first
  // retry after it, one ACK timeout after the failure, resumes the step over the link back up
  // (not a new transfer: its latency ran on during the stall, so it ends within the healthy
  // call's length after the resume).
  ScenarioResult u = run_text(scenario(events + "  - {at: 100us, up: leaf0-spine" + std::to_string(s) + "}\n"));
  ASSERT_TRUE(u.jobs[0].outcome);
  EXPECT_EQ(u.jobs[0].outcome->kind, JobEventOutcome::Kind::Stalled);
  EXPECT_EQ(u.jobs[0].outcome->stall, kAck);
  EXPECT_GT(u.jobs[0].end, Time::us(6) + kAck);
  EXPECT_LE(u.jobs[0].end, Time::us(6) + kAck + u.jobs[0].outcome->baseline_end);
}
