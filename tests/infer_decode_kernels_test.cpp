// Decode's costs beyond the roofline (inference/decode_kernels.hpp) against hand arithmetic from
// the published figures they come from.
#include <gtest/gtest.h>

#include "config/presets.hpp"
#include "core/error.hpp"
#include "inference/decode_kernels.hpp"
#include "inference/infer_step.hpp"
#include "inference/phase_compute.hpp"
#include "routing/router.hpp"

namespace gf {
namespace {

TEST(InferDecodeKernels, ConstantsComeFromGptFastsReadme) {
  // gpt-fast README: "peak bandwidth is about 1700 GB/s" on its A100 (datasheet 2,039 GB/s).
  const DecodeCosts c = default_decode_costs();
  EXPECT_NEAR(c.hbm_share, 0.8337, 0.0001);
  // Llama-2-7B, one GPU: 104.9 tok/s at 1397.31 GB/s -> 9.5329 ms per token for 13.3204 GB;
  // 13.3204 GB / 1700 GB/s = 7.8355 ms; the 1.6974 ms left over 32 layers = 53.04 us.
  EXPECT_NEAR(c.layer_fixed_s, 53.04e-6, 0.01e-6);
}

TEST(InferDecodeKernels, EveryLayerAddsItsFixedTime) {
  // Llama 3 8B has 32 layers: 32 x 53.04 us = 1.697 ms in the step, whatever the batch.
  const ModelShape m = find_model("llama3-8b");
  const TrainingGpu g = *find_training_gpu("H100-SXM5-80GB");
  InferLayout l;
  for (int64_t b : {1, 64}) {
    l.batch = b;
    PhaseBreakdown p;
    decode_compute(m, l, g, default_efficiency(), 1024, p);
    EXPECT_NEAR(p.layer_fixed_s, 32 * 53.04e-6, 32 * 0.01e-6);
  }
}

TEST(InferDecodeKernels, PerHeadAttentionReadsTheCacheOncePerQueryHead) {
  // Llama 3 70B (64 query heads, 8 key/value heads) at TP 8, batch 64, a 4,096-token cache, fp8
  // on an H100: each GPU holds 1 K/V head, 80 layers x 2 x 128 x 1 B = 20 KiB per token, x 64 x
  // 4096 = 5.37 GB a step: 1.92 ms at 2.79 TB/s. The grouped kernel reads it once; the per-head
  // kernel once per query head, 64 / 8 = 8 times: 15.4 ms. Its FP32 FMAs, 4 x 64 x 4096 x 8 heads
  // x 128 per layer at 67 TFLOP/s, take 1.28 ms a step: the re-reads bind.
  const ModelShape m = find_model("llama3-70b");
  const TrainingGpu g = *find_training_gpu("H100-SXM5-80GB");
  InferLayout l;
  l.tp = 8;
  l.batch = 64;
  l.dtype = "fp8";
  PhaseBreakdown grouped, per_head;
  decode_compute(m, l, g, default_efficiency(), 4096, grouped);
  l.decode_attention = DecodeAttention::PerHead;
  decode_compute(m, l, g, default_efficiency(), 4096, per_head);
  const double kv = 80.0 * 2 * 128 * 64 * 4096 / (3350e9 * 1700.0 / 2039.0);
  EXPECT_NEAR(grouped.kv_read_s, kv, 1e-9);
  EXPECT_NEAR(grouped.attention_s, kv, 1e-9);
  EXPECT_NEAR(per_head.kv_read_s, kv, 1e-9);
  EXPECT_NEAR(per_head.attention_s, 8 * kv, 1e-9);
  EXPECT_NEAR(per_head.compute_s - grouped.compute_s, 7 * kv, 1e-6);
}

TEST(InferDecodeKernels, PerHeadNeedsTheGpusCudaCoreRate) {
  EXPECT_GT(cuda_core_fp32_flops(*find_training_gpu("H100-SXM5-80GB")), 0);
  EXPECT_EQ(cuda_core_fp32_flops(*find_training_gpu("B200-SXM-180GB")), 0);
  const Cluster c = build_cluster(resolve_cluster("dgx-h100"));
  const Router r(c);
  InferLayout l;
  l.tp = 8;
  l.decode_attention = DecodeAttention::PerHead;
  InferOptions o;
  o.network_model = "analytical";
  EXPECT_THROW(run_inference(c, r, find_model("llama3-8b"), l, o, *find_training_gpu("B200-SXM-180GB")), InputError);
  EXPECT_EQ(parse_decode_attention("per-head"), DecodeAttention::PerHead);
  EXPECT_THROW(parse_decode_attention("xqa"), InputError);
}

}  // namespace
}  // namespace gf
