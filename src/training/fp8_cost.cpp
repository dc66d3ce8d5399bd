#include "training/fp8_cost.hpp"

namespace gf {

Fp8LayerCast fp8_layer_cast(const ModelShape& m, const TrainLayout& l, const TrainingGpu& gpu, const Efficiency& e,
                            bool moe_layer) {
  Fp8LayerCast c;
  if (l.dtype != "fp8") return c;
  const double tp = static_cast<double>(l.tp);
  const double tokens = static_cast<double>(l.micro_batch * l.seq) / static_cast<double>(l.cp);
  // Hidden-wide tensors: split over TP only with sequence parallelism.
  const double hidden_tokens = l.sequence_parallel ? tokens / tp : tokens;
  const double h = static_cast<double>(m.hidden), qd = static_cast<double>(m.heads * m.head_dim);
  const double kvd = static_cast<double>(m.kv_heads * m.head_dim);
  const double up = m.gated_mlp ? 2.0 : 1.0;
  // The MLP's tokens and width: routed experts see each token top_k times, shared experts once.
  double mlp_tokens = tokens, f = static_cast<double>(m.ffn);
  if (moe_layer) {
    mlp_tokens = tokens * static_cast<double>(m.top_k + m.shared_experts);
    f = static_cast<double>(m.moe_ffn);
  }
  // Forward: QKV's and the MLP up's inputs are norm outputs (the MoE experts' input arrives through
  // the dispatch instead, so it takes the full cast); the projection's input is the attention
  // output, the MLP down's the activation's output.
  const double up_in_bytes = moe_layer ? kFp8CastBytes : kFp8NormCastBytes;
  const double fwd = kFp8NormCastBytes * hidden_tokens * h + kFp8CastBytes * tokens * qd / tp +
                     up_in_bytes * (moe_layer ? mlp_tokens * h : hidden_tokens * h) +
                     kFp8CastBytes * mlp_tokens * f / tp;
  // Backward: every output gradient, in E5M2 (the same bytes).
  const double bwd = kFp8CastBytes * (tokens * (qd + 2 * kvd) / tp + hidden_tokens * h +
                                      mlp_tokens * up * f / tp + (moe_layer ? mlp_tokens : hidden_tokens) * h);
  const double bw = gpu.memory_gBps * 1e9 * e.memory;
  c.forward_s = fwd / bw;
  c.backward_s = bwd / bw;
  return c;
}

LayerTimes training_layer_times(const ModelShape& m, const TrainLayout& l, const TrainingGpu& gpu,
                                const Efficiency& e, bool moe_layer) {
  LayerTimes t = layer_times(m, l, gpu, e, moe_layer);
  const Fp8LayerCast q = fp8_layer_cast(m, l, gpu, e, moe_layer);
  t.forward_s += q.forward_s;
  t.backward_s += q.backward_s;
  if (l.recompute == Recompute::Full) t.recompute_s += q.forward_s;
  return t;
}

double fp8_weight_cast_s(double params, const TrainLayout& l, const TrainingGpu& gpu, const Efficiency& e) {
  if (l.dtype != "fp8") return 0.0;
  return kFp8CastBytes * params / (gpu.memory_gBps * 1e9 * e.memory);
}

}  // namespace gf
