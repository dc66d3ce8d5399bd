// FLOPs and memory traffic of one transformer layer and of a whole step, in closed form.
//
// Forward matmul FLOPs of one layer on b sequences of s tokens (2 FLOPs per multiply-add), for
// hidden h, a query heads and g key/value heads of width d, MLP width f:
//   QKV projection   2 b s h (a d + 2 g d)
//   attention core   4 b s^2 a d      (scores Q K^T and the weighted sum of V; no causal halving,
//                                      as Megatron's count)
//   output proj.     2 b s (a d) h
//   MLP              2 k b s h f with k = 2 matrices (GELU) or 3 (SwiGLU); MoE: top_k + shared experts
// For GPT-style layers (a d = h, g = a, f = 4h) this is 24 b s h^2 + 4 b s^2 h, and a step's model
// FLOPs are 72 B s l h^2 (1 + s/6h + V/12lh) (Korthikanti et al. 2022, eq. of section 6.3, after
// Narayanan et al. 2021, appendix): 3x the forward (backward = 2x forward), plus the logit layer
// 2 B s h V forward. Hardware FLOPs add what recompute repeats: the whole forward of every layer
// (full) or the attention core (selective).
#pragma once

#include "training/layout.hpp"
#include "training/model_shape.hpp"

namespace gf {

struct LayerWork {
  double matmul_flops = 0;       // dense projections and the MLP
  double attention_flops = 0;    // the attention core (scores and weighted sum)
  double elementwise_bytes = 0;  // memory traffic of norms, activations, dropout, residuals, softmax
};

// One layer's forward work per GPU for one micro-batch under this layout: matmuls split over TP;
// element-wise work split over TP where sequence parallelism splits it (norms, dropout,
// residuals), or where TP already does (attention and MLP inner activations).
LayerWork layer_forward(const ModelShape& m, const TrainLayout& l, bool moe_layer);
// The logit layer's forward matmul FLOPs per GPU per micro-batch (2 b s h V / TP).
double logit_forward_flops(const ModelShape& m, const TrainLayout& l);

struct StepFlops {
  double model = 0;     // 3 x forward of every layer and the logits, over the global batch
  double hardware = 0;  // model + what recompute repeats
};
StepFlops step_flops(const ModelShape& m, const TrainLayout& l);

}  // namespace gf
