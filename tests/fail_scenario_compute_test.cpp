// A slow GPU in a scenario (`{at: 0, degrade: serverS/gpuK, compute: F}`,
// workload/scenario_compute.hpp): its rank starts each call that follows a gap gap x (1/F - 1)
// late, and the schedule decides what that costs. Cases worked out by hand on a 2-rank
// broadcast, whose every transfer leaves the root.
#include <gtest/gtest.h>

#include <string>

#include "core/error.hpp"
#include "workload/scenario.hpp"
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

TEST(ScenarioCompute, ComputeNeedsAGpuFromTheStart) {
  // Line 4 is the event (cluster, jobs:, the job, events:).
  InputError nic = error_of(scenario("  - {at: 0, degrade: server0/nic0, compute: 0.8}\n"));
  EXPECT_EQ(nic.key(), "events[0].degrade");
  EXPECT_NE(nic.message().find("not a GPU"), std::string::npos) << nic.message();
  InputError typo = error_of(scenario("  - {at: 0, degrade: server0/gpu9, compute: 0.8}\n"));
  EXPECT_NE(typo.hint().find("did you mean 'server0/gpu"), std::string::npos) << typo.hint();
  InputError late = error_of(scenario("  - {at: 10us, degrade: server0/gpu0, compute: 0.8}\n"));
  EXPECT_EQ(late.key(), "events[0].at");
  EXPECT_NE(late.message().find("at: 0"), std::string::npos) << late.message();
}
