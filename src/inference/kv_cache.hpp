// KV-cache and weight bytes of a serving instance. Per token and layer a model caches a key and a
// value vector per key/value head: 2 x kv_heads x head_dim elements (grouped-query attention
// caches kv_heads, not heads; Ainslie et al. 2023, "GQA", arXiv 2305.13245). Multi-head latent
// attention caches one compressed latent and a decoupled RoPE key instead, d_c + d_h^R elements
// (DeepSeek-V2, arXiv 2405.04434, section 2.1.2, eq. 9-10 and Table 1; DeepSeek-V3 keeps
// d_c = 512, d_h^R = 64: arXiv 2412.19437, section 4.2): the model catalog prices MLA's compute as
// multi-head attention, so the latent size is kept here, by model name.
#pragma once

#include <cstdint>

#include "inference/infer_layout.hpp"
#include "training/model_shape.hpp"

namespace gf {

// Elements cached per token per layer for the whole model, and whether they are an MLA latent.
int64_t kv_elements_per_token_layer(const ModelShape& m, bool* latent = nullptr);
// Bytes one GPU caches per token per layer: key/value heads split over TP (replicated when TP
// exceeds them); an MLA latent is not split by heads and every TP rank holds it.
double kv_bytes_per_token_layer_gpu(const ModelShape& m, const InferLayout& l);

// Parameters of one layer one GPU holds: attention and dense MLP (and shared experts) split over
// TP; routed experts split over TP, or spread whole over EP GPUs (ceil(experts / EP) each, the
// rest filled by redundant copies as DeepSeek-V3 deploys them, section 3.4).
struct LayerParams {
  double attention = 0;   // projections and norms, this GPU's share
  double dense = 0;       // dense MLP or shared experts, this GPU's share
  double expert = 0;      // one routed expert's full parameters (0 for a dense layer)
  double experts_held = 0;  // routed experts this GPU holds (fractional: TP-split shares)
  double held() const { return attention + dense + expert * experts_held; }
};
LayerParams layer_params_gpu(const ModelShape& m, const InferLayout& l, bool moe_layer);

struct ServingMemory {
  double weights = 0;            // bytes per GPU, the fullest pipeline stage
  double kv_per_token = 0;       // bytes, whole model (all layers, all heads), one token
  double kv_per_token_gpu = 0;   // bytes one GPU caches per token (its stage's layers, its heads)
  double kv_per_request = 0;     // whole model, prompt + output tokens
  double kv_per_request_gpu = 0; // one GPU's share of one request
  double kv_batch_gpu = 0;       // one GPU's KV cache for the batch at full length
  double capacity = 0;           // the GPU's memory (0: unknown)
  double left_after_weights = 0; // capacity - weights
  int64_t max_requests = 0;      // full-length requests the KV cache fits per attention group
};
ServingMemory serving_memory(const ModelShape& m, const InferLayout& l, double capacity);

}  // namespace gf
