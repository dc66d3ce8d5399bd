// Held-out accuracy of `train` against published measurements, and against the peer that reports
// its own error on the same rows (Calculon, Isaev et al., SC'23). Measured figures and Calculon's
// are data with their sources below; nothing here is the program's own output.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "config/presets.hpp"
#include "routing/router.hpp"
#include "topology/cluster_spec.hpp"
#include "training/train_step.hpp"

namespace gf {
namespace {

double run_step(const std::string& model, int64_t nodes, const TrainLayout& l) {
  const Cluster cluster = build_cluster(resolve_cluster("dgx-a100", nodes));
  const Router router(cluster);
  TrainOptions o;
  o.network_model = "analytical";
  return run_training(cluster, router, find_model(model), l, o, *find_training_gpu("A100-SXM4-80GB")).step_time_s;
}

TEST(TrainCalculon, SeleneHeldOutRowsBeatCalculonsMeanAndMax) {
  // Measured: Korthikanti et al. 2022 Table 5 (../shared/validation/training/selene-iteration-times.md).
  // Calculon's error on each row: its own validation, `PYTHONPATH=. ./bin/calculon llm-validation`
  // at calculon-ai/calculon caa4b11 (2024-02-22), table "End-to-end", column Delta = 1 - calc /
  // measured. Its predictions (s): 175B 18.03 / 13.64, 530B 49.89 / 34.47, 1T 90.08 / 66.04 (full /
  // seqsel). The 22B rows are left out: our efficiency table is fitted to them.
  struct Row {
    const char* model;
    int64_t pp, vpp, gb;
    bool full;
    double measured, calculon_error_pct;
  };
  const Row rows[] = {{"gpt3-175b", 8, 3, 64, true, 18.13, 0.56},     {"gpt3-175b", 8, 3, 64, false, 13.75, 0.81},
                      {"megatron-530b", 35, 3, 280, true, 49.05, 1.72}, {"megatron-530b", 35, 3, 280, false, 37.83, 8.87},
                      {"megatron-1t", 64, 1, 512, true, 94.42, 4.60},   {"megatron-1t", 64, 1, 512, false, 71.49, 7.62}};
  double ours_sum = 0, ours_max = 0, calc_sum = 0, calc_max = 0;
  for (const Row& r : rows) {
    TrainLayout l;
    l.tp = 8;
    l.pp = r.pp;
    l.vpp = r.vpp;
    l.global_batch = r.gb;
    l.micro_batch = 1;
    l.seq = 2048;
    l.attention = Attention::Unfused;
    l.sequence_parallel = !r.full;
    l.recompute = r.full ? Recompute::Full : Recompute::Selective;
    const double err = 100 * std::fabs(run_step(r.model, r.pp, l) / r.measured - 1);
    EXPECT_LT(err, 10.0) << r.model << (r.full ? " full" : " seqsel");  // issue 20's target
    ours_sum += err;
    ours_max = std::max(ours_max, err);
    calc_sum += r.calculon_error_pct;
    calc_max = std::max(calc_max, r.calculon_error_pct);
  }
  const double n = sizeof(rows) / sizeof(rows[0]);
  // Calculon on these six: mean 4.03 %, worst 8.87 % (530B seqsel).
  EXPECT_LT(ours_sum / n, calc_sum / n);
  EXPECT_LT(ours_max, calc_max);
}

TEST(TrainMegaScale, MegatronLmRowsAtDpFourAndSixteenWithinTenPercent) {
  // Measured: Megatron-LM, MegaScale's baseline (Jiang et al., NSDI'24, arXiv 2402.15627, Table 2):
  // 175B, TP 8, PP 8, 6 chunks per stage, batch 768, 40.0 s on 256 GPUs and 11.9 s on 1,024.
  // Settings as validation/training/megascale.md (no overlap: Table 3 adds DP, PP and TP overlap to
  // this baseline). Held out: nothing is fitted to these rows.
  const std::string model = std::string(GPUFABRIC_SOURCE_DIR) + "/validation/training/megascale-175b.yaml";
  struct Row {
    int64_t gpus;
    double measured;
  };
  for (const Row r : {Row{256, 40.0}, Row{1024, 11.9}}) {
    TrainLayout l;
    l.tp = 8;
    l.pp = 8;
    l.vpp = 6;
    l.dp = r.gpus / 64;
    l.global_batch = 768;
    l.micro_batch = 1;
    l.seq = 2048;
    l.sequence_parallel = true;
    l.recompute = Recompute::Selective;
    l.zero = 1;
    l.overlap_dp = false;
    l.overlap_pp = false;
    EXPECT_NEAR(run_step(model, r.gpus / 8, l) / r.measured, 1.0, 0.10) << r.gpus << " GPUs";
  }
}

}  // namespace
}  // namespace gf
