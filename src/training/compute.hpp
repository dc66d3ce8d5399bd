// Compute time of a layer on one GPU: a roofline (FLOPs against the peak of the data type, bytes
// against memory bandwidth), each op class scaled by an achievable-efficiency factor from a small
// documented table (docs/training.md, "Efficiency table"), since no kernel reaches peak.
#pragma once

#include <cstdint>
#include <string>

#include "training/flops.hpp"
#include "training/gpu_catalog.hpp"

namespace gf {

struct Efficiency {
  double matmul = 0;     // share of dense tensor peak large GEMMs reach
  double attention = 0;  // share of BF16 peak the attention core reaches
  double memory = 0;     // share of memory bandwidth element-wise kernels reach
  // A GEMM of M x N x K reaches matmul x f(M) f(N) f(K) of peak, f(d) = d / (d + gemm_knee): thin
  // matrices (a TP-split inner dimension, a short sequence, one head's width) fill fewer tiles and
  // waves of the GPU. 0: no shape penalty.
  double gemm_knee = 0;
  std::string source;  // what the factors were fitted to, or where they were read
};

// The table used unless a caller gives another (fitted to the Selene 22B rows: docs/training.md).
Efficiency default_efficiency();

struct LayerTimes {
  double forward_s = 0;
  double backward_s = 0;
  double recompute_s = 0;  // what the layout's recompute repeats before the backward
  double attention_s = 0;  // the attention core's share of forward_s (what CP's K/V ring overlaps)
  // The four GEMMs next to TP's collectives, forward (each backward GEMM, data or weight gradient,
  // has the same dimensions and time): QKV, attention output projection, MLP up (FC1), MLP down
  // (FC2; experts' total on a MoE layer). What --overlap tp hides the collectives behind.
  double qkv_s = 0, proj_s = 0, fc1_s = 0, fc2_s = 0;
};

// Bytes per weight a layer GEMM reads from HBM: 2 (BF16), or 1 under FP8, whose GEMMs take FP8
// weights: Transformer Engine casts each weight to FP8 once per step and caches that copy for the
// step's other micro-batches (transformer_engine/pytorch/module/linear.py, `is_first_microbatch`:
// "it allows caching of the FP8 versions of the weights"), and Hopper's transposed copy for the
// backward's data-gradient GEMM is FP8 as well (training/fp8_cost.hpp prices those casts). Serving
// (inference/) loads FP8 weights pre-quantized, the same 1 B.
double gemm_weight_bytes_per_parameter(const TrainLayout& l);
// One layer's weights as its forward reads them on one GPU (TP split): GEMM weights at
// gemm_weight_bytes_per_parameter, the other parameters (norms, biases, router) at 2 B. The
// roofline's floor under the layer's matmul time.
double layer_weight_bytes(const ModelShape& m, const TrainLayout& l, bool moe_layer);

LayerTimes layer_times(const ModelShape& m, const TrainLayout& l, const TrainingGpu& gpu, const Efficiency& e,
                       bool moe_layer);
// The four TP-adjacent GEMMs as Transformer Engine's userbuffers run them under --overlap tp:
// not one GEMM each but one per chunk of the overlapped collective, each chunk GEMM thinner than
// the whole and so priced at its own shape factor f (docs/training.md, "TP communication overlap").
// The method of each comes from the layout's userbuffers configuration (tp_overlap_cfg.hpp):
//  - ring exchange before a GEMM (the forward's QKV and FC1 after their all-gathers; the
//    backward's projection and FC2 data gradients after theirs): TP GEMMs of tokens / TP rows
//    each, the whole weight (TE common/comm_gemm_overlap/comm_gemm_overlap.cpp,
//    CommOverlapP2PBase::split_overlap_ag: a loop of tp_size GEMMs, each on an {n / tp_size, k}
//    chunk of the gathered input);
//  - ring exchange after a GEMM (the forward's projection and FC2 when configured so): the same
//    TP GEMMs of tokens / TP rows (CommOverlapP2PBase::split_overlap_rs: chunk i on the input rows
//    of rank tp_id + i + 1, its output sent to that rank while the next chunk runs), then the TP
//    received partial outputs summed by a memory-bound kernel (`reduce_bf16`: reads TP chunks of
//    tokens / TP x h 16-bit values, writes one), in `rs_reduce_s`;
//  - pipelined reduce-scatter (the forward's projection and FC2, TE's default): num_splits GEMMs,
//    each on 1 / num_splits of the weight's output features (CommOverlapBase::split_overlap_rs:
//    m_chunk = m / num_splits of the weight operand A, each output chunk reduce-scattered as it
//    is done);
//  - bulk (QKV's and FC1's backward) and every weight-gradient GEMM: unsplit.
// Each chunk GEMM reads the whole weight chunk it needs, so the roofline floor applies per chunk.
// A MoE layer's expert GEMMs are not userbuffers Linear layers: only its attention GEMMs split.
struct TpSplitGemms {
  double qkv_s = 0, proj_s = 0, fc1_s = 0, fc2_s = 0;  // forward, as split
  double proj_dgrad_s = 0, fc2_dgrad_s = 0;            // the backward's ring-exchange GEMMs
  double rs_reduce_s = 0;  // the forward's ring-exchange reduce-scatters' final sums, all of them
};
TpSplitGemms tp_split_gemm_times(const ModelShape& m, const TrainLayout& l, const TrainingGpu& gpu,
                                 const Efficiency& e, bool moe_layer);

// The logit layer (and its loss), forward and backward, on the last pipeline stage.
LayerTimes logit_times(const ModelShape& m, const TrainLayout& l, const TrainingGpu& gpu, const Efficiency& e);
// Adam's update over `params` parameters held by this GPU: memory-bound, 30 bytes per parameter
// (read fp32 gradient, master weight, two moments: 16 B; write master and moments: 12 B; write the
// 16-bit weight: 2 B; Rajbhandari et al. 2020's 16-byte optimizer state per parameter).
double optimizer_time(double params, const TrainingGpu& gpu, const Efficiency& e);

}  // namespace gf
