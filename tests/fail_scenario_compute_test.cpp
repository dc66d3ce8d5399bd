// A slow GPU in a scenario (`{at: T, degrade: serverS/gpuK, compute: F}`, `{at: U, up: ...}`,
// workload/scenario_compute.hpp): its rank starts each call that follows a gap as late as the
// slow part of the gap's compute overran, and the schedule decides what that costs. Cases worked out by hand on a 2-rank
// broadcast, whose every transfer leaves the root.
#include <gtest/gtest.h>

#include <string>

#include "core/error.hpp"
#include "workload/scenario.hpp"
#include "workload/scenario_compute.hpp"
#include "workload/scenario_yaml.hpp"

using namespace gf;

namespace {

// GPU 0 of each of two DGX H100 (rank 0 on server0, rank 1 on server1): broadcast from rank 0,
// 1 MiB, 100 us of gap after each call, 3 times.
std::string scenario(const std::string& events, const std::string& gap = "100us") {
  return "cluster: dgx-h100-2node\n"
         "jobs:\n  - {name: a, servers: 0-1, gpus_per_server: 1, repeat: 3, calls: [{collective: broadcast, size: 1M, "
         "root: 0, gap: " +
         gap + "}]}\nevents:\n" + events;
}

ScenarioResult run_text(const std::string& text) { return run_scenario(parse_scenario_yaml(text, "ev.yaml")); }

InputError error_of(const std::string& text) {
  try {
    run_text(text);
  } catch (const InputError& e) {
    return e;
  }
  ADD_FAILURE() << "no error for:\n" << text;
  return InputError({}, "", "", "");
}

}  // namespace

TEST(ScenarioCompute, ASlowRootDelaysEachLaterCallByTheStretchedGap) {
  // The root at 80 %: its 100 us of compute after a call takes 125 us, so it starts the next
  // call 25 us after rank 1. Every transfer of a 2-rank broadcast leaves the root, so each of
  // the 2 calls after a gap ends exactly 25 us later (the first call has no compute before it):
  // the job ends 2 x 25 us = 50 us later, the first call unchanged, the others 25 us longer.
  ScenarioResult r = run_text(scenario("  - {at: 0, degrade: server0/gpu0, compute: 0.8}\n"));
  ASSERT_TRUE(r.jobs[0].outcome);
  const JobEventOutcome& o = *r.jobs[0].outcome;
  EXPECT_EQ(r.jobs[0].end - o.baseline_end, Time::us(50));
  EXPECT_EQ(o.kind, JobEventOutcome::Kind::Degraded);
  const auto& spans = r.jobs[0].calls.at(0).spans;
  ASSERT_EQ(spans.size(), 3u);
  EXPECT_EQ(spans[2].duration() - spans[0].duration(), Time::us(25));
  EXPECT_EQ(spans[1].duration(), spans[2].duration());
  EXPECT_EQ(spans[1].start, spans[0].end + Time::us(100));  // everyone's gap is as written
}

TEST(ScenarioCompute, ASlowReceiverOrNoGapCostsNothing) {
  // Rank 1 only receives in a broadcast from rank 0; NCCL's receive buffers are posted at
  // connection setup, so its late start delays nothing (docs/failures.md, "Stragglers").
  ScenarioResult r = run_text(scenario("  - {at: 0, degrade: server1/gpu0, compute: 0.5}\n"));
  EXPECT_EQ(r.jobs[0].end, r.jobs[0].outcome->baseline_end);
  EXPECT_EQ(r.jobs[0].outcome->kind, JobEventOutcome::Kind::Unaffected);
  // Calls without a gap have no compute between them to stretch.
  ScenarioResult n = run_text(scenario("  - {at: 0, degrade: server0/gpu0, compute: 0.5}\n", "0us"));
  EXPECT_EQ(n.jobs[0].end, n.jobs[0].outcome->baseline_end);
  // A GPU outside the job changes nothing either.
  ScenarioResult o = run_text(scenario("  - {at: 0, degrade: server0/gpu5, compute: 0.5}\n"));
  EXPECT_EQ(o.jobs[0].end, o.jobs[0].outcome->baseline_end);
}

TEST(ScenarioCompute, ASlowdownPartWayThroughAGapStretchesOnlyItsRest) {
  // Four calls; the root slows to 80 % at 130 us, inside the gap after the first call (that call
  // lasts D, about 80 us: the preconditions below check it), and is up again at 320 us,
  // inside the gap after the second. The gap's compute is 100 us of work begun at the previous
  // call's end E, done at the speed of the moment (docs/failures.md, "Slow GPUs in a scenario"):
  // - gap 1, [E0, E0 + 100 us]: 130 us - E0 at full speed, the rest, 100 us - (130 us - E0), at
  //   0.8, which takes 1/0.8 as long: the root starts call 2 d1 = (E0 - 30 us) x 0.25 late;
  // - gap 2, from E1: at 0.8 until 320 us, 0.8 x (320 us - E1) of work in that time, the rest at
  //   full speed: d2 = 0.8 x (320 us - E1) x (1/0.8 - 1) = 0.2 x (320 us - E1) late;
  // - gap 3: full speed, no delay.
  // Every transfer of the 2-rank broadcast leaves the root, so each call lasts D plus its root's
  // delay (as in the test above), and the job ends d1 + d2 later than without the events.
  ScenarioResult r = run_text(
      "cluster: dgx-h100-2node\n"
      "jobs:\n  - {name: a, servers: 0-1, gpus_per_server: 1, repeat: 4, calls: [{collective: broadcast, size: 1M, "
      "root: 0, gap: 100us}]}\n"
      "events:\n  - {at: 130us, degrade: server0/gpu0, compute: 0.8}\n  - {at: 320us, up: server0/gpu0}\n");
  ASSERT_TRUE(r.jobs[0].outcome);
  const auto& s = r.jobs[0].calls.at(0).spans;
  ASSERT_EQ(s.size(), 4u);
  const Time d = s[0].duration(), e0 = s[0].end;  // the first call is never delayed
  ASSERT_LT(e0, Time::us(130));                      // the slowdown falls inside gap 1
  ASSERT_GT(e0 + Time::us(100), Time::us(130));
  const double d1 = (e0 - Time::us(30)).to_s() * 0.25;
  const Time e1 = s[1].end;
  ASSERT_LT(e1, Time::us(320));                      // the up falls inside gap 2
  ASSERT_GT(e1 + Time::us(100), Time::us(320));
  const double d2 = 0.2 * (Time::us(320) - e1).to_s();
  // Rounded to the picosecond once per delay.
  EXPECT_NEAR((s[1].duration() - d).to_s(), d1, 1e-12);
  EXPECT_NEAR((s[2].duration() - d).to_s(), d2, 1e-12);
  EXPECT_EQ(s[3].duration(), d);
  EXPECT_EQ(s[2].start, e1 + Time::us(100));  // everyone's gap is as written
  EXPECT_NEAR((r.jobs[0].end - r.jobs[0].outcome->baseline_end).to_s(), d1 + d2, 2e-12);
  EXPECT_EQ(r.jobs[0].outcome->kind, JobEventOutcome::Kind::Degraded);
  // `compute: 1` brings it back as `up` does.
  ScenarioResult c = run_text(
      "cluster: dgx-h100-2node\n"
      "jobs:\n  - {name: a, servers: 0-1, gpus_per_server: 1, repeat: 4, calls: [{collective: broadcast, size: 1M, "
      "root: 0, gap: 100us}]}\n"
      "events:\n  - {at: 130us, degrade: server0/gpu0, compute: 0.8}\n"
      "  - {at: 320us, degrade: server0/gpu0, compute: 1}\n");
  EXPECT_EQ(c.jobs[0].end, r.jobs[0].end);
}

TEST(ScenarioCompute, TheOverrunOfAGapSplitAtEachStep) {
  // 100 us of work from 10 us; speed 0.5 from 30 us to 50 us, then 0.25: 20 us at full speed
  // (10-30), 10 us of work in the 20 us at 0.5 (+10 us), the last 70 us at 0.25 (x 4: +210 us).
  const std::vector<SpeedStep> steps = {{Time::us(30), 0.5}, {Time::us(50), 0.25}};
  EXPECT_EQ(compute_overrun(steps, Time::us(10), Time::us(100)), Time::us(220));
  // Begun after the last step: all at 0.25. Ended before the first: nothing.
  EXPECT_EQ(compute_overrun(steps, Time::us(60), Time::us(10)), Time::us(30));
  EXPECT_EQ(compute_overrun(steps, Time::zero(), Time::us(30)), Time::zero());
  // Back to full speed part-way: 0.5 for 20 us (10 us of work, +10 us), the rest at 1.
  EXPECT_EQ(compute_overrun({{Time::zero(), 0.5}, {Time::us(20), 1.0}}, Time::zero(), Time::us(50)), Time::us(10));
}

TEST(ScenarioCompute, ComputeNeedsAGpuAndUpAnEarlierSlowdown) {
  // Line 4 is the event (cluster, jobs:, the job, events:).
  InputError nic = error_of(scenario("  - {at: 0, degrade: server0/nic0, compute: 0.8}\n"));
  EXPECT_EQ(nic.key(), "events[0].degrade");
  EXPECT_NE(nic.message().find("not a GPU"), std::string::npos) << nic.message();
  InputError typo = error_of(scenario("  - {at: 0, degrade: server0/gpu9, compute: 0.8}\n"));
  EXPECT_NE(typo.hint().find("did you mean 'server0/gpu"), std::string::npos) << typo.hint();
  // An `up` of a GPU nothing slowed, or only later.
  InputError never = error_of(scenario("  - {at: 10us, up: server0/gpu0}\n"));
  EXPECT_EQ(never.key(), "events[0].up");
  EXPECT_EQ(never.where().line, 5);
  EXPECT_NE(never.message().find("no earlier event slowed"), std::string::npos) << never.message();
  InputError before = error_of(scenario("  - {at: 50us, degrade: server0/gpu0, compute: 0.8}\n  - {at: 10us, up: server0/gpu0}\n"));
  EXPECT_EQ(before.key(), "events[1].up");
  // A slowdown after the run (3 calls of about 80 us and two 100 us gaps end before 1 ms).
  InputError late = error_of(scenario("  - {at: 1ms, degrade: server0/gpu0, compute: 0.8}\n"));
  EXPECT_EQ(late.key(), "events[0].at");
  EXPECT_NE(late.message().find("after the run"), std::string::npos) << late.message();
  EXPECT_NE(late.hint().find("earlier"), std::string::npos) << late.hint();
}
