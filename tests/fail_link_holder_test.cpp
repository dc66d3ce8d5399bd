// What held a collective up over -n iterations when a link is degraded and a rank is late
// (workload/noise.hpp iterations_held_by_link; docs/failures.md, "Stragglers and jitter").
#include <gtest/gtest.h>

#include <gpufabric/simulation.hpp>

#include "topology/faults.hpp"
#include "workload/noise.hpp"
#include "workload/sweep.hpp"

namespace {

gf::SweepOptions ring_64m() {
  gf::SweepOptions o;
  o.call.kind = gf::CollectiveKind::AllReduce;
  o.min_bytes = o.max_bytes = gf::Bytes::mib(64);
  o.algo = "ring";
  o.proto = "simple";
  return o;
}

TEST(FailLinkHolder, TheDegradedLinkHoldsTheCallUpWhenItCostsMoreThanTheLateRank) {
  // Two DGX H100, ring all-reduce of 64 MiB: NIC-bound, and NCCL splits it evenly over its
  // channels, so with server0/nic3 at half speed the channels on that rail take twice as long
  // and the inter-server part doubles: the link costs L = T(failed) - T(healthy), about T(healthy)
  // (within 25%: the NVLink part and the latencies do not double). A rank late by x costs about x
  // once (the pipelined ring, FailNoise), so the two add and the larger holds the call up: the
  // link in every iteration for x = L/2, the rank in every iteration for x = 2L.
  const auto healthy = gf::Simulation::load("dgx-h100-2node", {});
  const auto slow = gf::Simulation::load("dgx-h100-2node", {}, {gf::parse_fault("--degrade", "server0/nic3=0.5")});
  const gf::Time t0 = healthy.sweep(healthy.communicator(), ring_64m()).at(0).time;
  const gf::Time t1 = slow.sweep(slow.communicator(), ring_64m()).at(0).time;
  const gf::Time link_cost = t1 - t0;
  EXPECT_NEAR(link_cost.to_us() / t0.to_us(), 1.0, 0.25) << t0.to_us() << " -> " << t1.to_us() << " us";
  for (const double k : {0.5, 2.0}) {
    gf::SweepOptions o = ring_64m();
    o.noise.iterations = 3;
    o.noise.stragglers = {{"server1/gpu3", gf::Time::ps_rounded(static_cast<double>(link_cost.picoseconds()) * k)}};
    const gf::IterationStats s = slow.sweep(slow.communicator(), o).at(0).iterations;
    ASSERT_EQ(s.iterations, 3);
    EXPECT_EQ(s.clean, t1);
    EXPECT_EQ(s.held_rank, 11);  // server1/gpu3
    EXPECT_EQ(gf::iterations_held_by_link(s, s.clean - t0), k < 1 ? 3 : 0) << "x = " << k << " L";
  }
}

TEST(FailLinkHolder, NoLinkCostNoLinkHolder) {
  gf::IterationStats s;
  s.iterations = 2;
  s.latest_delay = {gf::Time::us(5), gf::Time::zero()};
  EXPECT_EQ(gf::iterations_held_by_link(s, gf::Time::zero()), 0);
  EXPECT_EQ(gf::iterations_held_by_link(s, gf::Time::us(3)), 1);  // beats the second iteration's 0 only
  EXPECT_EQ(gf::iterations_held_by_link(s, gf::Time::us(5)), 1);  // a tie goes to the rank
  EXPECT_EQ(gf::iterations_held_by_link(s, gf::Time::us(6)), 2);
}

}  // namespace
