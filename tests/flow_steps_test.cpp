// The compact step pattern (collective/step_schedule.hpp) and its runner (engine/step_runner.hpp):
// the pattern expands to exactly the schedule it stands for, and running it gives what running
// that schedule gives, to the picosecond and event for event, while holding only the live steps.
#include <gtest/gtest.h>

#include <stdexcept>

#include "../bench/peer_ring.hpp"
#include "collective/step_schedule.hpp"
#include "engine/step_runner.hpp"

namespace {

const std::string kClusterFile = std::string(GPUFABRIC_SOURCE_DIR) + "/bench/clusters/peer-leafspine.yaml";
constexpr int64_t kSize = 64ll << 20;
using gfpeer::RingSemantics;

TEST(FlowSteps, RingPatternExpandsToTheWholeRing) {
  for (RingSemantics sem : {RingSemantics::Sync, RingSemantics::Stream}) {
    const int n = 32;
    const gf::Schedule whole = gfpeer::peer_ring_schedule(n, gf::Bytes(kSize), sem);
    const gf::StepSchedule steps = gfpeer::peer_ring_steps(n, gf::Bytes(kSize), sem);
    EXPECT_EQ(steps.per_step(), static_cast<size_t>(n));
    EXPECT_EQ(steps.steps(), 2 * (n - 1));
    const gf::Schedule out = steps.expand();
    ASSERT_EQ(out.size(), whole.size());
    for (size_t i = 0; i < whole.size(); ++i) {
      const auto id = static_cast<gf::TransferId>(i);
      const gf::Transfer& a = whole.transfer(id);
      const gf::Transfer& b = out.transfer(id);
      ASSERT_EQ(a.src, b.src) << i;
      ASSERT_EQ(a.dst, b.dst) << i;
      ASSERT_EQ(a.bytes, b.bytes) << i;
      ASSERT_EQ(a.step, b.step) << i;
      const auto da = whole.deps(id);
      const auto db = out.deps(id);
      ASSERT_TRUE(std::equal(da.begin(), da.end(), db.begin(), db.end())) << i;
    }
  }
}

struct Fabric {
  explicit Fabric(int n)
      : cluster(gf::build_cluster(gfpeer::peer_cluster_spec(kClusterFile, n))),
        router(cluster),
        comm(gf::make_communicator(cluster, router, n, 1)) {}
  gf::Cluster cluster;
  gf::Router router;
  gf::Communicator comm;
};

// Runs the pattern both ways on fresh flow models and expects the same run.
void expect_same_run(const Fabric& f, const gf::StepSchedule& steps) {
  gf::FlowModel compact(f.cluster, gfpeer::peer_model_params());
  const gf::StepRun a = gf::run_steps(steps, f.comm, f.router, compact);
  const gf::Schedule whole = steps.expand();
  gf::FlowModel expanded(f.cluster, gfpeer::peer_model_params());
  const gf::ScheduleRun b = gf::run_schedule(whole, f.comm, f.router, expanded);
  EXPECT_EQ(a.duration.picoseconds(), b.duration.picoseconds());
  EXPECT_EQ(a.events, b.events);
  EXPECT_EQ(compact.events_processed(), expanded.events_processed());
  EXPECT_EQ(compact.peak_flows(), expanded.peak_flows());
  // The window is what makes memory follow the live state: past two steps (a step and the one
  // its completions release) it must not hold every step.
  EXPECT_GE(a.peak_steps, 1u);
  if (steps.steps() > 2) {
    EXPECT_LT(a.peak_steps, static_cast<size_t>(steps.steps()));
  }
}

TEST(FlowSteps, RingRunsAsItsExpandedSchedule) {
  for (int n : {32, 64}) {
    const Fabric f(n);
    for (RingSemantics sem : {RingSemantics::Sync, RingSemantics::Stream})
      expect_same_run(f, gfpeer::peer_ring_steps(n, gf::Bytes(kSize), sem));
  }
}

// A pattern unlike the ring: two channels, three sizes, each transfer of a later step waiting on
// two of the step before, a step latency and a base latency; ties and contention across leaves.
gf::Schedule uneven_pattern(int n) {
  gf::Schedule s("uneven", n, 2, gf::Protocol::Simple);
  s.set_step_latency({gf::Time::ns(500), gf::Time::ns(700), gf::Time::ns(900)});
  s.set_base_latency(gf::Time::us(3));
  for (int k = 0; k < 2; ++k)
    for (int r = 0; r < n; ++r) {
      gf::Transfer t;
      t.src = r;
      t.dst = (r + 5) % n;
      t.bytes = gf::Bytes((1 + r % 3) << 20);
      t.channel = static_cast<int16_t>(r % 2);
      t.step = static_cast<int16_t>(k);
      if (k == 0) s.add(t);
      else s.add(t, {r, (r + 7) % n});
    }
  return s;
}

TEST(FlowSteps, UnevenPatternRunsAsItsExpandedSchedule) {
  const Fabric f(32);
  expect_same_run(f, gf::StepSchedule(uneven_pattern(32), 9));
  expect_same_run(f, gf::StepSchedule(uneven_pattern(32), 2));
}

TEST(FlowSteps, OneStepIsTheFirstStepAlone) {
  const Fabric f(32);
  const gf::StepSchedule one(uneven_pattern(32), 1);
  EXPECT_EQ(one.size(), 32u);
  EXPECT_EQ(one.expand().size(), 32u);
  gf::FlowModel m(f.cluster, gfpeer::peer_model_params());
  const gf::StepRun r = gf::run_steps(one, f.comm, f.router, m);
  gf::FlowModel m2(f.cluster, gfpeer::peer_model_params());
  EXPECT_EQ(r.duration, gf::run_schedule(one.expand(), f.comm, f.router, m2).duration);
}

TEST(FlowSteps, MalformedPatternsAreRefused) {
  gf::Transfer t;
  t.dst = 1;
  t.bytes = gf::Bytes(1);
  auto make = [&](auto&& fill) {
    gf::Schedule s("bad", 2, 1, gf::Protocol::Simple);
    fill(s);
    return s;
  };
  // Odd size, empty.
  EXPECT_THROW(gf::StepSchedule(make([&](gf::Schedule& s) { s.add(t); }), 3), std::invalid_argument);
  EXPECT_THROW(gf::StepSchedule(make([](gf::Schedule&) {}), 3), std::invalid_argument);
  // A later-step transfer with no dependency.
  EXPECT_THROW(gf::StepSchedule(make([&](gf::Schedule& s) { s.add(t); s.add(t); }), 3), std::invalid_argument);
  // A first-step transfer with a dependency (P = 2: transfer 1 depends on 0).
  EXPECT_THROW(gf::StepSchedule(make([&](gf::Schedule& s) {
                 s.add(t);
                 s.add(t, {0});
                 s.add(t, {0});
                 s.add(t, {1});
               }),
                                3),
               std::invalid_argument);
  // A later-step transfer depending on one of its own step.
  EXPECT_THROW(gf::StepSchedule(make([&](gf::Schedule& s) {
                 s.add(t);
                 s.add(t);
                 s.add(t, {0});
                 s.add(t, {2});
               }),
                                3),
               std::invalid_argument);
  // Fewer than one step.
  EXPECT_THROW(gf::StepSchedule(make([&](gf::Schedule& s) { s.add(t); s.add(t, {0}); }), 0), std::invalid_argument);
  // The well-formed one of these is accepted.
  EXPECT_NO_THROW(gf::StepSchedule(make([&](gf::Schedule& s) { s.add(t); s.add(t, {0}); }), 3));
}

TEST(FlowSteps, AdaptiveRoutingIsRefused) {
  const Fabric f(32);
  gf::FlowModel m(f.cluster, gfpeer::peer_model_params());
  EXPECT_THROW(gf::run_steps(gfpeer::peer_ring_steps(32, gf::Bytes(kSize), RingSemantics::Sync), f.comm, f.router, m,
                             0, gf::RoutingPolicy::Adaptive),
               std::invalid_argument);
}

}  // namespace
