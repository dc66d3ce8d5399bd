// A slow GPU in a training step (`train --straggler server0/gpu3=0.8`, training/straggler.hpp):
// every compute phase of its pipeline stage takes 1/fraction as long, collectives keep their time.
#include <gtest/gtest.h>

#include "config/presets.hpp"
#include "core/error.hpp"
#include "routing/router.hpp"
#include "topology/cluster_spec.hpp"
#include "training/train_step.hpp"

using namespace gf;

namespace {

struct Dgx {
  Cluster cluster;
  Router router;
  explicit Dgx(int64_t nodes) : cluster(build_cluster(resolve_cluster("dgx-a100", nodes))), router(cluster) {}
};

TrainLayout layout(int64_t tp, int64_t pp, int64_t dp) {
  TrainLayout l;
  l.tp = tp;
  l.pp = pp;
  l.dp = dp;
  l.global_batch = 4 * dp;
  l.seq = 4096;
  return l;
}

}  // namespace

TEST(TrainStraggler, OneStageStepGrowsByItsComputeOverTheFraction) {
  // TP 8 on one server, one stage, no DP: the step is the micro-batches' forward, backward and
  // recompute, the exposed TP collectives and the optimizer, one after another. GPU 3 at 0.8 of
  // its speed holds its TP group at every layer, so each compute part takes 1/0.8 as long and the
  // collectives do not change: the step grows by (compute + optimizer) x (1/0.8 - 1).
  Dgx s(1);
  const ModelShape m = find_model("llama3-8b");
  const TrainingGpu g = *find_training_gpu("A100-SXM4-80GB");
  TrainOptions o;
  o.network_model = "analytical";
  const TrainResult clean = run_training(s.cluster, s.router, m, layout(8, 1, 1), o, g);
  o.slow_gpus.push_back(parse_gpu_slowdown(s.cluster, "--straggler", "server0/gpu3=0.8"));
  EXPECT_EQ(o.slow_gpus[0].gpu, 3);
  const TrainResult slow = run_training(s.cluster, s.router, m, layout(8, 1, 1), o, g);
  const TrainBreakdown& b = clean.breakdown;
  const double compute = b.forward_s + b.backward_s + b.recompute_s + b.optimizer_s;
  EXPECT_NEAR(slow.step_time_s - clean.step_time_s, compute * (1 / 0.8 - 1), 1e-9 * clean.step_time_s);
  EXPECT_NEAR(slow.breakdown.tp_exposed_s, b.tp_exposed_s, 1e-12);
}

TEST(TrainStraggler, TheSlowestGpuOfAStageSetsItsPace) {
  // Two stragglers in one stage: the slower one counts (the stage waits for both); a GPU at 1.0
  // changes nothing.
  Dgx s(1);
  const ModelShape m = find_model("llama3-8b");
  const TrainingGpu g = *find_training_gpu("A100-SXM4-80GB");
  TrainOptions o;
  o.network_model = "analytical";
  o.slow_gpus = {parse_gpu_slowdown(s.cluster, "--straggler", "server0/gpu1=0.8")};
  const double one = run_training(s.cluster, s.router, m, layout(8, 1, 1), o, g).step_time_s;
  o.slow_gpus.push_back(parse_gpu_slowdown(s.cluster, "--straggler", "server0/gpu5=0.9"));
  EXPECT_EQ(run_training(s.cluster, s.router, m, layout(8, 1, 1), o, g).step_time_s, one);
  o.slow_gpus = {parse_gpu_slowdown(s.cluster, "--straggler", "server0/gpu5=1")};
  TrainOptions healthy;
  healthy.network_model = "analytical";
  EXPECT_EQ(run_training(s.cluster, s.router, m, layout(8, 1, 1), o, g).step_time_s,
            run_training(s.cluster, s.router, m, layout(8, 1, 1), healthy, g).step_time_s);
}

TEST(TrainStraggler, ASlowFirstStageComputesTwiceAsLongAtHalfSpeed) {
  // PP 2 (server 0 stage 0, server 1 stage 1). In 1F1B the first stage runs the step's last
  // backward pass, so it ends last and is the critical one. A GPU of stage 0 at half speed
  // doubles that stage's forward,
  // backward and recompute totals, leaves its TP time alone, and the step, which holds all of
  // that stage's passes one after another, is at least their sum.
  Dgx s(2);
  const ModelShape m = find_model("llama3-8b");
  const TrainingGpu g = *find_training_gpu("A100-SXM4-80GB");
  TrainOptions o;
  o.network_model = "analytical";
  const TrainResult clean = run_training(s.cluster, s.router, m, layout(8, 2, 1), o, g);
  ASSERT_EQ(clean.critical_stage, 0);
  o.slow_gpus = {parse_gpu_slowdown(s.cluster, "--straggler", "server0/gpu2=0.5")};
  const TrainResult slow = run_training(s.cluster, s.router, m, layout(8, 2, 1), o, g);
  EXPECT_EQ(slow.critical_stage, 0);
  const TrainBreakdown &c = clean.breakdown, &b = slow.breakdown;
  EXPECT_NEAR(b.forward_s, 2 * c.forward_s, 1e-12);
  EXPECT_NEAR(b.backward_s, 2 * c.backward_s, 1e-12);
  EXPECT_NEAR(b.optimizer_s, 2 * c.optimizer_s, 1e-12);
  EXPECT_NEAR(b.tp_exposed_s, c.tp_exposed_s, 1e-12);
  EXPECT_GE(slow.step_time_s, b.forward_s + b.backward_s + b.recompute_s + b.tp_exposed_s + b.optimizer_s);
  EXPECT_GT(slow.step_time_s, clean.step_time_s);
}

TEST(TrainStraggler, BadNamesAndFractionsNameTheFlag) {
  Dgx s(1);
  auto error = [&](const std::string& text) -> InputError {
    try {
      parse_gpu_slowdown(s.cluster, "--straggler", text);
    } catch (const InputError& e) {
      return e;
    }
    ADD_FAILURE() << text;
    return InputError({}, "", "", "");
  };
  const InputError no_gpu = error("server0/gpu9=0.8");  // a DGX A100 has gpu0-gpu7
  EXPECT_EQ(no_gpu.key(), "--straggler");
  EXPECT_NE(no_gpu.hint().find("did you mean 'server0/gpu"), std::string::npos) << no_gpu.hint();
  EXPECT_NE(error("server0/nic0=0.8").message().find("no GPU named"), std::string::npos);
  EXPECT_NE(error("server0/gpu3=1.5").message().find("at most 1"), std::string::npos);
  EXPECT_NE(error("server0/gpu3=0").message().find("above 0"), std::string::npos);
  EXPECT_NE(error("server0/gpu3").message().find("=FRACTION"), std::string::npos);
  // A GPU of the cluster outside the job's TP x PP x DP.
  Dgx two(2);
  TrainOptions o;
  o.network_model = "analytical";
  o.slow_gpus = {parse_gpu_slowdown(two.cluster, "--straggler", "server1/gpu0=0.8")};
  try {
    run_training(two.cluster, two.router, find_model("llama3-8b"), layout(8, 1, 1), o,
                 *find_training_gpu("A100-SXM4-80GB"));
    ADD_FAILURE() << "GPU 8 is outside an 8-GPU job";
  } catch (const InputError& e) {
    EXPECT_EQ(e.key(), "--straggler");
  }
}
