// A later `down` that leaves GPUs no route aborts the transfers still stalled on an earlier one
// (docs/failures.md, "Failing the only path"): their connections have no way around any more, so
// they retry on their own clock until the transport gives up, and NCCL aborts then.
#include "reroute_scenario.hpp"

using namespace gf;
using namespace gf::reroute_fixture;

TEST(FailCutEarlier, ALaterCutAbortsTheTransfersStalledOnAnEarlierDown) {
  // The channel's spine link down at t0 = 5 us stalls the first step (inside its latency); alone,
  // the subnet manager reroutes it at the third retry (tests/fail_reroute_scenario_test.cpp). At
  // t1 = 6 us the other two spine links of leaf0 go down: hosts 3-5 have no route left, and the
  // step stalled since t0 has no way around any more. Its connection has retried every ACK timeout
  // since t0, so the transport gives up NCCL_IB_RETRY_CNT = 7 timeouts after t0 and NCCL aborts
  // at t0 + 7 x 4.294967296 s, one microsecond before the cutting links' own t1 + 7 x 4.294967296 s.
  const int s = crossed_spine();
  std::string events = "  - {at: 5us, down: leaf0-spine" + std::to_string(s) + "}\n";
  for (int o = 0; o < 3; ++o)
    if (o != s) events += "  - {at: 6us, down: leaf0-spine" + std::to_string(o) + "}\n";
  ScenarioResult r = run_text(scenario(events));
  ASSERT_TRUE(r.jobs[0].outcome);
  const JobEventOutcome& o = *r.jobs[0].outcome;
  EXPECT_EQ(o.kind, JobEventOutcome::Kind::Aborted);
  EXPECT_EQ(o.first_stall, Time::us(5));
  EXPECT_EQ(o.abort_at, Time::us(5) + kAck * 7);
  ASSERT_GE(r.event_lines.size(), 3u);
  // The earlier down's line says what the cut does to it, in the same words as the cut's own line.
  EXPECT_NE(r.event_lines[0].find("from t = 6 us (down leaf0-spine"), std::string::npos) << r.event_lines[0];
  EXPECT_NE(r.event_lines[0].find("no route is left to 3 GPUs (GPU 3 .. 5)"), std::string::npos) << r.event_lines[0];
  EXPECT_NE(r.event_lines[0].find("NCCL aborts at 30.06 s"), std::string::npos) << r.event_lines[0];
  EXPECT_NE(r.event_lines[2].find("no route is left to 3 GPUs (GPU 3 .. 5)"), std::string::npos) << r.event_lines[2];
}

TEST(FailCutEarlier, ACutUpAgainInTimeLeavesTheEarlierDownRerouted) {
  // The same downs, with leaf0's two other spine links up again at 100 us: the cut ends with the
  // first retry after it (6 us + one ACK timeout), long before the first down's reconvergence
  // (10 s), so nobody is cut off for good and the step stalled since t0 = 5 us is rerouted at its
  // third retry as without the cut: the job stalls 3 x 4.294967296 s and ends at
  // t0 + 3 x 4.294967296 s + its end without events (tests/fail_reroute_scenario_test.cpp).
  const int s = crossed_spine();
  std::string events = "  - {at: 5us, down: leaf0-spine" + std::to_string(s) + "}\n";
  for (int o = 0; o < 3; ++o)
    if (o != s) events += "  - {at: 6us, down: leaf0-spine" + std::to_string(o) + "}\n";
  for (int o = 0; o < 3; ++o)
    if (o != s) events += "  - {at: 100us, up: leaf0-spine" + std::to_string(o) + "}\n";
  ScenarioResult r = run_text(scenario(events));
  ASSERT_TRUE(r.jobs[0].outcome);
  const JobEventOutcome& o = *r.jobs[0].outcome;
  EXPECT_EQ(o.kind, JobEventOutcome::Kind::Stalled);
  EXPECT_EQ(o.stall, kAck * 3);
  EXPECT_EQ(r.jobs[0].end, Time::us(5) + kAck * 3 + o.baseline_end);
  EXPECT_NE(r.event_lines[0].find("the fabric reroutes"), std::string::npos) << r.event_lines[0];
  EXPECT_EQ(r.event_lines[0].find("no route is left"), std::string::npos) << r.event_lines[0];
}
