// How one serving instance is laid out on GPUs: tensor parallelism (TP) inside each attention
// group, pipeline stages (PP), and expert parallelism (EP) for MoE layers, whose experts are
// spread over EP GPUs while attention runs data-parallel over EP / TP groups (as DeepSeek-V3's
// deployment runs attention TP 4 with data parallelism and MoE over EP 32 or 320 GPUs: DeepSeek-V3
// Technical Report, arXiv 2412.19437, section 3.4). GPU order: TP innermost, then the attention
// data-parallel index, then the pipeline stage (global GPU = tp + TP (dp + DP pp)).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "inference/decode_kernels.hpp"
#include "inference/moe_dispatch.hpp"
#include "inference/serving_allreduce.hpp"
#include "training/model_shape.hpp"

namespace gf {

struct InferLayout {
  int64_t tp = 1, pp = 1, ep = 1;
  int64_t batch = 1;  // sequences decoded together by each attention (TP) group
  int64_t prompt = 2048, output = 256;
  std::string dtype = "bf16";  // weights, matmuls and KV cache: bf16 or fp8
  ServingAllReduce allreduce = ServingAllReduce::Nccl;
  // EP dispatch/combine: NCCL's all-to-all, DeepEP's normal or low-latency kernels, or auto (normal
  // for the prefill, low-latency for decode, as DeepSeek-V3 serves: arXiv 2412.19437, section 3.4).
  EpKernel ep_kernel = EpKernel::Nccl;
  // The decode attention kernel's treatment of grouped-query attention (inference/decode_kernels.hpp).
  DecodeAttention decode_attention = DecodeAttention::Grouped;

  // Attention data-parallel groups: EP / TP when EP spans more GPUs than TP, else 1.
  int64_t attention_dp() const { return ep > tp ? ep / tp : 1; }
  int64_t gpus() const { return tp * attention_dp() * pp; }
  double weight_bytes() const { return dtype == "fp8" ? 1.0 : 2.0; }
};

// Throws InputError naming the flag and the valid choices: factors at least 1, TP dividing the
// attention and key/value heads (or key/value heads dividing TP: they are then replicated),
// PP dividing the layers, EP only for MoE models and a multiple of TP, the GPUs within the
// cluster's, a dtype of bf16 or fp8.
void check_infer_layout(const InferLayout& l, const ModelShape& m, int64_t cluster_gpus);

// Cluster GPUs of the TP group (dp, pp), of the EP group of stage pp, and of the PP neighbour
// pairs (each TP rank of stage s with its twin in stage s+1, for the first attention group).
std::vector<int64_t> infer_tp_group(const InferLayout& l, int64_t dp, int64_t pp);
std::vector<int64_t> infer_ep_group(const InferLayout& l, int64_t pp);

}  // namespace gf
