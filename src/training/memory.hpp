// Memory per GPU of a training step, on the most loaded pipeline stage (the first: it holds the
// embedding and, under 1F1B, the activations of the most micro-batches in flight).
//
// Weights, gradients, optimizer (mixed precision with Adam, Rajbhandari et al. 2020, section 3.1):
// 2 B of 16-bit weight, 4 B of fp32 gradient (Megatron accumulates gradients in fp32), 12 B of
// fp32 master weight and two moments per parameter; ZeRO 1 shards the 12 B over DP, ZeRO 2 also
// the gradient, ZeRO 3 also the weight.
// Activations per layer per micro-batch (Korthikanti et al. 2022, Table 2, 16-bit activations):
//   no recompute:  s b h (10 + 24/t + 5 a s/(h t)), or s b h/t (34 + 5 a s/h) with sequence parallelism,
//                  for GPT shapes; the 24 is derived term by term for the model's own shape (grouped
//                  K/V heads, MLP width, gated MLP, MoE experts met per token):
//                  activation_split_coefficient
//   selective:     the 5 a s/h term (the attention scores) is recomputed, not stored
//   full:          2 s b h (only each layer's input), / t with sequence parallelism
// A flash-attention kernel stores no scores, as selective recompute does. The first stage keeps
// L/p layers' activations of p micro-batches, i.e. L layers' worth (section 4.2.3); interleaving
// adds a factor 1 + (p-1)/(p v).
#pragma once

#include "training/layout.hpp"
#include "training/model_shape.hpp"

namespace gf {

struct MemoryUse {
  double weights = 0, gradients = 0, optimizer = 0, activations = 0;
  double total() const { return weights + gradients + optimizer + activations; }
};

// Parameters held by one GPU of pipeline stage `stage` (its layers and, on the first and last
// stage, the embedding or output layer), split over TP.
double stage_parameters(const ModelShape& m, const TrainLayout& l, int64_t stage);
// One transformer layer's parameters held by a GPU before ZeRO 3 shards them: split over TP, the
// routed experts also over EP (as stage_parameters counts them); what ZeRO 3 gathers per layer.
double gpu_layer_parameters(const ModelShape& m, const TrainLayout& l, bool moe);
MemoryUse memory_per_gpu(const ModelShape& m, const TrainLayout& l);
// The TP-split part of one layer's stored activations, in s b h bytes (24 for GPT shapes).
double activation_split_coefficient(const ModelShape& m, bool moe_layer);

}  // namespace gf
