// How much of a collective a GEMM (or the attention core) hides when the two run side by side, as
// Megatron-Core with Transformer Engine runs them:
//  - TP communication overlap (`--tp-comm-overlap`, Transformer Engine's userbuffers): each TP
//    all-gather or reduce-scatter next to a linear layer is split into chunks that alternate with
//    chunks of its GEMM. TE's default methods (transformer_engine/pytorch/module/base.py,
//    initialize_ub): "ring_exchange" (TP chunks, the local one first) for the all-gathers before
//    QKV and FC1 in the forward and before the projection's and FC2's data-gradient GEMMs;
//    "pipeline" (4 splits) for the reduce-scatters after the projection and FC2 in the forward;
//    "bulk" (the whole collective beside an independent GEMM) for the backward's all-gather of the
//    norm's output (beside the data-gradient GEMM) and reduce-scatter of the data gradient (beside
//    the weight-gradient GEMM) of QKV and FC1.
//  - Context parallelism's K/V ring (Megatron-Core context_parallel docs; Transformer Engine's
//    attention with CP, p2p): CP - 1 exchanges, each beside one block of the attention core.
// Each function returns the collective's exposed time: how much longer the pair takes than the
// GEMM alone. The SMs TE's pipelined and bulk kernels take from their GEMM are `stretch` in
// tp_overlap_exposed (training/sm_contention.hpp).
#pragma once

#include <algorithm>
#include <cstdint>

#include "training/compute.hpp"
#include "training/tp_overlap_cfg.hpp"

namespace gf {

// All-gather of `comm_s` by ring exchange feeding a GEMM of `gemm_s`, in n chunks: GEMM chunk k
// needs chunk k, which arrives after k exchanges of comm_s / (n - 1); chunk 0 is local. The pair
// ends at max over k of (k c + (n - k) g), so the exposed time is max(0, comm_s - (n-1)/n gemm_s).
double ring_exchange_exposed(double comm_s, double gemm_s, int64_t n);
// A GEMM of `gemm_s` whose output is reduce-scattered in `splits` pipelined chunks: chunk k's
// reduce-scatter starts when its GEMM chunk and the previous reduce-scatter are done. The last
// chunk's reduce-scatter always follows the GEMM, so at least comm_s / splits is exposed:
// max(comm_s / splits, comm_s - (splits-1)/splits gemm_s).
double pipelined_exposed(double comm_s, double gemm_s, int64_t splits);
// A collective beside an independent GEMM: max(0, comm_s - gemm_s).
double bulk_exposed(double comm_s, double gemm_s);

// Megatron's default DP gradient bucket: max(40M, 1M x DP) parameters (megatron/core/distributed,
// DistributedDataParallelConfig.bucket_size). Buckets are reduced as the backward fills them; the
// last one after the last backward (train's exposed minimum; the step's DAG, replay/train_chakra).
inline double dp_bucket_parameters(int64_t dp) { return std::max(40e6, 1e6 * static_cast<double>(dp)); }

// TE's default for the reduce-scatter pipeline ("pipeline" method, num_splits 4).
constexpr int64_t kTePipelineSplits = 4;

struct TpExposed {
  double forward_s = 0, backward_s = 0;  // per layer per micro-batch
  // What the GEMMs beside pipelined and bulk collectives take longer on the SMs those leave them
  // (stretch - 1 of each such GEMM): compute, charged as SM contention.
  double forward_sm_s = 0, backward_sm_s = 0;
};
// One layer's TP collectives under --overlap tp (sequence parallelism: all-gathers of `ag_s` and
// reduce-scatters of `rs_s`, each one call's time) against the layer's GEMMs `t`, TP = `tp`:
// forward 2 all-gathers (ring exchange, TP chunks) and 2 reduce-scatters (pipelined); backward
// 4 all-gathers (2 ring exchange, 2 bulk) and 2 reduce-scatters (bulk). The GEMMs beside the
// pipelined and bulk collectives (the forward's projection and FC2; the backward's data- and
// weight-gradient GEMMs of FC1 and QKV) take `stretch` x their time (S / (S - 16) on a GPU of S SMs,
// sm_stretch), which also hides more of the collective; ring exchange leaves its GEMM every SM.
TpExposed tp_overlap_exposed(double ag_s, double rs_s, const LayerTimes& t, int64_t tp, double stretch = 1.0);
// The same with the GEMMs as userbuffers split them (compute.hpp, tp_split_gemm_times): the
// forward's four and the backward's two ring-exchange GEMMs from `split`, the backward's bulk
// GEMMs (QKV's and FC1's, unsplit) from `whole`. The form above is this one with nothing split.
TpExposed tp_overlap_exposed(double ag_s, double rs_s, const TpSplitGemms& split, const LayerTimes& whole, int64_t tp,
                             double stretch);

// One userbuffers entry (tp_overlap_cfg.hpp) pricing its collective of `comm_s` beside its GEMM of
// `gemm_s` (as split, unstretched): `exposed` as the method leaves it (ring exchange, before or
// after its GEMM: max(0, c - (TP-1)/TP g), the reduce-scatter's TP-1 sends each beside the next
// chunk's GEMM; pipeline: pipelined_exposed with the entry's num_splits; bulk: bulk_exposed), and
// `sm_s`, the compute its SMs cost: with set_sm_margin the GEMM runs on S - num_sm SMs throughout
// (stretched by sm_stretch, which also hides more); without, a pipeline or bulk kernel holds
// num_sm SMs while it runs hidden (sm_contention_s), and ring exchange, on the copy engines
// (TE's "use_ce": true), holds none.
struct UbCost {
  double exposed_s = 0, sm_s = 0;
};
UbCost ub_slot_cost(const UbSlot& slot, double comm_s, double gemm_s, int64_t tp, int sms);
// The layer's TP collectives under `cfg`, entry by entry, on a GPU of `sms` SMs (0: unknown, no SM
// cost): forward qkv_fprop, proj_fprop, fc1_fprop, fc2_fprop; backward fc2_dgrad, fc1_dgrad,
// fc1_wgrad, proj_dgrad, qkv_dgrad, qkv_wgrad. With TE's defaults this is the form above with
// stretch = sm_stretch(16, sms).
TpExposed tp_overlap_exposed(double ag_s, double rs_s, const TpSplitGemms& split, const LayerTimes& whole, int64_t tp,
                             const TpOverlapCfg& cfg, int sms);

// Context parallelism's ring: a rank computes attention on the K/V block it holds while the next
// one arrives; CP blocks of attn_s / CP, CP - 1 exchanges of comm_s / (CP - 1), the local block
// first: exposed max(0, comm_s - (CP-1)/CP attn_s), the ring-exchange form with n = CP.
double cp_ring_exposed(double comm_s, double attn_s, int64_t cp);

}  // namespace gf
