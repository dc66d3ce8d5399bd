// The steady-state ring (algorithms/steady_ring.cpp) against the step-by-step ring (ring.cpp) at
// small n, on both models, and against the closed forms of what each rank sends.
#include <gtest/gtest.h>

#include <cstdio>

#include "algorithm_check.hpp"
#include "collective/steady_state.hpp"
#include "model/analytical/analytical_model.hpp"
#include "model/flow/flow_model.hpp"
#include "engine/executor.hpp"

using namespace gf;
using algocheck::call;
using algocheck::channels;

namespace {

double run_us(const Schedule& s, const algocheck::Setup& env, bool flow) {
  AnalyticalModel analytical(env.cluster);
  FlowModel flowm(env.cluster);
  Model& m = flow ? static_cast<Model&>(flowm) : static_cast<Model&>(analytical);
  return run_schedule(s, env.comm, env.router, m).duration.to_us();
}

}  // namespace

TEST(SteadyStateRing, OneTransferPerEdgeAndChannelCarryingTwoNMinusOneOverNOfTheBuffer) {
  auto env = algocheck::setup("dgx-h100", 2, 8);
  const int n = 16, C = 2;
  const int64_t S = 1 << 24;  // 16 MiB: divides by n x C, so every piece is exact
  Schedule s = algocheck::algo("ring").build_steady(env->comm, call(CollectiveKind::AllReduce, S), channels(C));
  // n edges per channel, no dependencies, each standing for the 2(n-1) = 30 steps pipelined: the
  // walk back 30 hops around the 16-edge ring (14 NVLink hops at NCCL's Ring/Simple 3.4 us, 2
  // network hops at 14 us, 8 apart) is one lap (14 x 3.4 + 2 x 14 = 75.6 us) plus the worst 14
  // consecutive hops, which hold both network hops (12 x 3.4 + 2 x 14 = 68.8 us; IB adds no
  // transport term): 144.4 us, an NVLink edge's ceil(144.4 / 3.4) = 43 steps. A network edge pays
  // its latency once per 8 steps (the slot it waits for) beside its wire time: ceil(30 / 8) = 4.
  EXPECT_EQ(s.size(), static_cast<size_t>(n * C));
  EXPECT_EQ(s.depth(), 1);
  for (const Transfer& t : s.transfers()) EXPECT_EQ(t.steps, algocheck::crosses_servers(t, env->comm) ? 4 : 43);
  // Per rank 2(n-1)/n x S = 30/16 x 16 MiB sent and received; the reduce-scatter half,
  // (n-1)/n x S, is reduced on arrival.
  for (Rank r = 0; r < n; ++r) {
    EXPECT_EQ(s.bytes_sent(r).count(), 2 * (n - 1) * S / n);
    EXPECT_EQ(s.bytes_received(r).count(), 2 * (n - 1) * S / n);
    int64_t reduced = 0;
    for (const Transfer& t : s.transfers()) reduced += t.dst == r ? t.reduce.count() : 0;
    EXPECT_EQ(reduced, (n - 1) * S / n);
  }
}

TEST(SteadyStateRing, BytesEqualTheStepByStepRingsRankByRankEvenWhenPiecesAreUneven) {
  auto env = algocheck::setup("dgx-h100", 2, 8);
  const Algorithm& ring = algocheck::algo("ring");
  // 1 MiB + 13 bytes splits unevenly over 3 channels and 16 pieces: the steady form must add up
  // exactly the bytes ring.cpp's steps move, rank by rank.
  for (CollectiveKind k : {CollectiveKind::AllReduce, CollectiveKind::ReduceScatter, CollectiveKind::AllGather,
                           CollectiveKind::Broadcast, CollectiveKind::Reduce}) {
    const int64_t S = (1 << 20) + 13 * 16;
    Schedule step = ring.build(env->comm, call(k, S, 5), channels(3));
    Schedule steady = algocheck::algo("ring").build_steady(env->comm, call(k, S, 5), channels(3));
    for (Rank r = 0; r < 16; ++r) {
      EXPECT_EQ(steady.bytes_sent(r), step.bytes_sent(r)) << to_string(k) << " rank " << r;
      EXPECT_EQ(steady.bytes_received(r), step.bytes_received(r)) << to_string(k) << " rank " << r;
    }
    int64_t reduce_step = 0, reduce_steady = 0;
    for (const Transfer& t : step.transfers()) reduce_step += t.reduce.count();
    for (const Transfer& t : steady.transfers()) reduce_steady += t.reduce.count();
    EXPECT_EQ(reduce_steady, reduce_step) << to_string(k);
    // The estimate that picks the form is the step-by-step form's exact size.
    EXPECT_EQ(algocheck::algo("ring").step_transfers(env->comm, call(k, S, 5), 3), static_cast<int64_t>(step.size())) << to_string(k);
  }
}

TEST(SteadyStateRing, TakesTheStepByStepTimeOnBothModels) {
  // Every step of a ring moves S/(nC) on every edge. Step by step a send waits for what it
  // forwards and for its slot 8 steps back (NCCL_STEPS), so at 64 MiB the network edge, slowest
  // in bandwidth, is busy throughout with several steps in flight; the steady form charges it
  // ceil(S / 8) of its latencies (NCCL's 14 us NET/Simple step + the 0.85 us path) beside all its
  // bytes, where step by step it hides between none and all of that latency behind its wire time:
  // |steady - step| <= ceil(S / 8) x 14.85 us on the flow model, which shares the edge among the
  // steps in flight as the wire does. The analytical model charges a step the load it meets at its
  // start for its whole life, so steps piled up on one edge run slower there than on the wire: its
  // step-by-step ring is the pessimistic one, and the steady form is at or below it.
  auto env = algocheck::setup("dgx-h100", 4, 8);
  const int n = 32;
  const Algorithm& ring = algocheck::algo("ring");
  for (bool flow : {false, true}) {
    for (CollectiveKind k : {CollectiveKind::AllReduce, CollectiveKind::AllGather}) {
      const int steps = k == CollectiveKind::AllReduce ? 2 * (n - 1) : n - 1;
      const auto c = call(k, int64_t{64} << 20);
      const double step = run_us(ring.build(env->comm, c, channels(4)), *env, flow);
      const double steady = run_us(algocheck::algo("ring").build_steady(env->comm, c, channels(4)), *env, flow);
      const double bound = (steps + 7) / 8 * (14.0 + 0.85);
      if (flow) EXPECT_NEAR(steady, step, bound) << to_string(k);
      else EXPECT_LE(steady, step) << to_string(k);
      std::printf("[ steady ] ring %-10s %-10s step %10.1f us steady %10.1f us (%+.2f%%), bound %.1f us\n", to_string(k),
                  flow ? "flow" : "analytical", step, steady, 100.0 * (steady - step) / step, bound);
    }
  }
}

TEST(SteadyStateRing, BuildSwitchesToItAboveTheBudget) {
  // 16 DGX H100 = 128 ranks, 4 channels: step by step 4 x 128 x 2 x 127 = 130,048 transfers,
  // above kStepScheduleBudget (100,000): ring.build returns 4 x 128 steady transfers instead.
  auto env = algocheck::setup("dgx-h100", 16, 8);
  const auto c = call(CollectiveKind::AllReduce, int64_t{1} << 30);
  ASSERT_GT(algocheck::algo("ring").step_transfers(env->comm, c, 4), kStepScheduleBudget);
  Schedule s = algocheck::algo("ring").build(env->comm, c, channels(4));
  EXPECT_EQ(s.size(), static_cast<size_t>(4 * 128));
  // Below it (2 channels: 65,024) the step-by-step form stays.
  EXPECT_EQ(algocheck::algo("ring").build(env->comm, c, channels(2)).size(), static_cast<size_t>(2 * 128 * 2 * 127));
}

TEST(SteadyStateRing, MergesChannelsThatRunTheSameRingOnlyAboveTheSteadyBudget) {
  // Channels c and c + 8 of an 8-GPU NVSwitch server run the same ring (Communicator::ring rotates
  // by c mod ppn): with 16 channels and per-channel counts over kSteadyScheduleBudget / 16 the
  // form keeps 8 (never fewer: channels 0..7 differ), each carrying two channels' bytes.
  int calls = 0;
  auto same = [&](int c, int k) { ++calls; return c % 8 == k % 8; };
  EXPECT_EQ(steady_channels(16, 100'000, same), 8);  // 1.6 M, then 800 K: still above, but 4 would split rings
  EXPECT_EQ(steady_channels(16, 1'000, same), 16);
  EXPECT_EQ(merged_channel_bytes(Bytes(1600), 16, 8, 3).count(), 200);  // channels 3 and 11, 100 each
}
