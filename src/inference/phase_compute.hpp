// Compute of one prefill or one decode step on one GPU, summed over every layer of the model
// (one batch in flight: the stages run one after another). infer_step.hpp says how it is priced.
#pragma once

#include "inference/infer_step.hpp"

namespace gf {

// The share of `experts` experts that at least one of `tokens` tokens picks when each token picks
// `top_k` of them uniformly at random: 1 - (1 - k/E)^n (the expected fraction; routing skew is
// not modelled). Decode reads only these experts' weights.
double experts_touched(double experts, double top_k, double tokens);

// Fills weights_read_s, kv_read_s, matmul_s, compute_s and bound of a decode step at a KV-cache
// length of `context` tokens per sequence.
void decode_compute(const ModelShape& m, const InferLayout& l, const TrainingGpu& gpu, const Efficiency& e,
                    double context, PhaseBreakdown& out);
// The same for the prefill of the prompt.
void prefill_compute(const ModelShape& m, const InferLayout& l, const TrainingGpu& gpu, const Efficiency& e,
                     PhaseBreakdown& out);

}  // namespace gf
