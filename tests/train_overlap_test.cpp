// --overlap tp (Transformer Engine's userbuffers under Megatron's --tp-comm-overlap) and the
// chunked-overlap forms it rests on, derived by hand; then the step: less exposed TP time, never
// less than the pipelined reduce-scatters' last chunks.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "config/presets.hpp"
#include "core/error.hpp"
#include "routing/router.hpp"
#include "topology/cluster_spec.hpp"
#include "training/overlap.hpp"
#include "training/train_step.hpp"

namespace gf {
namespace {

// The chunk schedules run step by step, to check the closed forms in overlap.hpp against them.
// Ring exchange: GEMM chunk k needs data chunk k, which arrives after k exchanges of c each
// (chunk 0 is local); chunks of g each run in order.
double ring_exchange_by_steps(double comm, double gemm, int64_t n) {
  const double c = comm / static_cast<double>(n - 1), g = gemm / static_cast<double>(n);
  double end = 0;
  for (int64_t k = 0; k < n; ++k) end = std::max(end, static_cast<double>(k) * c) + g;
  return end - gemm;
}
// Pipelined reduce-scatter: GEMM chunk k ends at (k + 1) g; its reduce-scatter starts then or
// when the previous one ends.
double pipelined_by_steps(double comm, double gemm, int64_t n) {
  const double c = comm / static_cast<double>(n), g = gemm / static_cast<double>(n);
  double end = 0;
  for (int64_t k = 0; k < n; ++k) end = std::max(end, static_cast<double>(k + 1) * g) + c;
  return end - gemm;
}

TEST(TrainOverlap, ChunkFormsByHand) {
  // Ring exchange, 4 chunks: a 1 s gather beside a 2 s GEMM: each of the 3 exchanges (1/3 s)
  // fits under a 0.5 s GEMM chunk: 0 exposed. A 2 s gather beside a 1 s GEMM: 2 - 3/4 x 1 = 1.25 s.
  EXPECT_DOUBLE_EQ(ring_exchange_exposed(1.0, 2.0, 4), 0.0);
  EXPECT_DOUBLE_EQ(ring_exchange_exposed(2.0, 1.0, 4), 1.25);
  // Pipelined, 4 splits: the last chunk's reduce-scatter always follows the GEMM: a 1 s
  // reduce-scatter beside an 8 s GEMM exposes 1/4 s; beside a 4 s GEMM max(1, 4 - 3) = 1 s.
  EXPECT_DOUBLE_EQ(pipelined_exposed(1.0, 8.0, 4), 0.25);
  EXPECT_DOUBLE_EQ(pipelined_exposed(4.0, 4.0, 4), 1.0);
  // Bulk: side by side.
  EXPECT_DOUBLE_EQ(bulk_exposed(3.0, 2.0), 1.0);
  EXPECT_DOUBLE_EQ(bulk_exposed(1.0, 2.0), 0.0);
}

TEST(TrainOverlap, ClosedFormsMatchTheChunkSchedules) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(0.01, 10.0);
  for (int i = 0; i < 200; ++i) {
    const double c = u(rng), g = u(rng);
    for (int64_t n : {2, 4, 8}) {
      EXPECT_NEAR(ring_exchange_exposed(c, g, n), ring_exchange_by_steps(c, g, n), 1e-12 * (c + g));
      EXPECT_NEAR(pipelined_exposed(c, g, n), pipelined_by_steps(c, g, n), 1e-12 * (c + g));
    }
  }
}

TEST(TrainOverlap, LayerByHand) {
  // TP 8, every gather and reduce-scatter 1 s; QKV and projection GEMMs 1 s, FC1 and FC2 4 s.
  // Forward: gather -> QKV max(0, 1 - 7/8) = 0.125; projection -> RS max(1/4, 1 - 3/4) = 0.25;
  // gather -> FC1 0; FC2 -> RS max(1/4, 1 - 3) = 0.25: 0.625 s of 4 s.
  // Backward: FC2's gradient gather (ring) 0; FC1's bulk gather and reduce-scatter beside 4 s 0;
  // the projection's gradient gather (ring, 1 s GEMM) 0.125; QKV's bulk pair beside 1 s: 0 + 0.
  LayerTimes t;
  t.qkv_s = t.proj_s = 1.0;
  t.fc1_s = t.fc2_s = 4.0;
  const TpExposed e = tp_overlap_exposed(1.0, 1.0, t, 8);
  EXPECT_DOUBLE_EQ(e.forward_s, 0.625);
  EXPECT_DOUBLE_EQ(e.backward_s, 0.125);
}

// f(d) = d / (d + knee): the efficiency table's GEMM shape factor (training/compute.hpp).
double shape_f(double d, double knee) { return d / (d + knee); }

TEST(TrainOverlap, UserbufferChunksAreThinnerGemms) {
  // Llama 3 405B at TP 8, CP 2, 8,192-token sequences (NeMo's H100 layout): 4,096 tokens per rank
  // go through each GEMM. Userbuffers' ring exchange runs TP = 8 GEMMs of 4,096 / 8 = 512 rows
  // (QKV and FC1 forward, the projection's and FC2's data gradients); the pipelined reduce-scatter
  // 4 GEMMs of a quarter of the 16,384 output features (projection and FC2 forward). Same FLOPs,
  // so each chunked GEMM takes f(whole) / f(chunk) of the unsplit one's time in the split dimension:
  // ring: f(4096) / f(512) = (4096 / 4304) / (512 / 720) = 1.3383;
  // pipelined: f(16384) / f(4096) = (16384 / 16592) / (4096 / 4304) = 1.0376 (knee 208).
  const ModelShape m = find_model("llama3-405b");
  const TrainingGpu gpu = *find_training_gpu("H100-SXM5-80GB");
  const Efficiency e = default_efficiency();
  ASSERT_DOUBLE_EQ(e.gemm_knee, 208);
  TrainLayout l;
  l.tp = 8;
  l.cp = 2;
  l.seq = 8192;
  l.sequence_parallel = true;
  l.dtype = "fp8";
  const LayerTimes t = layer_times(m, l, gpu, e, false);
  const TpSplitGemms s = tp_split_gemm_times(m, l, gpu, e, false);
  const double ring = shape_f(4096, 208) / shape_f(512, 208), piped = shape_f(16384, 208) / shape_f(4096, 208);
  EXPECT_NEAR(ring, 1.3383, 1e-4);
  EXPECT_NEAR(piped, 1.0376, 1e-4);
  EXPECT_NEAR(s.qkv_s / t.qkv_s, ring, 1e-9);
  EXPECT_NEAR(s.fc1_s / t.fc1_s, ring, 1e-9);
  EXPECT_NEAR(s.proj_dgrad_s / t.proj_s, ring, 1e-9);
  EXPECT_NEAR(s.fc2_dgrad_s / t.fc2_s, ring, 1e-9);
  EXPECT_NEAR(s.proj_s / t.proj_s, piped, 1e-9);
  EXPECT_NEAR(s.fc2_s / t.fc2_s, piped, 1e-9);
  // Llama 3 70B at TP 4, no CP (NeMo's 70B layout): 8,192 / 4 = 2,048-row chunks, and the
  // 8,192 output features in quarters: both f(8192) / f(2048) = 1.0742, far less than the 405B's.
  TrainLayout l70 = l;
  l70.tp = 4;
  l70.cp = 1;
  const ModelShape m70 = find_model("llama3-70b");
  const LayerTimes t70 = layer_times(m70, l70, gpu, e, false);
  const TpSplitGemms s70 = tp_split_gemm_times(m70, l70, gpu, e, false);
  const double r70 = shape_f(8192, 208) / shape_f(2048, 208);
  EXPECT_NEAR(r70, 1.0742, 1e-4);
  EXPECT_NEAR(s70.qkv_s / t70.qkv_s, r70, 1e-9);
  EXPECT_NEAR(s70.fc2_s / t70.fc2_s, r70, 1e-9);
}

TEST(TrainOverlap, SplitGemmsChargeTheStepsCompute) {
  // One stage (PP 1), llama3-8b at TP 8: with --overlap tp every layer and micro-batch's forward
  // carries the four chunked GEMMs' extra time and its backward the two ring-exchange data
  // gradients' (the bulk and weight-gradient GEMMs stay whole).
  const Cluster cluster = build_cluster(resolve_cluster("dgx-h100", 1));
  const Router router(cluster);
  const ModelShape m = find_model("llama3-8b");
  TrainOptions o;
  o.network_model = "analytical";
  const TrainingGpu gpu = *find_training_gpu("H100-SXM5-80GB");
  TrainLayout l;
  l.tp = 8;
  l.sequence_parallel = true;
  l.global_batch = 4;
  l.seq = 8192;
  const TrainResult plain = run_training(cluster, router, m, l, o, gpu);
  l.overlap_tp = true;
  const TrainResult over = run_training(cluster, router, m, l, o, gpu);
  const LayerTimes t = layer_times(m, l, gpu, o.efficiency, false);
  const TpSplitGemms s = tp_split_gemm_times(m, l, gpu, o.efficiency, false);
  const double f = (s.qkv_s - t.qkv_s) + (s.proj_s - t.proj_s) + (s.fc1_s - t.fc1_s) + (s.fc2_s - t.fc2_s);
  const double b = (s.proj_dgrad_s - t.proj_s) + (s.fc2_dgrad_s - t.fc2_s);
  ASSERT_GT(f, 0);
  ASSERT_GT(b, 0);
  const double per = 32.0 * 4.0;  // layers x micro-batches
  EXPECT_NEAR(over.breakdown.forward_s - plain.breakdown.forward_s, per * f, 1e-9 * over.step_time_s);
  EXPECT_NEAR(over.breakdown.backward_s - plain.breakdown.backward_s, per * b, 1e-9 * over.step_time_s);
}

TEST(TrainOverlap, StepHidesPartOfTp) {
  // llama3-8b (32 layers), TP 8 on one DGX H100, 4 micro-batches, sequence parallel: TP overlap lowers the exposed TP time,
  // never below the two pipelined reduce-scatters' last chunk (1/4 of a call each) per layer per
  // micro-batch forward, and the step still adds up.
  const Cluster cluster = build_cluster(resolve_cluster("dgx-h100", 1));
  const Router router(cluster);
  const ModelShape m = find_model("llama3-8b");
  TrainOptions o;
  o.network_model = "analytical";
  const TrainingGpu gpu = *find_training_gpu("H100-SXM5-80GB");
  TrainLayout l;
  l.tp = 8;
  l.sequence_parallel = true;
  l.global_batch = 4;
  l.seq = 8192;
  const TrainResult plain = run_training(cluster, router, m, l, o, gpu);
  l.overlap_tp = true;
  const TrainResult over = run_training(cluster, router, m, l, o, gpu);
  double rs_call = 0, tp_total = 0;
  for (const CommSummary& c : over.comm)
    if (c.parallelism == "tp") {
      tp_total += c.total_s;
      if (c.collective == "reduce_scatter") rs_call = c.call_s;
    }
  ASSERT_GT(rs_call, 0);
  EXPECT_LT(over.breakdown.tp_exposed_s, plain.breakdown.tp_exposed_s);
  EXPECT_GE(over.breakdown.tp_exposed_s, 2 * rs_call / 4 * 32 * 4 * (1 - 1e-12));
  EXPECT_NEAR(plain.breakdown.tp_exposed_s, tp_total, 1e-12 * tp_total);  // without overlap every call is exposed
  EXPECT_LT(over.step_time_s, plain.step_time_s);
  const TrainBreakdown& b = over.breakdown;
  // The GEMMs beside TE's userbuffer chunks run on the SMs left (sm_contention.hpp): a phase of its own.
  EXPECT_GT(b.sm_contention_s, 0);
  EXPECT_NEAR(b.forward_s + b.backward_s + b.recompute_s + b.tp_exposed_s + b.pp_bubble_s + b.dp_exposed_s +
                  b.sm_contention_s + b.optimizer_s,
              over.step_time_s, 1e-9 * over.step_time_s);
  // Megatron refuses --tp-comm-overlap without sequence parallelism; so do we.
  l.sequence_parallel = false;
  EXPECT_THROW(run_training(cluster, router, m, l, o, gpu), InputError);
}

}  // namespace
}  // namespace gf
