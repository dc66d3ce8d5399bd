// ZeRO 3 / FSDP in a training step: per-layer weight gathers in every pass and per-layer gradient
// reduce-scatters in the backward, against their closed-form counts and sizes, and what prefetch
// hides.
#include <gtest/gtest.h>

#include "config/presets.hpp"
#include "routing/router.hpp"
#include "topology/cluster_spec.hpp"
#include "training/train_step.hpp"

namespace gf {
namespace {

struct TwoDgx {
  Cluster cluster;
  Router router;
  TwoDgx() : cluster(build_cluster(resolve_cluster("dgx-a100", 2))), router(cluster) {}
};

TrainLayout llama8b_zero3() {
  TrainLayout l;
  l.tp = 8;
  l.dp = 2;
  l.zero = 3;
  l.sequence_parallel = true;
  l.global_batch = 8;
  l.seq = 2048;
  return l;
}

TEST(TrainZero3, GathersAndReduceScattersPerLayerFollowTheClosedForm) {
  // Llama 3 8B, TP 8, DP 2, m = 8 / 2 = 4 micro-batches, 32 layers on the one stage: per micro-batch
  // and layer one gather forward and one backward (2 x 32 x 4 = 256) of the layer's 16-bit weights on
  // this GPU, 2 x P / 8 bytes, and one reduce-scatter of its fp32 gradients (4 x P / 8 bytes, 128
  // calls), P being the layer's parameters (model_shape's count, checked against the published
  // sizes in train_model_test); no DP reduction at the end of the step.
  TwoDgx s;
  const ModelShape m = find_model("llama3-8b");
  const double p = m.layer_parameters(false) / 8;
  TrainOptions o;
  o.network_model = "analytical";
  TrainLayout l = llama8b_zero3();
  l.overlap_dp = false;
  const TrainResult r = run_training(s.cluster, s.router, m, l, o, *find_training_gpu("A100-SXM4-80GB"));
  std::vector<const CommSummary*> dp;
  for (const CommSummary& c : r.comm)
    if (c.parallelism == "dp") dp.push_back(&c);
  ASSERT_EQ(dp.size(), 2u);
  EXPECT_DOUBLE_EQ(dp[0]->bytes, 2 * p);
  EXPECT_DOUBLE_EQ(dp[0]->calls, 2.0 * 32 * 4);
  EXPECT_DOUBLE_EQ(dp[1]->bytes, 4 * p);
  EXPECT_DOUBLE_EQ(dp[1]->calls, 32.0 * 4);
  // Without overlap every one of them is exposed, and nothing else is on DP.
  const double all = dp[0]->total_s + dp[1]->total_s;
  EXPECT_NEAR(r.breakdown.dp_exposed_s, all, 1e-9 * all);
  const TrainBreakdown& b = r.breakdown;
  EXPECT_NEAR(b.forward_s + b.backward_s + b.recompute_s + b.tp_exposed_s + b.ep_exposed_s + b.pp_bubble_s +
                  b.dp_exposed_s + b.sm_contention_s + b.optimizer_s,
              r.step_time_s, 1e-9 * r.step_time_s);

  // Prefetched: at least each pass's first gather and the backward's last reduce-scatter stay
  // exposed (4 micro-batches x (2 gathers + 1 reduce-scatter)), at most all of them.
  l.overlap_dp = true;
  const TrainResult q = run_training(s.cluster, s.router, m, l, o, *find_training_gpu("A100-SXM4-80GB"));
  EXPECT_GE(q.breakdown.dp_exposed_s, 4 * (2 * dp[0]->call_s + dp[1]->call_s) * (1 - 1e-9));
  EXPECT_LT(q.breakdown.dp_exposed_s, r.breakdown.dp_exposed_s);
  EXPECT_LT(q.step_time_s, r.step_time_s);
}

}  // namespace
}  // namespace gf
