// Uneven pipeline stages (Megatron's --decoder-first/last-pipeline-num-layers; the Llama 3 paper's
// one layer fewer on the first and last stage, section 3.3.2): the split, the memory of each stage,
// and the slowest stage setting the pace of the step.
#include <gtest/gtest.h>

#include <numeric>

#include "config/presets.hpp"
#include "core/error.hpp"
#include "routing/router.hpp"
#include "topology/cluster_spec.hpp"
#include "training/compute.hpp"
#include "training/memory.hpp"
#include "training/pipeline.hpp"
#include "training/train_step.hpp"

namespace gf {
namespace {

TEST(TrainUneven, Llama3EmbeddingAloneOnTheFirstChunk) {
  // Llama 3 paper, section 3.3.2: one layer fewer on the first and last stage, so that "the first
  // model chunk on the first stage has only the embedding, and the last model chunk on the last
  // stage has only output projection and loss". With 126 layers on PP 16 that leaves 126 + 2 chunk
  // slots = 128 = 16 x 8: eight chunks of one layer per stage, the two end chunks empty.
  const ModelShape m = find_model("llama3-405b");
  TrainLayout l;
  l.tp = 8;
  l.pp = 16;
  l.vpp = 8;
  l.global_batch = 16;  // interleaving takes micro-batches in groups of PP
  l.first_stage_layers = l.last_stage_layers = 0;
  check_layout(l, m, 1 << 20);
  const std::vector<int64_t> n = stage_layer_counts(m, l);
  ASSERT_EQ(n.size(), 128u);
  EXPECT_EQ(n.front(), 0);
  EXPECT_EQ(n.back(), 0);
  for (size_t v = 1; v + 1 < n.size(); ++v) EXPECT_EQ(n[v], 1);
  // Stage 0 holds chunks 0, 16, ..., 112: 7 layers and the embedding; stage 15 holds 7 layers and
  // the output layer; the others 8 layers: the 7 / 8 x 14 / 7 of the paper.
  const double emb = static_cast<double>(m.vocab) * static_cast<double>(m.hidden);
  EXPECT_DOUBLE_EQ(stage_parameters(m, l, 0), (7 * m.layer_parameters(false) + emb) / 8);
  EXPECT_DOUBLE_EQ(stage_parameters(m, l, 1), 8 * m.layer_parameters(false) / 8);
  EXPECT_DOUBLE_EQ(stage_parameters(m, l, 15), (7 * m.layer_parameters(false) + emb) / 8);
  // Below 0 is refused with the flag named.
  l.first_stage_layers = -2;
  EXPECT_THROW(check_layout(l, m, 1 << 20), InputError);
}

TEST(TrainUneven, Llama3SplitOf126LayersOn16Stages) {
  // 126 = 7 + 14 x 8 + 7: the first and last stage hold one layer fewer than the 8 of the others.
  const ModelShape m = find_model("llama3-405b");
  TrainLayout l;
  l.tp = 8;
  l.pp = 16;
  l.first_stage_layers = 7;
  l.last_stage_layers = 7;
  const std::vector<int64_t> n = stage_layer_counts(m, l);
  ASSERT_EQ(n.size(), 16u);
  EXPECT_EQ(n.front(), 7);
  EXPECT_EQ(n.back(), 7);
  for (size_t s = 1; s + 1 < n.size(); ++s) EXPECT_EQ(n[s], 8);
  EXPECT_EQ(std::accumulate(n.begin(), n.end(), int64_t{0}), 126);
  // Parameters: stage 0 holds 7 layers and the embedding (V h), stage 1 holds 8 layers, split
  // over TP 8.
  const double emb = static_cast<double>(m.vocab) * static_cast<double>(m.hidden);
  EXPECT_DOUBLE_EQ(stage_parameters(m, l, 0), (7 * m.layer_parameters(false) + emb) / 8);
  EXPECT_DOUBLE_EQ(stage_parameters(m, l, 1), 8 * m.layer_parameters(false) / 8);
  // Without the end-stage flags PP 16 does not divide 126, and the hint offers the Llama 3 split.
  l.first_stage_layers = l.last_stage_layers = -1;
  try {
    check_layout(l, m, 1 << 20);
    FAIL() << "PP 16 accepted for 126 layers";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--pp-first-layers 7 --pp-last-layers 7"), std::string::npos) << e.what();
  }
  // Interleaved (VPP 2): the flags set the first and last virtual stage; 126 = 3 + 30 x 4 + 3.
  // Stage 0 holds chunk 0 (3 layers) and chunk 1 (virtual stage 16, 4 layers).
  l.vpp = 2;
  l.first_stage_layers = l.last_stage_layers = 3;
  const std::vector<int64_t> v = stage_layer_counts(m, l);
  ASSERT_EQ(v.size(), 32u);
  EXPECT_EQ(v.front(), 3);
  EXPECT_EQ(v.back(), 3);
  EXPECT_EQ(std::accumulate(v.begin(), v.end(), int64_t{0}), 126);
  EXPECT_DOUBLE_EQ(stage_parameters(m, l, 0), (7 * m.layer_parameters(false) + emb) / 8);
  l.vpp = 1;
  // A split that leaves the middle uneven is refused.
  l.first_stage_layers = 6;
  l.last_stage_layers = 7;
  EXPECT_THROW(check_layout(l, m, 1 << 20), InputError);
}

TEST(TrainUneven, SlowStageSetsThePaceOfTwoStages) {
  // Two stages, free network, stage 1 slower (F1 + B1 = 5 > F0 + B0 = 3): stage 1 never waits
  // after its first input, so stage 0 ends at F0 + m (F1 + B1) + B0 = 1 + 8 x 5 + 2 = 43.
  PipelineInput in;
  in.stages = 2;
  in.microbatches = 8;
  in.forward_s = {1.0, 2.0};
  in.backward_s = {2.0, 3.0};
  const PipelineRun r = run_pipeline(in);
  EXPECT_DOUBLE_EQ(r.stages[0].end_s, 43.0);
  EXPECT_DOUBLE_EQ(r.stages[1].end_s, 1.0 + 8 * 5.0);
}

TEST(TrainUneven, StepIsPacedByTheLargestStage) {
  // llama3-8b (32 layers), PP 4 on 4 H100s, 32 micro-batches, full recompute. Even: 8 layers a
  // stage, the last one also running the logits (2 b s h V = 2.2 TFLOP per micro-batch, about 2.4
  // layers' worth of 2 b s x 218M parameters), so the last stage sets the pace. Moving two layers
  // off it (8 / 9 / 9 / 6, Llama 3's reason for a lighter last stage) makes the step faster, and
  // the 9-layer stages now bound it: at least 32 x 9 passes of one layer's forward, recompute and
  // backward.
  const Cluster cluster = build_cluster(resolve_cluster("dgx-h100", 1));
  const Router router(cluster);
  const ModelShape m = find_model("llama3-8b");
  TrainOptions o;
  o.network_model = "analytical";
  const TrainingGpu gpu = *find_training_gpu("H100-SXM5-80GB");
  TrainLayout l;
  l.pp = 4;
  l.global_batch = 32;
  l.seq = 2048;
  l.recompute = Recompute::Full;
  const TrainResult even = run_training(cluster, router, m, l, o, gpu);
  const LayerTimes t = layer_times(m, l, gpu, o.efficiency, false);
  const double pass = t.forward_s + t.recompute_s + t.backward_s;
  l.first_stage_layers = 8;
  l.last_stage_layers = 6;
  ASSERT_EQ(stage_layer_counts(m, l), (std::vector<int64_t>{8, 9, 9, 6}));
  const TrainResult uneven = run_training(cluster, router, m, l, o, gpu);
  EXPECT_LT(uneven.step_time_s, even.step_time_s);
  EXPECT_GE(uneven.step_time_s, 32 * 9 * pass);
  // A heavier last stage (5 / 9 / 9 / 9) is slower than the even split.
  l.first_stage_layers = 5;
  l.last_stage_layers = -1;
  const TrainResult heavy = run_training(cluster, router, m, l, o, gpu);
  EXPECT_GT(heavy.step_time_s, even.step_time_s);
}

}  // namespace
}  // namespace gf
