#include "inference/kv_cache.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace gf {

namespace {

struct LatentKv {
  const char* model;
  int64_t elements;  // d_c + d_h^R
};
// DeepSeek-V3: d_c = 512, d_h^R = 64 (arXiv 2412.19437, section 4.2 "Model Hyper-Parameters").
constexpr LatentKv kLatent[] = {{"deepseek-v3", 512 + 64}};

}  // namespace

int64_t kv_elements_per_token_layer(const ModelShape& m, bool* latent) {
  for (const LatentKv& k : kLatent)
    if (m.name == k.model) {
      if (latent) *latent = true;
      return k.elements;
    }
  if (latent) *latent = false;
  return 2 * m.kv_heads * m.head_dim;
}

double kv_bytes_per_token_layer_gpu(const ModelShape& m, const InferLayout& l) {
  bool latent = false;
  const double el = static_cast<double>(kv_elements_per_token_layer(m, &latent));
  if (latent) return el * l.weight_bytes();
  // TP splits the key/value heads; past kv_heads each GPU keeps one head (replicated).
  const double heads_gpu = std::max(1.0, static_cast<double>(m.kv_heads) / static_cast<double>(l.tp));
  return el * heads_gpu / static_cast<double>(m.kv_heads) * l.weight_bytes();
}

LayerParams layer_params_gpu(const ModelShape& m, const InferLayout& l, bool moe_layer) {
  const double h = static_cast<double>(m.hidden), t = static_cast<double>(l.tp);
  const double q = static_cast<double>(m.heads * m.head_dim), kv = static_cast<double>(m.kv_heads * m.head_dim);
  const double mats = m.gated_mlp ? 3.0 : 2.0;
  LayerParams p;
  // As ModelShape::layer_parameters counts them: Q, K, V and output projections, norms.
  p.attention = (h * q + 2 * h * kv + q * h + (m.gated_mlp ? 2 * h : 13 * h)) / t;
  if (!moe_layer) {
    p.dense = mats * h * static_cast<double>(m.ffn) / t;
    return p;
  }
  const double f = static_cast<double>(m.moe_ffn);
  p.dense = (mats * h * f * static_cast<double>(m.shared_experts) + h * static_cast<double>(m.experts)) / t;
  p.expert = mats * h * f;
  const double experts = static_cast<double>(m.experts);
  p.experts_held = l.ep > 1 ? std::ceil(experts / static_cast<double>(l.ep)) : experts / t;
  return p;
}

ServingMemory serving_memory(const ModelShape& m, const InferLayout& l, double capacity) {
  ServingMemory s;
  const int64_t per_stage = m.layers / l.pp;
  // The fullest stage: the first holds the embedding and, with PP 1, also the output layer
  // (untied, as Llama 3 releases it); both split over TP (Megatron's vocabulary-parallel layers).
  const double vocab = static_cast<double>(m.vocab) * static_cast<double>(m.hidden) / static_cast<double>(l.tp);
  double weights = 0;
  for (int64_t i = 0; i < per_stage; ++i) weights += layer_params_gpu(m, l, m.moe() && i >= m.dense_layers).held();
  weights += vocab * (l.pp == 1 ? 2.0 : 1.0);
  s.weights = weights * l.weight_bytes();
  const double el = static_cast<double>(kv_elements_per_token_layer(m));
  s.kv_per_token = el * static_cast<double>(m.layers) * l.weight_bytes();
  s.kv_per_token_gpu = kv_bytes_per_token_layer_gpu(m, l) * static_cast<double>(per_stage);
  const double len = static_cast<double>(l.prompt + l.output);
  s.kv_per_request = s.kv_per_token * len;
  s.kv_per_request_gpu = s.kv_per_token_gpu * len;
  s.kv_batch_gpu = s.kv_per_request_gpu * static_cast<double>(l.batch);
  s.capacity = capacity;
  s.left_after_weights = capacity - s.weights;
  s.max_requests = capacity > 0 && s.left_after_weights > 0
                       ? static_cast<int64_t>(std::floor(s.left_after_weights / s.kv_per_request_gpu))
                       : 0;
  return s;
}

}  // namespace gf
