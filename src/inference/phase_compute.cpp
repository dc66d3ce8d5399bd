#include "inference/phase_compute.hpp"

#include <algorithm>
#include <cmath>

#include "training/layout.hpp"

namespace gf {

namespace {

double peak_flops(const InferLayout& l, const TrainingGpu& gpu) {
  return (l.dtype == "fp8" && gpu.fp8_tflops > 0 ? gpu.fp8_tflops : gpu.bf16_tflops) * 1e12;
}

// The output layer: its weights (vocab x hidden / TP) read once per step, 2 V h FLOPs per token.
void add_logits(const ModelShape& m, const InferLayout& l, const TrainingGpu& gpu, const Efficiency& e,
                double tokens, PhaseBreakdown& out) {
  const double w = static_cast<double>(m.vocab) * static_cast<double>(m.hidden) / static_cast<double>(l.tp);
  const double mem = w * l.weight_bytes() / (gpu.memory_gBps * 1e9 * e.memory);
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
  const double bw = gpu.memory_gBps * 1e9 * e.memory, peak = peak_flops(l, gpu) * e.matmul;
  const double b = static_cast<double>(l.batch), t = static_cast<double>(l.tp);
  const double kv_layer = kv_bytes_per_token_layer_gpu(m, l);
  // Tokens that meet the MoE layer's experts: with EP, every attention group's batch; without,
  // this group's.
  const double moe_tokens = b * static_cast<double>(l.attention_dp());
  const double k = static_cast<double>(m.top_k), x = static_cast<double>(m.experts);
  for (int64_t i = 0; i < m.layers; ++i) {
    const bool moe = m.moe() && i >= m.dense_layers;
    const LayerParams p = layer_params_gpu(m, l, moe);
    double weights = p.attention + p.dense, flops = 2 * b * (p.attention + p.dense);
    if (moe) {
      weights += p.expert * p.experts_held * experts_touched(x, k, moe_tokens);
      // Balanced routing: the EP group's b x DP x k token-expert pairs spread over its EP GPUs;
      // without EP, this group's b k pairs over its TP ranks.
      flops += 2 * p.expert * (l.ep > 1 ? moe_tokens * k / static_cast<double>(l.ep) : b * k / t);
    }
    // Attention over the cache: scores and weighted sum, 4 x context x heads x head_dim per token.
    flops += 4 * b * context * static_cast<double>(m.heads * m.head_dim) / t;
    const double w_s = weights * l.weight_bytes() / bw;
    const double kv_s = b * context * kv_layer / bw;
    const double mm_s = flops / peak;
    out.weights_read_s += w_s;
    out.kv_read_s += kv_s;
    out.matmul_s += mm_s;
    out.compute_s += std::max(w_s + kv_s, mm_s);
  }
  add_logits(m, l, gpu, e, b, out);
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
  add_logits(m, l, gpu, e, static_cast<double>(l.batch), out);
  out.bound = out.matmul_s > out.weights_read_s ? "compute" : "memory";
}

}  // namespace gf
