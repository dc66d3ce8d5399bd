// How a training job is split over GPUs: tensor (TP), pipeline (PP, optionally interleaved into
// VPP model chunks per stage) and data (DP) parallelism, sequence parallelism, activation
// recompute, ZeRO stage, micro- and global batch; and where each rank sits on the cluster.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "training/model_shape.hpp"
#include "training/tp_overlap_cfg.hpp"

namespace gf {

enum class Recompute { None, Selective, Full };
enum class Attention { Flash, Unfused };
// How CP ranks obtain the sequence's K/V (Megatron-LM's --cp-comm-type, Transformer Engine's
// cp_comm_type): Ring ("p2p"), K/V chunks passed around a ring of the CP ranks beside the attention
// core; AllGather ("allgather" / "all_gather"), the whole K/V gathered before attention, exposed
// (TE's DotProductAttention docstring: "The all-gather is not async, and cannot be overlapped").
enum class CpComm { Ring, AllGather };  // fused flash-attention kernel, or Megatron's 2022 softmax + batched GEMMs

struct TrainLayout {
  int64_t tp = 1, pp = 1, dp = 1;
  // Expert parallelism: each MoE layer's routed experts are split over EP ranks taken from the DP
  // dimension (EP divides DP, as Megatron-Core forms expert-parallel groups inside data parallelism);
  // tokens reach their experts by an all-to-all dispatch and return by an all-to-all combine.
  int64_t ep = 1;
  // Context parallelism (Megatron-Core's context_parallel_size): every activation is split over CP
  // ranks along the sequence; attention gathers the sequence's K/V around a ring of the CP ranks.
  int64_t cp = 1;
  CpComm cp_comm = CpComm::Ring;
  int64_t vpp = 1;                 // model chunks per pipeline stage (interleaved 1F1B when > 1)
  // Uneven pipeline: layers on the first and last stage (Megatron's
  // --decoder-first-pipeline-num-layers / --decoder-last-pipeline-num-layers); -1: an even share.
  // 0 leaves that virtual stage only the embedding (first) or the output layer and loss (last), as
  // Llama 3's schedule does (Llama 3 paper, section 3.3.2). The other stages split the rest evenly.
  int64_t first_stage_layers = -1, last_stage_layers = -1;
  bool uneven() const { return first_stage_layers >= 0 || last_stage_layers >= 0; }
  bool sequence_parallel = false;  // TP's all-reduces become reduce-scatter + all-gather
  Recompute recompute = Recompute::None;
  int zero = 0;  // 0: replicated optimizer; 1: optimizer sharded over DP; 2: + gradients; 3: + weights
  int64_t micro_batch = 1;
  int64_t global_batch = 1;
  int64_t seq = 2048;
  std::string dtype = "bf16";  // matmul data type: bf16 or fp8
  Attention attention = Attention::Flash;
  bool overlap_dp = true;  // DP gradient reduction overlaps the last backward passes
  bool overlap_pp = true;  // PP sends run beside compute
  bool overlap_tp = false; // TP collectives split into chunks and overlapped with their GEMMs (training/overlap.hpp)
  // How userbuffers overlap each of them (--tp-comm-overlap-cfg; Transformer Engine's defaults unless given).
  TpOverlapCfg tp_overlap_cfg = te_default_tp_overlap_cfg();
  // Rank order: false, Megatron-Core's default "tp-cp-ep-dp-pp" (PP outermost); true, PP inside DP,
  // "tp-cp-pp-dp" (Megatron-LM's --use-tp-pp-dp-mapping; the order Llama 3 trained with, paper
  // section 3.3.2), which puts a pipeline's stages on neighbouring servers.
  bool pp_inside_dp = false;

  int64_t gpus() const { return tp * cp * pp * dp; }
  // Micro-batches per pipeline per step: global batch / (micro-batch x DP).
  int64_t microbatches() const { return global_batch / (micro_batch * dp); }
};

const char* to_string(Recompute r);
const char* to_string(Attention a);
const char* to_string(CpComm c);  // "ring", "all-gather" (the --cp-comm spellings)

// Checks the layout against the model and a cluster of `cluster_gpus` GPUs: every factor at least
// 1, TP x PP x DP at most the GPUs, TP divides heads and key/value heads, PP x VPP divides layers,
// micro-batch x DP divides the global batch, interleaving needs PP > 1 and micro-batches a
// multiple of PP. Throws InputError naming the flag and the valid choices.
void check_layout(const TrainLayout& l, const ModelShape& m, int64_t cluster_gpus);

// Megatron's default rank order (TP innermost, then CP, EP/DP, PP outermost; Megatron-Core's
// "tp-cp-ep-dp-pp"): the global rank of (tp, cp, dp, pp) is tp + TP (cp + CP (dp + DP pp)), and
// global rank g runs on the cluster's GPU g. With pp_inside_dp ("tp-cp-pp-dp"):
// tp + TP (cp + CP (pp + PP dp)). The EP group of a rank is the EP consecutive DP
// indices holding it (dp / EP x EP .. + EP - 1), so it is the innermost part of DP.
struct RankCoord {
  int64_t tp = 0, dp = 0, pp = 0, cp = 0;
};
int64_t global_rank(const TrainLayout& l, RankCoord c);
RankCoord coord_of(const TrainLayout& l, int64_t rank);
// The GPUs (cluster GPU indices) of one group: the TP group of (dp, pp), the DP group of (tp, pp).
std::vector<int64_t> tp_group(const TrainLayout& l, int64_t dp, int64_t pp, int64_t cp = 0);
std::vector<int64_t> dp_group(const TrainLayout& l, int64_t tp, int64_t pp, int64_t cp = 0);
std::vector<int64_t> ep_group(const TrainLayout& l, int64_t tp, int64_t dp, int64_t pp, int64_t cp = 0);
// The CP group of (tp, dp, pp): the ranks that hold the sequence's chunks and pass K/V around.
std::vector<int64_t> cp_group(const TrainLayout& l, int64_t tp, int64_t dp, int64_t pp);
// The ranks that reduce (and, with ZeRO, shard) one copy of the gradients: DP x CP, as Megatron-Core
// reduces gradients over its data-parallel group "with context parallel" (CP ranks hold the same
// weights and see different tokens). Equal to dp_group when CP is 1.
std::vector<int64_t> gradient_group(const TrainLayout& l, int64_t tp, int64_t pp);

// Layers of each virtual stage (chunk x PP + stage), in model order: an even share, or the uneven
// first and last stages of the layout with the rest split evenly.
std::vector<int64_t> stage_layer_counts(const ModelShape& m, const TrainLayout& l);

}  // namespace gf

namespace gf {

// "15T", "2.5e12", "300B" (tokens) or "1e24" (FLOPs): a positive count with an optional
// K/M/B/G/T/P suffix (powers of 1000; B = G = 1e9). Throws InputError at `flag`.
double parse_quantity(const std::string& text, const std::string& flag);

}  // namespace gf
