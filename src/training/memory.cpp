#include "training/memory.hpp"

#include <algorithm>

namespace gf {

double stage_parameters(const ModelShape& m, const TrainLayout& l, int64_t stage) {
  const int64_t per_stage = m.layers / l.pp;
  double p = 0;
  for (int64_t i = 0; i < per_stage; ++i) {
    // Layers of stage s under interleaving are spread over its chunks; which ones are MoE only
    // matters for models with dense leading layers, where stage 0 holds them.
    const int64_t layer = stage * per_stage + i;
    const bool moe = m.moe() && layer >= m.dense_layers;
    p += m.layer_parameters(moe);
    // EP splits the routed experts (not the shared ones, not the router) over its ranks.
    if (moe && l.ep > 1)
      p -= (1.0 - 1.0 / static_cast<double>(l.ep)) * (m.gated_mlp ? 3.0 : 2.0) * static_cast<double>(m.hidden) *
           static_cast<double>(m.moe_ffn) * static_cast<double>(m.experts);
  }
  const double emb = static_cast<double>(m.vocab) * static_cast<double>(m.hidden);
  if (stage == 0) p += emb;
  if (stage == l.pp - 1) p += emb;  // output layer (a copy of the tied embedding when PP > 1)
  if (l.pp == 1) p -= emb;          // one stage: tied, counted once
  return p / static_cast<double>(l.tp);
}

MemoryUse memory_per_gpu(const ModelShape& m, const TrainLayout& l) {
  double params = 0;
  for (int64_t s = 0; s < l.pp; ++s) params = std::max(params, stage_parameters(m, l, s));
  const double dp = static_cast<double>(l.dp);
  MemoryUse u;
  u.weights = 2 * params / (l.zero >= 3 ? dp : 1.0);
  u.gradients = 4 * params / (l.zero >= 2 ? dp : 1.0);
  u.optimizer = 12 * params / (l.zero >= 1 ? dp : 1.0);
  const double s = static_cast<double>(l.seq), b = static_cast<double>(l.micro_batch),
               h = static_cast<double>(m.hidden);
  const double t = static_cast<double>(l.tp), a = static_cast<double>(m.heads);
  const bool scores = l.recompute == Recompute::None && l.attention == Attention::Unfused;
  double per_layer = 0;
  if (l.recompute == Recompute::Full) {
    per_layer = 2 * s * b * h / (l.sequence_parallel ? t : 1.0);
  } else if (l.sequence_parallel) {
    per_layer = s * b * h / t * (34 + (scores ? 5 * a * s / h : 0.0));
  } else {
    per_layer = s * b * h * (10 + 24 / t + (scores ? 5 * a * s / (h * t) : 0.0));
  }
  const double p = static_cast<double>(l.pp), v = static_cast<double>(l.vpp);
  const double inflight = l.pp > 1 ? std::min<double>(static_cast<double>(l.microbatches()), p) / p : 1.0;
  const double interleave = l.vpp > 1 ? 1 + (p - 1) / (p * v) : 1.0;
  u.activations = per_layer * static_cast<double>(m.layers) * inflight * interleave;
  return u;
}

}  // namespace gf
