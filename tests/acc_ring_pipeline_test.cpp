// NCCL's step pipeline in the ring (issue 19): a send waits for the piece it forwards and for its
// slot, NCCL_STEPS = 8 steps back on its own edge (src/device/prims_simple.h waitPeer), never for
// its own previous send to arrive. The latency critical path is then the walk around the ring at
// each hop's own step latency, not 2(n-1) latencies of the slowest edge.
#include <gtest/gtest.h>

#include <algorithm>

#include "algorithm_check.hpp"
#include "collective/trees.hpp"
#include "engine/executor.hpp"
#include "model/analytical/analytical_model.hpp"
#include "model/flow/flow_model.hpp"

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

// The transfer position `i` sends at step `k` of channel 0 (ring_steps emits step-major).
TransferId at(int n, int i, int k) { return static_cast<TransferId>(k * n + i); }

}  // namespace

TEST(AccRingPipeline, ASendWaitsForItsSlotEightStepsBackNotForItsPreviousSend) {
  auto env = algocheck::setup("dgx-h100", 2, 8);
  const int n = 16;
  const Schedule s = algocheck::algo("ring").build(env->comm, call(CollectiveKind::AllReduce, 1 << 20), channels(1));
  ASSERT_EQ(s.size(), static_cast<size_t>(n * 2 * (n - 1)));
  for (int k = 1; k < 2 * (n - 1); ++k)
    for (int i = 0; i < n; ++i) {
      const auto deps = s.deps(at(n, i, k));
      auto has = [&](TransferId d) { return std::find(deps.begin(), deps.end(), d) != deps.end(); };
      EXPECT_TRUE(has(at(n, (i + n - 1) % n, k - 1))) << "receive, step " << k << " position " << i;
      EXPECT_EQ(has(at(n, i, k - 1)), false) << "own previous send, step " << k;
      EXPECT_EQ(has(k >= kPipelineChunks ? at(n, i, k - kPipelineChunks) : -1), k >= kPipelineChunks) << "slot, step " << k;
      EXPECT_EQ(deps.size(), k >= kPipelineChunks ? 2u : 1u);
    }
}

TEST(AccRingPipeline, FourRanksOnTwoServersPayTheWalkNotSixNetworkSteps) {
  // 2 DGX H100, 2 GPUs each: the ring alternates an NVLink hop and a network hop (every
  // server-to-server hop on one rail). All-reduce, 4 ranks, 2(n-1) = 6 steps, LL, one channel,
  // 256 B: each step moves 64 B (x2 for LL's flags), about 3 ns through a 50 GB/s NIC, so latency
  // is all. NCCL's Ring/LL figures (tuning.cc): base 6.6 us, NVLink step a = 0.6 us, NET
  // step 2.7 us; a network step also pays its path's wire and switch time, 0.85 us on this
  // cluster (analytical_ring_test.cpp derives it), and IB verbs no transport term: b = 3.55 us.
  // The last step's send waits on the receive before it, and so on back 6 hops around the ring:
  // 3 NVLink and 3 network hops whichever position ends it, so
  //   t = 6.6 + 3 x 0.6 + 3 x 3.55 = 19.05 us.
  // Waiting for each own previous send (no pipeline) the network hop's sender pays all six:
  // 6.6 + 6 x 3.55 = 27.9 us; the slot rule (8 back) binds nothing in 6 steps.
  auto env = algocheck::setup("dgx-h100", 2, 2);
  const Schedule s = algocheck::algo("ring").build(env->comm, call(CollectiveKind::AllReduce, 256), {Protocol::LL, 1});
  const double expected = 6.6 + 3 * 0.6 + 3 * (2.7 + 0.85);
  for (bool flow : {false, true}) EXPECT_NEAR(run_us(s, *env, flow), expected, 0.05) << (flow ? "flow" : "analytical");
}

TEST(AccRingPipeline, TheSteadyFormChargesTheWalkOnNvlinkEdgesAndASlotRoundOnNetworkEdges) {
  // The same 4 ranks and 6 steps in steady form (steady_ring.cpp). The walk priced in NCCL's
  // figures (IB adds no transport term) is 3 x 0.6 + 3 x 2.7 = 9.9 us: an NVLink edge is charged
  // ceil(9.9 / 0.6) = 17 of its 0.6 us steps (10.2 us). A network edge pays its latency once per
  // 8 steps beside its wire time: ceil(6 / 8) = 1 step of 2.7 + 0.85 us. The slowest edge plus the
  // base: 6.6 + 10.2 = 16.8 us, 2.25 us under the step-by-step 19.05 us: the walk leaves out the
  // three network hops' 0.85 us path (the model adds a path to a network edge's own steps only)
  // and rounds up by 0.3 us.
  auto env = algocheck::setup("dgx-h100", 2, 2);
  const Schedule s = algocheck::algo("ring").build_steady(env->comm, call(CollectiveKind::AllReduce, 256), {Protocol::LL, 1});
  int nvlink = 0, net = 0;
  for (const Transfer& t : s.transfers()) {
    const bool across = algocheck::crosses_servers(t, env->comm);
    EXPECT_EQ(t.steps, across ? 1 : 17);
    (across ? net : nvlink)++;
  }
  EXPECT_EQ(nvlink, 2);
  EXPECT_EQ(net, 2);
  EXPECT_NEAR(run_us(s, *env, false), 6.6 + 17 * 0.6, 0.05);
}

TEST(AccRingPipeline, OneGpuPerServerChargesEveryStep) {
  // 4 DGX H100 with 1 GPU each: every ring edge crosses servers, so no NVLink edge carries the
  // walk and each network edge is charged all 2(n-1) = 6 steps, as step by step: Ring/LL base
  // 6.6 us + 6 x (2.7 + 0.85) = 27.9 us in both forms.
  auto env = algocheck::setup("dgx-h100", 4, 1);
  const auto c = call(CollectiveKind::AllReduce, 256);
  const double expected = 6.6 + 6 * (2.7 + 0.85);
  EXPECT_NEAR(run_us(algocheck::algo("ring").build_steady(env->comm, c, {Protocol::LL, 1}), *env, false), expected, 0.05);
  EXPECT_NEAR(run_us(algocheck::algo("ring").build(env->comm, c, {Protocol::LL, 1}), *env, false), expected, 0.05);
}

TEST(AccRingPipeline, RingTimeIsMonotoneInSizeForEachProtocol) {
  // The dip issue 19 names: 2 DGX H100, ring/LL took 115.8 us at 256 KiB and 62.7 us (tree) at
  // 512 KiB. With the pipeline, time can only grow with size for one algorithm and protocol.
  auto env = algocheck::setup("dgx-h100", 2, 8);
  for (Protocol p : {Protocol::LL, Protocol::LL128, Protocol::Simple}) {
    double prev = 0;
    for (int64_t b = 1024; b <= (int64_t{64} << 20); b *= 2) {
      const double t = run_us(algocheck::algo("ring").build(env->comm, call(CollectiveKind::AllReduce, b), {p, 16}), *env, false);
      EXPECT_GE(t, prev) << to_string(p) << " at " << b << " B";
      prev = t;
    }
  }
}
