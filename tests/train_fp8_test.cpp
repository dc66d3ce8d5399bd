// FP8's own work (training/fp8_cost.hpp): the quantization bytes of a layer derived by hand, the
// step's FP8 amax all-reduces and quantized gathers over TP, and BF16 left as it was.
#include <gtest/gtest.h>

#include "config/presets.hpp"
#include "routing/router.hpp"
#include "topology/cluster_spec.hpp"
#include "training/compute.hpp"
#include "training/fp8_cost.hpp"
#include "training/train_step.hpp"

namespace gf {
namespace {

TrainLayout llama70_tp4(const std::string& dtype) {
  TrainLayout l;
  l.tp = 4;
  l.sequence_parallel = true;
  l.micro_batch = 1;
  l.seq = 8192;
  l.global_batch = 4;
  l.dtype = dtype;
  return l;
}

TEST(TrainFp8, LayerCastBytesByHand) {
  // Llama 3 70B (h 8192, 64 heads and 8 KV heads of 128, SwiGLU ffn 28,672), TP 4 with sequence
  // parallelism, one 8,192-token sequence: s/TP = 2,048 tokens for hidden-wide tensors.
  // Forward: QKV's and FC1's inputs (norm outputs, 4 B each) 2 x 4 x 2,048 x 8,192 = 134,217,728;
  // projection input 6 x 8,192 x 8,192/4 = 100,663,296; FC2 input 6 x 8,192 x 28,672/4 =
  // 352,321,536: 587,202,560 B.
  // Backward, 6 B each: QKV output 8,192 x (8,192 + 2 x 1,024)/4 = 20,971,520; projection output
  // 2,048 x 8,192 = 16,777,216; FC1 output 8,192 x 2 x 28,672/4 = 117,440,512; FC2 output
  // 16,777,216: 6 x 171,966,464 = 1,031,798,784 B.
  // At 1,000 GB/s and memory efficiency 1: bytes / 1e12 s.
  const ModelShape m = find_model("llama3-70b");
  TrainingGpu gpu;
  gpu.model = "test";
  gpu.bf16_tflops = gpu.fp8_tflops = 1000;  // one peak, so FP8 differs from BF16 by its casts only
  gpu.memory_gBps = 1000;
  Efficiency e = default_efficiency();
  e.memory = 1.0;
  const Fp8LayerCast c = fp8_layer_cast(m, llama70_tp4("fp8"), gpu, e, false);
  EXPECT_DOUBLE_EQ(c.forward_s, 587202560.0 / 1e12);
  EXPECT_DOUBLE_EQ(c.backward_s, 1031798784.0 / 1e12);
  // The layer's times: BF16 plus the casts, the recompute (full) repeating the forward's.
  TrainLayout bf = llama70_tp4("bf16"), f8 = llama70_tp4("fp8");
  bf.recompute = f8.recompute = Recompute::Full;
  const LayerTimes tb = training_layer_times(m, bf, gpu, e, false), tf = training_layer_times(m, f8, gpu, e, false);
  EXPECT_NEAR(tf.forward_s - tb.forward_s, c.forward_s, 1e-15);
  EXPECT_NEAR(tf.backward_s - tb.backward_s, c.backward_s, 1e-15);
  EXPECT_NEAR(tf.recompute_s - tb.recompute_s, c.forward_s, 1e-15);
  // layer_times itself (serving's prefill) carries no training casts.
  EXPECT_EQ(layer_times(m, f8, gpu, e, false).forward_s, layer_times(m, bf, gpu, e, false).forward_s);
  EXPECT_EQ(training_layer_times(m, bf, gpu, e, false).forward_s, layer_times(m, bf, gpu, e, false).forward_s);
  EXPECT_EQ(fp8_layer_cast(m, bf, gpu, e, false).forward_s, 0.0);
  // Weights: 6 B per parameter, once per step.
  EXPECT_DOUBLE_EQ(fp8_weight_cast_s(1e9, f8, gpu, e), 6e9 / 1e12);
  EXPECT_EQ(fp8_weight_cast_s(1e9, bf, gpu, e), 0.0);
}

TEST(TrainFp8, GemmWeightsReadAsOneBytePerParameter) {
  // Llama 3 70B at TP 4. The GEMM weights on one GPU, by hand: QKV 8,192 x (8,192 + 2 x 1,024)/4 =
  // 20,971,520; projection 8,192/4 x 8,192 = 16,777,216; FC1 (SwiGLU's gate and up) 8,192 x 2 x
  // 28,672/4 = 117,440,512; FC2 28,672/4 x 8,192 = 58,720,256: 213,909,504. The two RMSNorm gains,
  // 2 x 8,192 / 4 = 4,096 (the TP split the memory count also applies), stay 16-bit.
  // BF16: 2 x (213,909,504 + 4,096) = 427,827,200 B; FP8 (TE's cached FP8 weights): 213,909,504 +
  // 2 x 4,096 = 213,917,696 B.
  const ModelShape m = find_model("llama3-70b");
  TrainLayout bf = llama70_tp4("bf16"), f8 = llama70_tp4("fp8");
  EXPECT_DOUBLE_EQ(layer_weight_bytes(m, bf, false), 427827200.0);
  EXPECT_DOUBLE_EQ(layer_weight_bytes(m, f8, false), 213917696.0);
  // A 16-token micro-batch on a 1,000 TFLOP/s (both types), 1,000 GB/s GPU with no efficiency
  // loss: the GEMMs' 2 x 16 x 213,909,504 FLOPs take 6.8 us, the weights 214-428 us, so both
  // layers sit on the weight read and differ by exactly the 213,909,504 bytes saved, at 1e12 B/s
  // (attention and element-wise work are the same in both).
  bf.seq = f8.seq = 16;
  TrainingGpu gpu;
  gpu.model = "test";
  gpu.bf16_tflops = gpu.fp8_tflops = 1000;
  gpu.memory_gBps = 1000;
  Efficiency e = default_efficiency();
  e.memory = e.matmul = e.attention = 1.0;
  e.gemm_knee = 0;
  const double diff = layer_times(m, bf, gpu, e, false).forward_s - layer_times(m, f8, gpu, e, false).forward_s;
  EXPECT_NEAR(diff, 213909504.0 / 1e12, 1e-15);
}

TEST(TrainFp8, StepGathersFp8AndReducesAmaxOverTp) {
  // llama3-8b (32 layers) at TP 8 on one DGX H100, sequence parallel, 4 micro-batches: the
  // all-gathers carry 1-byte elements (half the reduce-scatters' 16-bit bytes), and 2 amax
  // all-reduces per layer and pass are charged: 2 x (forward + backward) x 32 layers x 4 = 512.
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
  const TrainResult bf = run_training(cluster, router, m, l, o, gpu);
  l.dtype = "fp8";
  const TrainResult f8 = run_training(cluster, router, m, l, o, gpu);
  double ag = 0, rs = 0, amax_calls = 0, amax_call = 0;
  for (const CommSummary& c : f8.comm) {
    if (c.collective == "all_gather") ag = c.bytes;
    if (c.collective == "reduce_scatter") rs = c.bytes;
    if (c.collective == "all_reduce (FP8 amax)") {
      amax_calls = c.calls;
      amax_call = c.call_s;
      EXPECT_EQ(c.bytes, 4.0);
    }
  }
  EXPECT_EQ(ag, rs / 2);
  EXPECT_EQ(amax_calls, 512.0);
  EXPECT_GT(amax_call, 0.0);
  for (const CommSummary& c : bf.comm) EXPECT_NE(c.collective, "all_reduce (FP8 amax)");
  // The step still adds up, with the weights' casts inside the forward.
  const TrainBreakdown& b = f8.breakdown;
  EXPECT_NEAR(b.forward_s + b.backward_s + b.recompute_s + b.tp_exposed_s + b.pp_bubble_s + b.dp_exposed_s +
                  b.optimizer_s + b.sm_contention_s,
              f8.step_time_s, 1e-9 * f8.step_time_s);
}

}  // namespace
}  // namespace gf
