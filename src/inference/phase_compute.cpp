#include "inference/phase_compute.hpp"

#include <algorithm>
#include <cmath>

#include "inference/decode_kernels.hpp"
#include "training/layout.hpp"

namespace gf {

namespace {

double peak_flops(const InferLayout& l, const TrainingGpu& gpu) {
  return (l.dtype == "fp8" && gpu.fp8_tflops > 0 ? gpu.fp8_tflops : gpu.bf16_tflops) * 1e12;
}

// The output layer: its weights (vocab x hidden / TP) read once per step, 2 V h FLOPs per token.
void add_logits(const ModelShape& m, const InferLayout& l, const TrainingGpu& gpu, const Efficiency& e,
                double tokens, double hbm_share, PhaseBreakdown& out) {
  const double w = static_cast<double>(m.vocab) * static_cast<double>(m.hidden) / static_cast<double>(l.tp);
  const double mem = w * l.weight_bytes() / (gpu.memory_gBps * 1e9 * hbm_share);
  const double mm = 2 * tokens * w / (peak_flops(l, gpu) * e.matmul);
  out.weights_read_s += mem;
  out.matmul_s += mm;
  out.compute_s += std::max(mem, mm);
}

}  // namespace

double experts_touched(double experts, double top_k, double tokens) {
  if (experts <= 0) return 0;
  return 1.0 - std::pow(1.0 - std::min(1.0, top_k / experts), tokens);
}

void decode_compute(const ModelShape& m, const InferLayout& l, const TrainingGpu& gpu, const Efficiency& e,
                    double context, PhaseBreakdown& out) {
  const DecodeCosts dc = default_decode_costs();
  const double bw = gpu.memory_gBps * 1e9 * dc.hbm_share, peak = peak_flops(l, gpu) * e.matmul;
  // The attention core's rate: on tensor cores for the grouped kernel; FP32 FMAs on the CUDA cores
  // for the per-head one (TensorRT-LLM's masked MHA defines MMHA_USE_FP32_ACCUM_FOR_FMA). The
  // per-head kernel runs one thread block per (query head, sequence), each loading its group's
  // keys and values itself (FasterTransformer's decoder_masked_multihead_attention.cu: "a
  // threadblock for B x H pair"), so the cache is read once per query head: heads / kv_heads
  // times. This takes no L2 reuse between a group's blocks, so it is an upper bound.
  const double cuda_cores = cuda_core_fp32_flops(gpu);
  const bool per_head = l.decode_attention == DecodeAttention::PerHead && cuda_cores > 0;
  const double attn_rate = per_head ? cuda_cores : peak_flops(l, gpu) * e.attention;
  const double kv_reads =
      per_head && m.kv_heads > 0 ? std::max(1.0, static_cast<double>(m.heads) / static_cast<double>(m.kv_heads)) : 1.0;
  const double b = static_cast<double>(l.batch), t = static_cast<double>(l.tp);
  const double kv_layer = kv_bytes_per_token_layer_gpu(m, l);
  // Tokens that meet the MoE layer's experts: with EP, every attention group's batch; without,
  // this group's.
  const double moe_tokens = b * static_cast<double>(l.attention_dp());
  const double k = static_cast<double>(m.top_k), x = static_cast<double>(m.experts);
  // A decode GEMM's M is the step's tokens (each expert's: its share of the token-expert pairs):
  // the training table's shape factor f(M) = M / (M + knee) (training/compute.hpp); the weight
  // dimensions are left at full efficiency.
  auto shape = [&](double tokens) { return e.gemm_knee > 0 ? tokens / (tokens + e.gemm_knee) : 1.0; };
  const double expert_tokens = x > 0 ? std::max(1.0, moe_tokens * k / x) : 1.0;
  for (int64_t i = 0; i < m.layers; ++i) {
    const bool moe = m.moe() && i >= m.dense_layers;
    const LayerParams p = layer_params_gpu(m, l, moe);
    double weights = p.attention + p.dense;
    double mm_s = 2 * b * (p.attention + p.dense) / (peak * shape(b));
    if (moe) {
      weights += p.expert * p.experts_held * experts_touched(x, k, moe_tokens);
      // Balanced routing: the EP group's b x DP x k token-expert pairs spread over its EP GPUs;
      // without EP, this group's b k pairs over its TP ranks.
      mm_s += 2 * p.expert * (l.ep > 1 ? moe_tokens * k / static_cast<double>(l.ep) : b * k / t) /
              (peak * shape(expert_tokens));
    }
    // Attention over the cache: scores and weighted sum, 4 x context x heads x head_dim per token.
    const double attn_flop_s = 4 * b * context * static_cast<double>(m.heads * m.head_dim) / t / attn_rate;
    const double w_s = weights * l.weight_bytes() / bw;
    const double kv_s = b * context * kv_layer / bw;
    const double attn_s = std::max(kv_s * kv_reads, attn_flop_s);
    out.weights_read_s += w_s;
    out.kv_read_s += kv_s;
    out.matmul_s += mm_s + attn_flop_s;
    out.attention_s += attn_s;
    out.layer_fixed_s += dc.layer_fixed_s;
    out.compute_s += std::max(w_s, mm_s) + attn_s + dc.layer_fixed_s;
  }
  add_logits(m, l, gpu, e, b, dc.hbm_share, out);
  out.bound = out.matmul_s > out.weights_read_s + out.kv_read_s ? "compute" : "memory";
}

void prefill_compute(const ModelShape& m, const InferLayout& l, const TrainingGpu& gpu, const Efficiency& e,
                     PhaseBreakdown& out) {
  // The forward pass of a training micro-batch of `batch` sequences of `prompt` tokens, TP split,
  // flash attention (training/compute.cpp): its GEMMs at the fitted efficiency and GEMM-shape
  // factor, at least its weights at HBM bandwidth.
  TrainLayout tl;
  tl.tp = l.tp;
  tl.micro_batch = l.batch;
  tl.global_batch = l.batch;
  tl.seq = l.prompt;
  tl.dtype = l.dtype;
  tl.sequence_parallel = false;
  tl.attention = Attention::Flash;
  const double bw = gpu.memory_gBps * 1e9 * e.memory;
  for (int64_t i = 0; i < m.layers; ++i) {
    const bool moe = m.moe() && i >= m.dense_layers;
    const LayerParams p = layer_params_gpu(m, l, moe);
    const double fwd = layer_times(m, tl, gpu, e, moe).forward_s;
    out.weights_read_s += p.held() * l.weight_bytes() / bw;
    out.matmul_s += fwd;
    out.compute_s += fwd;
  }
  // Only the last position's logits are needed to sample the first token.
  add_logits(m, l, gpu, e, static_cast<double>(l.batch), e.memory, out);
  out.bound = out.matmul_s > out.weights_read_s ? "compute" : "memory";
}

}  // namespace gf
