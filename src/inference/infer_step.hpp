// One serving instance of a model on a cluster: time to first token (the prefill of the prompt)
// and time per output token (one decode step), each with its breakdown, tokens/s per GPU, and the
// KV cache against the memory left after the weights (docs/inference.md).
//
// Per layer on one GPU, compute is a roofline: the larger of its matmul FLOPs at the achievable
// share of the data type's peak and its bytes (weights read once per step, the KV cache read by
// attention) at the achievable share of HBM bandwidth; in decode the GEMMs and the attention
// kernel are each their own roofline and every layer adds a fixed time (decode_kernels.hpp).
// Decode reads every weight for a handful of tokens, so it is memory-bound; prefill runs the prompt's tokens through the same weights, so it
// is compute-bound and is priced by the training step's forward pass (training/compute.hpp, with
// its GEMM-shape efficiency). The collectives, two TP all-reduces per layer, the EP dispatch and
// combine per MoE layer and the PP sends between stages, run on the cluster's network model
// through the same collective path as `perf` and `train`, and sit on the critical path (no
// overlap with compute is modelled). One batch is in flight, so pipeline stages take turns: TPOT
// is the sum over all stages.
#pragma once

#include <string>
#include <vector>

#include "inference/infer_layout.hpp"
#include "inference/kv_cache.hpp"
#include "routing/router.hpp"
#include "topology/cluster.hpp"
#include "training/compute.hpp"
#include "training/gpu_catalog.hpp"
#include "training/model_shape.hpp"

namespace gf {

struct InferOptions {
  std::string network_model = "flow";  // analytical | flow | packet
  Efficiency efficiency = default_efficiency();
  // Disaggregated serving: the prefill instance on the first `prefill_servers` servers, the decode
  // instance on the next `decode_servers`, same layout; each request's KV cache crosses the fabric
  // from every prefill GPU to its twin in the decode pool before decoding starts (0: one pool).
  int64_t prefill_servers = 0, decode_servers = 0;
};

// One phase (the prefill, or one decode step) on the critical path, seconds. compute_s is what
// enters the total: for the prefill the sum over layers of max(matmul, memory); for a decode step,
// per layer, max(GEMM FLOPs, weight bytes) + max(attention FLOPs, KV bytes) + a fixed time
// (inference/decode_kernels.hpp). weights_read_s, kv_read_s and matmul_s are the sides, shown so
// one sees which bound holds.
struct PhaseBreakdown {
  double weights_read_s = 0;  // weight bytes / achievable HBM bandwidth
  double kv_read_s = 0;       // KV-cache bytes / achievable HBM bandwidth
  double matmul_s = 0;        // FLOPs / achievable FLOP/s
  // Decode only: the attention kernel's share of compute_s (the larger of its KV read and its
  // FLOPs), and the fixed time per layer (inference/decode_kernels.hpp); both are in compute_s.
  double attention_s = 0;
  double layer_fixed_s = 0;
  double compute_s = 0;       // the roofline, layer by layer
  double tp_allreduce_s = 0;  // 2 per layer
  double ep_dispatch_s = 0, ep_combine_s = 0;  // 1 each per MoE layer
  double pp_send_s = 0;       // PP - 1 sends
  double kv_transfer_s = 0;   // disaggregated serving: the KV cache to the decode pool
  std::string bound;          // "memory" or "compute": which side of the roofline holds more time
  double total_s() const {
    return compute_s + tp_allreduce_s + ep_dispatch_s + ep_combine_s + pp_send_s + kv_transfer_s;
  }
};

struct InferComm {
  std::string phase;        // "prefill" or "decode"
  std::string parallelism;  // "tp", "ep", "pp"
  std::string collective;   // "all_reduce", "dispatch", "combine", "sendrecv"
  std::string how;          // algorithm or kernel
  double bytes = 0;         // per call (per rank)
  double call_s = 0;
  double calls = 0;         // per phase
  double total_s = 0;
  int64_t groups = 0;       // groups run at once to time it
};

struct InferResult {
  std::string model, gpu;
  InferLayout layout;
  int64_t gpus = 0;
  double ttft_s = 0, tpot_s = 0;
  double decode_context = 0;      // mean tokens in the KV cache over the decode steps
  double tokens_per_s = 0;        // output tokens per second of the instance (all attention groups)
  double tokens_per_s_per_gpu = 0;
  PhaseBreakdown prefill, decode;
  ServingMemory memory;
  std::vector<InferComm> comm;
  std::vector<std::string> notes;
};

struct InferCommMemo;  // inference/comm_memo.hpp

// Which phases' collectives to time: a caller that reads only one phase's total (continuous
// batching's iteration costs) leaves the other's out; the phase left out then has no collective
// time and no row in `comm`, and its compute is still priced.
enum class InferPhases { Both, Prefill, Decode };

// Throws InputError for a layout that does not fit the model or cluster, or a model and batch
// whose weights and KV cache do not fit the GPU's memory (with the arithmetic). `memo` (optional)
// keeps the collectives' timings across calls for one instance (inference/comm_memo.hpp).
InferResult run_inference(const Cluster& cluster, const Router& router, const ModelShape& model,
                          const InferLayout& layout, const InferOptions& options, const TrainingGpu& gpu,
                          InferCommMemo* memo = nullptr, InferPhases phases = InferPhases::Both);

}  // namespace gf
