// The all-reduce a serving engine runs for tensor parallelism inside one NVLink domain: NCCL's, or
// the custom kernels of TensorRT-LLM and vLLM, which exchange through peer-mapped (CUDA IPC)
// buffers instead of NCCL's protocol:
//  - one-shot: after a barrier each GPU reads the whole buffer of every peer and reduces locally,
//    so each GPU takes in (N-1) x S bytes in one step (latency-bound sizes);
//  - two-shot: a reduce-scatter (each GPU reduces its 1/N share read from every peer) and an
//    all-gather of the reduced shares, 2 (N-1)/N x S bytes per GPU in two steps with a barrier
//    between (bandwidth-bound sizes).
// (vllm-project/vllm csrc/custom_all_reduce.cuh, cross_device_reduce_1stage / _2stage;
// NVIDIA/TensorRT-LLM cpp/tensorrt_llm/kernels/customAllReduceKernels.cu, ONESHOT / TWOSHOT.)
// Both are timed on the cluster's network model as transfers between the GPUs (the `direct`
// pattern: one-shot is every pair exchanging S, two-shot two rounds of every pair exchanging S/N),
// plus the kernel's fixed cost (serving_allreduce.cpp says how it is set).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "routing/router.hpp"
#include "topology/cluster.hpp"

namespace gf {

enum class ServingAllReduce { Nccl, OneShot, TwoShot, Auto };

const char* to_string(ServingAllReduce a);
// "nccl", "oneshot", "twoshot" or "auto"; throws InputError at `flag` with did-you-mean.
ServingAllReduce parse_serving_allreduce(const std::string& text, const std::string& flag = "--allreduce");

// What `auto` runs for an all-reduce of `bytes` on `ranks` GPUs, TensorRT-LLM's choice
// (cpp/tensorrt_llm/plugins/ncclPlugin/allreducePlugin.cpp, AllreducePlugin::selectImplementation,
// and kernels/customAllReduceKernels.h's 8 MB workspace cap in the same release):
// 2 ranks: one-shot; 3-4 ranks: one-shot below 1 MB (10^6 B), else two-shot; more: one-shot below
// 500 kB (5 x 10^5 B), else two-shot; at or above 8 MB, NCCL. (vLLM's own rule,
// csrc/custom_all_reduce.cuh CustomAllreduce::allreduce, switches earlier: one-shot below 512 KiB
// for up to 4 ranks and 256 KiB for up to 8; docs/inference.md.) Outside one NVLink domain,
// always NCCL: the custom kernels need peer-mapped memory.
ServingAllReduce auto_serving_allreduce(int ranks, double bytes, bool one_domain);

// Fixed cost of a custom all-reduce kernel, in microseconds: one kernel launch plus its barriers
// (one-shot 2: before reading and before the buffers are reused; two-shot 3: one more between the
// two steps, as vLLM's kernels synchronise).
double custom_allreduce_fixed_us(ServingAllReduce a);

struct ServingArTiming {
  double seconds = 0;
  std::string how;  // "oneshot", "twoshot", or NCCL's "ring/ll" choice
  int64_t groups = 0, of_groups = 0;
};

// One all-reduce of `bytes` on every group at once (each group's GPUs given by cluster index), on
// network model `model`. Throws InputError at `flag` for a one-/two-shot request on a group that
// is not inside one NVLink domain.
ServingArTiming time_serving_allreduce(const Cluster& cluster, const Router& router, const std::string& model,
                                       const std::vector<std::vector<int64_t>>& groups, double bytes,
                                       ServingAllReduce mode, const std::string& flag = "--allreduce");

}  // namespace gf
