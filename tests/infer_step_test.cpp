// The serving step against hand arithmetic: decode's weight read on the memory roofline, the
// expert-touch share, the disaggregated KV transfer, and the continuous-batching scheduler's
// determinism and limits.
#include <gtest/gtest.h>

#include "config/presets.hpp"
#include "core/error.hpp"
#include "inference/batching.hpp"
#include "inference/infer_step.hpp"
#include "inference/phase_compute.hpp"
#include "routing/router.hpp"

namespace gf {
namespace {

TEST(InferStep, ExpertsTouched) {
  // 1 - (1 - k/E)^n: one token picks 2 of 8 experts: 1/4; two tokens: 1 - (3/4)^2 = 0.4375.
  EXPECT_DOUBLE_EQ(experts_touched(8, 2, 1), 0.25);
  EXPECT_DOUBLE_EQ(experts_touched(8, 2, 2), 0.4375);
  EXPECT_DOUBLE_EQ(experts_touched(256, 8, 1), 1.0 / 32);
}

TEST(InferStep, DecodeOfOneTokenIsTheWeightReadAtHbmBandwidth) {
  // Llama 3 8B, TP 1, batch 1, bf16 on an H100 at decode's achievable share of its 3,350 GB/s,
  // gpt-fast's 1700 / 2039 (inference/decode_kernels.cpp): 2.79303e12 B/s. The step reads the 32
  // layers' 6,979,584,000 parameters and the output layer's 128,256 x 4096 = 525,336,576,
  // 7,504,920,576 x 2 B = 15,009,841,152 B: 5.374 ms. The matmuls, 2 FLOPs per parameter per
  // token at 989e12 x 0.87 FLOP/s (and a batch-1 shape factor 1 / 209), take 3.6 ms: memory-bound.
  const ModelShape m = find_model("llama3-8b");
  InferLayout l;
  const TrainingGpu g = *find_training_gpu("H100-SXM5-80GB");
  const double bw = 3350e9 * 1700.0 / 2039.0;
  PhaseBreakdown p;
  decode_compute(m, l, g, default_efficiency(), 0, p);
  EXPECT_NEAR(p.weights_read_s, 15009841152.0 / bw, 1e-12);
  EXPECT_EQ(p.bound, "memory");
  // The KV read at a 2,048-token cache: 32 layers x 2 x 8 x 128 x 2 B = 131,072 B per token,
  // x 2,048 = 268,435,456 B / bw = 0.0961 ms; the attention kernel is bound by it (its FLOPs,
  // 4 x 2048 x 4096 per layer on tensor cores, take 39 ns a layer).
  PhaseBreakdown q;
  decode_compute(m, l, g, default_efficiency(), 2048, q);
  EXPECT_NEAR(q.kv_read_s, 268435456.0 / bw, 1e-12);
  EXPECT_NEAR(q.compute_s - p.compute_s, 268435456.0 / bw, 1e-9);
}

TEST(InferStep, DisaggregatedKvCrossesTheFabric) {
  // Llama 3 8B at TP 8 on 2 DGX H100 servers, prefill on server 0 and decode on server 1; batch
  // 1, prompt 2048: each GPU holds 1 of the 8 K/V heads, 32 x 2 x 128 x 2 B = 16 KiB per token,
  // x 2048 = 32 MiB, sent from each of 8 GPUs to its twin at once, one 400 Gb/s NIC each:
  // at least 33,554,432 / 50e9 = 0.671 ms; the TTFT is the one-pool TTFT plus that transfer.
  const Cluster c = build_cluster(resolve_cluster("dgx-h100", 2));
  const Router r(c);
  const ModelShape m = find_model("llama3-8b");
  const TrainingGpu g = *find_training_gpu("H100-SXM5-80GB");
  InferLayout l;
  l.tp = 8;
  InferOptions one;
  one.network_model = "analytical";
  InferOptions two = one;
  two.prefill_servers = 1;
  two.decode_servers = 1;
  const InferResult a = run_inference(c, r, m, l, one, g), b = run_inference(c, r, m, l, two, g);
  EXPECT_GE(b.prefill.kv_transfer_s, 33554432.0 / 50e9);
  EXPECT_LT(b.prefill.kv_transfer_s, 1.5 * 33554432.0 / 50e9);
  EXPECT_NEAR(b.ttft_s, a.ttft_s + b.prefill.kv_transfer_s, 1e-12);
  EXPECT_DOUBLE_EQ(b.tpot_s, a.tpot_s);
  two.decode_servers = 2;  // 1 + 2 servers, but the cluster has 2
  EXPECT_THROW(run_inference(c, r, m, l, two, g), InputError);
}

TEST(InferBatching, SameSeedSameFiguresAndSlotsBoundTheBatch) {
  const Cluster c = build_cluster(resolve_cluster("dgx-h100"));
  const Router r(c);
  const ModelShape m = find_model("llama3-8b");
  const TrainingGpu g = *find_training_gpu("H100-SXM5-80GB");
  InferLayout l;
  l.tp = 8;
  l.batch = 4;
  l.prompt = 256;
  l.output = 32;
  InferOptions o;
  o.network_model = "analytical";
  BatchingOptions b;
  b.rate = 50;
  b.requests = 40;
  b.seed = 7;
  const BatchingResult x = run_batching(c, r, m, l, o, g, b), y = run_batching(c, r, m, l, o, g, b);
  EXPECT_EQ(x.iterations, y.iterations);
  EXPECT_EQ(x.ttft_s.p99, y.ttft_s.p99);
  EXPECT_EQ(x.output_tokens_per_s, y.output_tokens_per_s);
  EXPECT_LE(x.max_running, 4);
  EXPECT_LE(x.mean_batch, 4.0);
  EXPECT_LE(x.ttft_s.p50, x.ttft_s.p99);
  EXPECT_GT(x.tpot_s.p50, 0.0);
  b.seed = 8;
  const BatchingResult z = run_batching(c, r, m, l, o, g, b);
  EXPECT_NE(z.makespan_s, x.makespan_s);
}

}  // namespace
}  // namespace gf
