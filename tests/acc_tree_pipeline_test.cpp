// NCCL's step pipeline in trees and chains (issue 19): chunk j on an edge follows chunk j-1 on that
// edge but does not pay its own latency (patterns.hpp add_chunk); NCCL has up to NCCL_STEPS = 8
// steps in flight per connection (src/include/device.h; the senders in src/device/prims_*.h post
// a step once its slot is free), and its tuner charges a tree or chain one latency per hop
// (src/graph/tuning.cc). Each number below is derived by hand.
#include <gtest/gtest.h>

#include "algorithm_check.hpp"
#include "engine/executor.hpp"
#include "model/analytical/analytical_model.hpp"
#include "model/flow/flow_model.hpp"

using namespace gf;
using algocheck::call;

namespace {

double run_us(const Schedule& s, const algocheck::Setup& env, bool flow) {
  AnalyticalModel analytical(env.cluster);
  FlowModel flowm(env.cluster);
  Model& m = flow ? static_cast<Model&>(flowm) : static_cast<Model&>(analytical);
  return run_schedule(s, env.comm, env.router, m).duration.to_us();
}

// One NIC of a DGX H100: 400 Gb/s = 50 GB/s, at the model's network efficiency 0.92
// (model_params.hpp): 46 GB/s of payload for Simple, half that for LL (4 data bytes per 8).
constexpr double kNicBytesPerUs = 50e9 * 0.92 / 1e6;
// A network step's wire and switch time on the dgx-h100 preset (acc_ring_pipeline_test.cpp and
// analytical_ring_test.cpp derive it): 0.85 us.
constexpr double kPath = 0.85;

}  // namespace

TEST(AccTreePipeline, OnlyTheFirstChunkOnAnEdgePaysItsLatency) {
  // 2 x 8 ranks, one channel, 4 MiB: two trees of 16 ranks, each with 15 edges used once up and
  // once down, carry a 2 MiB half in 8 chunks (trees.hpp: at most 8). The first chunk of each of
  // the 2 x 2 x 15 = 60 (tree, edge, direction) pipelines pays a step latency; the other 7 x 60 =
  // 420 transfers none.
  auto env = algocheck::setup("dgx-h100", 2, 8);
  const Schedule s = algocheck::algo("tree").build(env->comm, call(CollectiveKind::AllReduce, 4 << 20), {Protocol::Simple, 1});
  ASSERT_EQ(s.size(), 480u);
  int first = 0, later = 0;
  for (const Transfer& t : s.transfers()) (t.steps == 1 ? first : later)++;
  EXPECT_EQ(first, 60);
  EXPECT_EQ(later, 420);
}

TEST(AccTreePipeline, TwoServersTreeAllReducePaysTwoLatenciesAndNineChunkTimes) {
  // 2 DGX H100, 1 GPU each, tree all-reduce, LL, one channel, 128 KiB: two trees (NCCL's double
  // binary tree: on 2 servers, one edge used up in one tree and down in the other) each carry a
  // 64 KiB half in K = 8 chunks of 8 KiB (trees.hpp: 8 KiB at least per chunk).
  // Per chunk on the wire: s = 8192 B x 2 (LL) / 46 GB/s = 0.3562 us. Per hop latency: NCCL's
  // Tree/LL NET step 5.0 us (tuning.cc hwLat) + path 0.85 us, L = 5.85 us; base 6.8 us.
  // Direction 1->0 carries tree 0's climb and tree 1's descent (and 0->1 the mirror). The climb's
  // chunks end at L + s, L + 2s, ..., L + 8s = 8.70 us; the descent's first chunk starts when its
  // climb arrived (L + s) and pays its latency first, so it reaches the wire at 2L + s = 12.06 us,
  // after the climb left it: no sharing. Descent chunk j ends at max(climb j, descent j-1) + s
  // (its latency hidden behind chunk 0's): 2L + 2s, ..., 2L + 9s. So
  //   t = 6.8 + 2 x 5.85 + 9 x 0.3562 = 21.71 us,
  // where a latency per chunk gave the descent's last chunk 9 (L + s): 6.8 + 9 x 6.206 = 62.66 us.
  auto env = algocheck::setup("dgx-h100", 2, 1);
  const Schedule s = algocheck::algo("tree").build(env->comm, call(CollectiveKind::AllReduce, 128 << 10), {Protocol::LL, 1});
  const double L = 5.0 + kPath, chunk = 8192.0 * 2 / kNicBytesPerUs;
  const double expected = 6.8 + 2 * L + 9 * chunk;
  EXPECT_NEAR(run_us(s, *env, true), expected, 0.05) << "flow";
  // The analytical model prices a transfer at the load it meets when it starts (its latency
  // phase included): descent chunk 0 starts at L + s while climb chunk 1 holds the same
  // direction, so it is charged half the rate, 2s, for its life and every later descent chunk
  // follows it one s later: 2L + 10s.
  EXPECT_NEAR(run_us(s, *env, false), expected + chunk, 0.05) << "analytical";
}

TEST(AccTreePipeline, ThreeServerChainBroadcastIsLatencyPerHopPlusPipelineFill) {
  // Ring broadcast on 3 DGX H100 with 1 GPU each: a chain 0 -> 1 -> 2 (h = 2 network hops, on
  // separate NICs), Simple, one channel, 512 KiB in K = 8 chunks of 64 KiB. Chunk time
  // s = 65536 / 46 GB/s = 1.4247 us; per hop L = Ring/Simple NET 14.0 us + path 0.85 us; base
  // 8.4 us. Chunk j reaches hop h's end at h x L + (h + j) x s (induction: it follows chunk j on
  // hop h-1 and chunk j-1 on hop h, only chunk 0 paying latency), so the last one lands at
  //   t = 8.4 + 2 x 14.85 + (2 + 8 - 1) x 1.4247 = 50.92 us,
  // where a latency per chunk gave 8.4 + 9 x (14.85 + 1.4247) = 154.87 us.
  auto env = algocheck::setup("dgx-h100", 3, 1);
  const Schedule s = algocheck::algo("ring").build(env->comm, call(CollectiveKind::Broadcast, 512 << 10), {Protocol::Simple, 1});
  const double expected = 8.4 + 2 * (14.0 + kPath) + 9 * (65536.0 / kNicBytesPerUs);
  EXPECT_NEAR(run_us(s, *env, true), expected, 0.05) << "flow";
  EXPECT_NEAR(run_us(s, *env, false), expected, 0.05) << "analytical";
}

TEST(AccTreePipeline, PipelinedAlgorithmsAreMonotoneInSize) {
  // Hiding later chunks' latency must not make a larger message faster: 8 KiB chunks until the
  // message reaches 8 chunks per pipeline, then larger chunks.
  auto env = algocheck::setup("dgx-h100", 4, 8);
  const std::pair<const char*, Protocol> cases[] = {{"tree", Protocol::LL},       {"tree", Protocol::LL128},
                                                    {"tree", Protocol::Simple},   {"nvlstree", Protocol::Simple},
                                                    {"collnet_chain", Protocol::Simple}};
  for (const auto& [name, p] : cases) {
    const Algorithm& a = algocheck::algo(name);
    if (!a.unsupported(env->comm, CollectiveKind::AllReduce).empty()) continue;
    double prev = 0;
    for (int64_t b = 1024; b <= (int64_t{64} << 20); b *= 2) {
      const double t = run_us(a.build(env->comm, call(CollectiveKind::AllReduce, b), {p, 4}), *env, true);
      EXPECT_GE(t, prev) << name << "/" << to_string(p) << " at " << b << " B";
      prev = t;
    }
  }
}
