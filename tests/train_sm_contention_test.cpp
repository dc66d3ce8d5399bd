// SM contention: a DP reduction hidden behind the backward holds one SM per NCCL channel, and the
// compute beside it loses that share of the GPU for as long as it runs (training/sm_contention.hpp).
#include <gtest/gtest.h>

#include "config/presets.hpp"
#include "routing/router.hpp"
#include "topology/cluster_spec.hpp"
#include "training/sm_contention.hpp"
#include "training/train_step.hpp"

namespace gf {
namespace {

TEST(TrainSmContention, ChannelsOverSmsOfTheHiddenTime) {
  // 16 channels of 132 SMs for 1 s hidden: 16/132 s of compute left over.
  EXPECT_DOUBLE_EQ(sm_contention_s(1.0, 16, 132), 16.0 / 132.0);
  EXPECT_DOUBLE_EQ(sm_contention_s(0.5, 32, 108), 0.5 * 32.0 / 108.0);
  EXPECT_EQ(sm_contention_s(1.0, 16, 0), 0.0);  // SMs unknown: nothing charged
  EXPECT_EQ(sm_contention_s(0.0, 16, 132), 0.0);
  // White-paper SM counts: A100 108, H100 SXM5 132; a GPU not in the table 0.
  EXPECT_EQ(streaming_multiprocessors("A100-SXM4-80GB"), 108);
  EXPECT_EQ(streaming_multiprocessors("H100-SXM5-80GB"), 132);
  EXPECT_EQ(streaming_multiprocessors("MI300X-192GB"), 0);
}

TEST(TrainSmContention, HiddenDpReductionSlowsTheStepByItsShareOfSms) {
  // Llama 3 8B on two DGX A100, TP 8, DP 2, ZeRO 0: one DP all-reduce per step, here timed as
  // T = 0.2 s on 24 channels (a stand-in timer; every other collective free). The part of it
  // hidden behind the last backwards, T - exposed, leaves (T - exposed) x 24 / 108 of compute.
  const Cluster cluster = build_cluster(resolve_cluster("dgx-a100", 2));
  const Router router(cluster);
  const ModelShape m = find_model("llama3-8b");
  TrainLayout l;
  l.tp = 8;
  l.dp = 2;
  l.sequence_parallel = true;
  l.global_batch = 16;
  l.seq = 2048;
  const double T = 0.2;
  TrainOptions o;
  o.timer = [&](const std::vector<std::vector<int64_t>>& groups, CollectiveKind kind, Bytes, const std::string& flag) {
    GroupTiming t;
    t.groups = t.of_groups = static_cast<int64_t>(groups.size());
    t.algorithm = "ring/simple";
    if (flag == "--dp" && kind == CollectiveKind::AllReduce) {
      t.seconds = T;
      t.channels = 24;
    }
    return t;
  };
  const TrainingGpu gpu = *find_training_gpu("A100-SXM4-80GB");
  const TrainResult r = run_training(cluster, router, m, l, o, gpu);
  const TrainBreakdown& b = r.breakdown;
  ASSERT_LT(b.dp_exposed_s, T);  // some of it is hidden
  EXPECT_NEAR(b.sm_contention_s, (T - b.dp_exposed_s) * 24.0 / 108.0, 1e-12);
  // The parts still add up to the step.
  EXPECT_NEAR(b.forward_s + b.backward_s + b.recompute_s + b.tp_exposed_s + b.pp_bubble_s + b.dp_exposed_s +
                  b.sm_contention_s + b.optimizer_s,
              r.step_time_s, 1e-9 * r.step_time_s);
  // Without DP overlap nothing hides, and nothing is charged.
  l.overlap_dp = false;
  const TrainResult n = run_training(cluster, router, m, l, o, gpu);
  EXPECT_EQ(n.breakdown.sm_contention_s, 0.0);
  EXPECT_NEAR(n.breakdown.dp_exposed_s, T, 1e-12);
}

}  // namespace
}  // namespace gf
