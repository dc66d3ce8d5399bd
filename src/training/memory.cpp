#include "training/memory.hpp"

#include <algorithm>
#include <vector>

namespace gf {

double gpu_layer_parameters(const ModelShape& m, const TrainLayout& l, bool moe) {
  double p = m.layer_parameters(moe);
  if (moe && l.ep > 1)
    p -= (1.0 - 1.0 / static_cast<double>(l.ep)) * (m.gated_mlp ? 3.0 : 2.0) * static_cast<double>(m.hidden) *
         static_cast<double>(m.moe_ffn) * static_cast<double>(m.experts);
  return p / static_cast<double>(l.tp);
}

double stage_parameters(const ModelShape& m, const TrainLayout& l, int64_t stage) {
  // Layers of stage s under interleaving are spread over its chunks; which ones are MoE only
  // matters for models with dense leading layers, where stage 0 holds them. Even stages count
  // L/p layers from s x L/p (as before interleaving was spread); uneven ones their own virtual
  // stages' layers.
  const std::vector<int64_t> counts = stage_layer_counts(m, l);
  const bool uneven = l.uneven();
  std::vector<int64_t> layers;  // the model-order indices of this stage's layers
  if (!uneven) {
    for (int64_t i = 0; i < m.layers / l.pp; ++i) layers.push_back(stage * (m.layers / l.pp) + i);
  } else {
    int64_t first = 0;
    for (size_t vs = 0; vs < counts.size(); ++vs) {
      if (static_cast<int64_t>(vs) % l.pp == stage)
        for (int64_t i = 0; i < counts[vs]; ++i) layers.push_back(first + i);
      first += counts[vs];
    }
  }
  double p = 0;
  for (const int64_t layer : layers) {
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

double activation_split_coefficient(const ModelShape& m, bool moe_layer) {
  // Korthikanti et al. 2022, section 4.1, term by term, in units of s b h bytes (16-bit values,
  // 1-byte dropout masks): Q, K and V 2 (a d + 2 g d)/h (4 + 2 for multi-head attention, whose K
  // and V are as wide as Q); the attention output, the projection's input, 2 a d/h (2); the MLP's
  // first GEMM output and the activation's output, 2 f/h each (8 + 8 for GELU at f = 4h), with a
  // gated MLP (SwiGLU) a first output twice as wide (gate and up), 6 f/h in all. An MoE layer's
  // tokens meet top-k routed plus the shared experts, each of width moe_ffn. GPT shapes give 24.
  const double h = static_cast<double>(m.hidden), ad = static_cast<double>(m.heads * m.head_dim),
               gd = static_cast<double>(m.kv_heads * m.head_dim);
  const double f = moe_layer ? static_cast<double>(m.moe_ffn * (m.top_k + m.shared_experts)) : static_cast<double>(m.ffn);
  return 2 * (ad + 2 * gd) / h + 2 * ad / h + (m.gated_mlp ? 6.0 : 4.0) * f / h;
}

MemoryUse memory_per_gpu(const ModelShape& m, const TrainLayout& l) {
  double params = 0;
  for (int64_t s = 0; s < l.pp; ++s) params = std::max(params, stage_parameters(m, l, s));
  // ZeRO shards over the gradient group, DP x CP (Megatron-Core's distributed optimizer works on
  // the data-parallel group with context parallel).
  const double dp = static_cast<double>(l.dp * l.cp);
  MemoryUse u;
  u.weights = 2 * params / (l.zero >= 3 ? dp : 1.0);
  u.gradients = 4 * params / (l.zero >= 2 ? dp : 1.0);
  u.optimizer = 12 * params / (l.zero >= 1 ? dp : 1.0);
  const double s = static_cast<double>(l.seq), b = static_cast<double>(l.micro_batch),
               h = static_cast<double>(m.hidden);
  const double t = static_cast<double>(l.tp), a = static_cast<double>(m.heads);
  const bool scores = l.recompute == Recompute::None && l.attention == Attention::Unfused;
  // The TP-split part of a layer's activations, averaged over dense and MoE layers; the rest, 10
  // s b h, is the two norms' inputs (4), the attention's and MLP's inputs (2 + 2) and two dropout
  // masks (2), kept for every model (a model trained without dropout stores 2 s b h less).
  const double layers = static_cast<double>(m.layers);
  const double moe_layers = m.moe() ? layers - static_cast<double>(m.dense_layers) : 0.0;
  const double split = ((layers - moe_layers) * activation_split_coefficient(m, false) +
                        moe_layers * activation_split_coefficient(m, true)) / layers;
  double per_layer = 0;
  if (l.recompute == Recompute::Full) {
    per_layer = 2 * s * b * h / (l.sequence_parallel ? t : 1.0);
  } else if (l.sequence_parallel) {
    per_layer = s * b * h / t * (10 + split + (scores ? 5 * a * s / h : 0.0));
  } else {
    per_layer = s * b * h * (10 + split / t + (scores ? 5 * a * s / (h * t) : 0.0));
  }
  const double p = static_cast<double>(l.pp), v = static_cast<double>(l.vpp);
  const double interleave = l.vpp > 1 ? 1 + (p - 1) / (p * v) : 1.0;
  // Under 1F1B stage s keeps min(m, p - s) micro-batches in flight; with even stages the first
  // stage holds the most (L/p layers x p = L layers' worth); with uneven stages the largest
  // product of layers and micro-batches in flight.
  const double mb = static_cast<double>(l.microbatches());
  double layers_in_flight = static_cast<double>(m.layers) * (l.pp > 1 ? std::min(mb, p) / p : 1.0);
  if (l.uneven()) {
    const std::vector<int64_t> counts = stage_layer_counts(m, l);
    layers_in_flight = 0;
    for (int64_t s = 0; s < l.pp; ++s) {
      double held = 0;  // the stage's layers over its chunks
      for (int64_t c = 0; c < l.vpp; ++c) held += static_cast<double>(counts[static_cast<size_t>(c * l.pp + s)]);
      layers_in_flight = std::max(layers_in_flight, held * std::min(mb, p - static_cast<double>(s)));
    }
  }
  // Context parallelism splits every activation along the sequence: each rank holds s / CP tokens'.
  u.activations = per_layer * layers_in_flight * interleave / static_cast<double>(l.cp);
  return u;
}

}  // namespace gf
