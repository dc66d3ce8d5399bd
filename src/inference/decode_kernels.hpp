// What a decode step costs beyond the weights/HBM + matmul roofline (docs/inference.md, "Decode
// kernels"): the share of HBM bandwidth decode's weight-streaming kernels reach, a fixed time per
// transformer layer (its kernels' launches, ramp-up and tail, the small kernels between the
// GEMMs), and how the attention kernel reads the KV cache of grouped-query attention.
#pragma once

#include <string>

#include "training/gpu_catalog.hpp"

namespace gf {

// How the decode attention kernel treats grouped-query attention.
//  grouped:  each key/value head is read once for its group of query heads, on tensor cores
//            (TensorRT-LLM's XQA kernel from v0.8, FlashInfer, FlashAttention's decode path).
//  per-head: one thread block per (query head, sequence), dot products as FP32 FMAs on the CUDA
//            cores, so every query head redoes its group's key/value work (the masked multi-head
//            attention kernel TensorRT-LLM ran for GQA before XQA, as in its v0.6 tables).
enum class DecodeAttention { Grouped, PerHead };
std::string to_string(DecodeAttention a);
DecodeAttention parse_decode_attention(const std::string& text, const std::string& flag = "--decode-attention");

struct DecodeCosts {
  double hbm_share = 0;      // of the datasheet HBM bandwidth, for the step's weight and KV reads
  double layer_fixed_s = 0;  // per transformer layer per step, on top of its bytes and FLOPs
  std::string source;
};
// From gpt-fast's published batch-1 figures, the time per layer fitted to one of its rows
// (decode_kernels.cpp says how); not fitted to any serving row.
DecodeCosts default_decode_costs();

// Dense FP32 rate of the CUDA cores (non-tensor), FLOP/s, from the GPU's datasheet; 0 when the
// catalog GPU has no figure here.
double cuda_core_fp32_flops(const TrainingGpu& gpu);

}  // namespace gf
