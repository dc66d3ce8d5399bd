// NCCL's step pipeline in trees and chains (issue 19): inside a server, chunk j on an edge follows
// chunk j-1 on that edge but does not pay its own latency (patterns.hpp add_chunk); NCCL has up to
// NCCL_STEPS = 8 steps in flight per connection (src/include/device.h; the senders in
// src/device/prims_*.h post a step once its slot is free), and its tuner charges a tree or chain
// one latency per hop (src/graph/tuning.cc). Across servers every chunk still pays its step (see
// add_chunk for the measured reason). Each number below is derived by hand.
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
// One H100's NVLink: 18 links x 25 GB/s per direction (link_catalog.cpp nvlink4), at NCCL's
// per-link 20.6 of 25 GB/s (model_params.hpp nvlink_efficiency): 370.8 GB/s of Simple payload.
constexpr double kNvlinkBytesPerUs = 18 * 25e9 * (20.6 / 25.0) / 1e6;
// A network step's wire and switch time on the dgx-h100 preset (acc_ring_pipeline_test.cpp and
// analytical_ring_test.cpp derive it): 0.85 us.
constexpr double kPath = 0.85;

}  // namespace

TEST(AccTreePipeline, OnlyTheFirstChunkOnAnEdgeInsideAServerPaysItsLatency) {
  // 2 x 8 ranks, one channel, 4 MiB: two trees of 16 ranks carry a 2 MiB half each in 8 chunks
  // (trees.hpp: at most 8). Per tree, 14 chain edges inside the servers and 1 between them, each
  // used up and down. Inside: the first of 8 chunks pays a step, 7 do not: 2 trees x 2 x 14 = 56
  // pay and 56 x 7 = 392 do not. Between: all 8 pay, 2 x 2 x 8 = 32. So 88 pay, 392 do not.
  auto env = algocheck::setup("dgx-h100", 2, 8);
  const Schedule s = algocheck::algo("tree").build(env->comm, call(CollectiveKind::AllReduce, 4 << 20), {Protocol::Simple, 1});
  ASSERT_EQ(s.size(), 480u);
  int paid = 0, hidden = 0;
  for (const Transfer& t : s.transfers()) {
    if (algocheck::crosses_servers(t, env->comm)) {
      EXPECT_EQ(t.steps, 1);
    }
    (t.steps == 1 ? paid : hidden)++;
  }
  EXPECT_EQ(paid, 88);
  EXPECT_EQ(hidden, 392);
}

TEST(AccTreePipeline, OneServerTreeAllReducePaysTwoLatenciesAndNineChunkTimes) {
  // 1 DGX H100, 2 GPUs, tree all-reduce, LL, one channel, 128 KiB: both trees are the server's
  // chain 1 -> 0 (one server: no tree over servers), each carrying a 64 KiB half in K = 8 chunks of
  // 8 KiB. The two trees' chunk j share each direction, so a pair of them takes
  // p = 2 x 8192 B x 2 (LL) / 370.8 GB/s = 0.0884 us. Per hop L = Tree/LL NVLink step 0.6 us
  // (tuning.cc hwLat; the NVLink path's 0.2 us is below it); base 6.8 us.
  // Climb: chunk 0 ends at L + p, chunk j at L + (j+1) p (no latency of its own). Descent: chunk 0
  // starts when climb 0 arrived and pays L (the descent runs the other direction, 0 -> 1, so it
  // shares nothing with the climb); descent chunk j ends at 2L + (j+2) p. So
  //   t = 6.8 + 2 x 0.6 + 9 x 0.0884 = 8.80 us,
  // where a latency per chunk gave the descent's last chunk 9 (L + p): 6.8 + 9 x 0.688 = 13.0 us.
  auto env = algocheck::setup("dgx-h100", 1, 2);
  const Schedule s = algocheck::algo("tree").build(env->comm, call(CollectiveKind::AllReduce, 128 << 10), {Protocol::LL, 1});
  const double L = 0.6, pair = 2 * 8192.0 * 2 / kNvlinkBytesPerUs;
  const double expected = 6.8 + 2 * L + 9 * pair;
  EXPECT_NEAR(run_us(s, *env, true), expected, 0.02) << "flow";
  EXPECT_NEAR(run_us(s, *env, false), expected, 0.02) << "analytical";
}

TEST(AccTreePipeline, OneServerChainBroadcastIsLatencyPerHopPlusPipelineFill) {
  // Ring broadcast on 3 GPUs of one DGX H100: a chain 0 -> 1 -> 2 (h = 2 NVLink hops on separate
  // GPUs' ports), Simple, one channel, 512 KiB in K = 8 chunks of 64 KiB. Chunk time
  // s = 65536 / 370.8 GB/s = 0.1767 us; per hop L = Ring/Simple NVLink 3.4 us; base 8.4 us.
  // Chunk j reaches hop h's end at h x L + (h + j) x s (induction: it follows chunk j on hop h-1
  // and chunk j-1 on hop h, only chunk 0 paying latency), so the last one lands at
  //   t = 8.4 + 2 x 3.4 + (2 + 8 - 1) x 0.1767 = 16.79 us,
  // where a latency per chunk gave 8.4 + 9 x (3.4 + 0.1767) = 40.59 us.
  auto env = algocheck::setup("dgx-h100", 1, 3);
  const Schedule s = algocheck::algo("ring").build(env->comm, call(CollectiveKind::Broadcast, 512 << 10), {Protocol::Simple, 1});
  const double expected = 8.4 + 2 * 3.4 + 9 * (65536.0 / kNvlinkBytesPerUs);
  EXPECT_NEAR(run_us(s, *env, true), expected, 0.02) << "flow";
  EXPECT_NEAR(run_us(s, *env, false), expected, 0.02) << "analytical";
}

TEST(AccTreePipeline, AChainAcrossServersStillPaysALatencyPerChunk) {
  // The same broadcast on 3 DGX H100 with 1 GPU each: both hops cross servers (separate NICs).
  // s = 65536 / 46 GB/s = 1.4247 us; L = Ring/Simple NET 14.0 us + path 0.85 us. Every chunk
  // pays L on every hop: chunk j of hop h ends at (h + j) (L + s), so the last one at
  //   t = 8.4 + (2 + 8 - 1) x (14.85 + 1.4247) = 154.87 us.
  auto env = algocheck::setup("dgx-h100", 3, 1);
  const Schedule s = algocheck::algo("ring").build(env->comm, call(CollectiveKind::Broadcast, 512 << 10), {Protocol::Simple, 1});
  const double expected = 8.4 + 9 * (14.0 + kPath + 65536.0 / kNicBytesPerUs);
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
