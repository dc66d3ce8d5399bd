// FP8 training's own work beside its GEMMs, as Transformer Engine runs it on Hopper with the
// current-scaling recipe (the recipe of NVIDIA's H100 performance configurations, "FP8-CS"):
// every FP8 GEMM operand is quantized from 16 bits first, a memory-bound pass the BF16 step does
// not have, and tensors gathered under sequence parallelism need their amax agreed over the TP
// group before they are cast (docs/training.md, "FP8").
#pragma once

#include "training/compute.hpp"
#include "training/layout.hpp"
#include "training/model_shape.hpp"

namespace gf {

// Bytes moved per element when a 16-bit tensor is quantized for Hopper's FP8 GEMMs: the amax pass
// reads it (2 B), the cast reads it again (2 B) and writes the row-wise and the transposed FP8
// copies (1 B each), Hopper's FP8 GEMM taking only one operand layout. Transformer Engine's docs,
// "FP8 Current Scaling" ("Quantization is a memory-bound operation that requires reading the
// tensor twice") and "Performance Considerations" (one kernel writing both usages on Hopper).
constexpr double kFp8CastBytes = 6.0;
// A norm's output: Transformer Engine's norm kernel computes the amax as it writes its 16-bit
// output (transformer_engine/pytorch/csrc/extensions/normalization.cpp, FUSED_NORM_AMAX_FP8), so
// only the cast's read and the two FP8 writes remain.
constexpr double kFp8NormCastBytes = 4.0;

struct Fp8LayerCast {
  double forward_s = 0;   // one micro-batch: the four GEMM inputs (QKV, projection, MLP up, down)
  double backward_s = 0;  // one micro-batch: the four GEMMs' output gradients
};

// Quantization time of one layer on one GPU. With sequence parallelism the hidden-wide tensors
// (norm outputs, the gradients of the projection's and the MLP down's outputs) are quantized on
// the rank's s/TP tokens before the FP8 all-gather (Transformer Engine's "quantized all-gather").
// Zero unless the layout's dtype is fp8.
Fp8LayerCast fp8_layer_cast(const ModelShape& m, const TrainLayout& l, const TrainingGpu& gpu, const Efficiency& e,
                            bool moe_layer);

// A training layer's times: layer_times plus its casts (the forward's in the forward and again in
// a full recompute, the backward's in the backward). Serving's prefill calls layer_times itself:
// inference FP8 quantizes with static scales and pre-quantized weights, a different cost.
LayerTimes training_layer_times(const ModelShape& m, const TrainLayout& l, const TrainingGpu& gpu,
                                const Efficiency& e, bool moe_layer);

// Quantizing `params` 16-bit weights once per step: Megatron-Core's Transformer Engine layers pass
// is_first_microbatch, so the FP8 weights are cached across the step's micro-batches
// (megatron/core/extensions/transformer_engine.py). Zero unless the dtype is fp8.
double fp8_weight_cast_s(double params, const TrainLayout& l, const TrainingGpu& gpu, const Efficiency& e);

// Amax all-reduces over the TP group per layer and pass under sequence parallelism: the two
// gathered inputs (QKV's and the MLP up's) in the forward, the two gathered output gradients (the
// projection's and the MLP down's) in the backward. Transformer Engine's "Amax reduction": tensors
// gathered across ranks "require amax synchronization before quantization".
constexpr int kFp8AmaxReductionsPerPass = 2;

}  // namespace gf
