// One training step of a model under a layout on a cluster: compute priced by the GPU's roofline
// (training/compute), collectives of every parallel group timed on the cluster's network model
// (training/group_collectives), and the pipeline schedule run pass by pass
// (training/pipeline), so the bubble and the exposed communication emerge from the schedule.
//
// What is simulated and what is replicated (said in the output's notes):
//  - TP collectives lie inside a server when TP divides its GPUs: the TP groups of server 0 are
//    run and every server's are alike (servers do not share NVLink); otherwise all TP groups run.
//  - PP sends of every neighbouring stage pair and the DP reductions of every DP group run at
//    once, so groups that share the fabric contend.
//  - Every pipeline runs the same schedule, so one pipeline's passes are simulated (exact: DP
//    replicas have the same work and meet only in the DP reduction, timed with all groups).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "routing/router.hpp"
#include "topology/cluster.hpp"
#include "training/compute.hpp"
#include "training/gpu_catalog.hpp"
#include "training/group_collectives.hpp"
#include "training/layout.hpp"
#include "training/memory.hpp"
#include "training/model_shape.hpp"
#include "training/straggler.hpp"
#include "training/train_timeline.hpp"

namespace gf {

// How one kind of parallel group's collective is timed: all groups of the kind, the collective,
// its size and the flag naming the parallelism in errors.
using GroupTimer = std::function<GroupTiming(const std::vector<std::vector<int64_t>>& groups, CollectiveKind kind,
                                             Bytes bytes, const std::string& flag)>;

struct TrainOptions {
  std::string network_model = "flow";  // analytical | flow | packet (model/model_factory)
  // Empty: every group of the kind runs on `network_model` (time_groups). The layout search sets a
  // closed form here to rank many layouts cheaply (training/closed_form_network.hpp).
  GroupTimer timer;
  Efficiency efficiency = default_efficiency();
  std::optional<double> tokens;  // --tokens: report days to train
  std::optional<double> flops;   // --flops: the same from a compute budget
  // --straggler: slow GPUs; each slows every compute phase of its pipeline stage (straggler.hpp).
  std::vector<GpuSlowdown> slow_gpus;
  // --trace: when set, run_training fills it with the step as scheduled (train_timeline.hpp).
  TrainTimeline* timeline = nullptr;
};

struct CommSummary {
  std::string parallelism;  // "tp", "cp", "ep", "pp", "dp"
  std::string collective;   // "all_reduce", "reduce_scatter + all_gather", "sendrecv"
  std::string algorithm;    // the tuner's choice
  double bytes = 0;         // per call, nccl-tests' size
  double call_s = 0;        // one call, all groups at once
  double calls = 0;         // per step on one GPU
  double total_s = 0;       // calls x call_s
  double exposed_s = 0;     // on the critical stage's timeline
  int64_t groups = 0;       // groups run at once to time it
};

struct TrainBreakdown {
  double forward_s = 0, backward_s = 0, recompute_s = 0;  // compute on the critical stage
  double tp_exposed_s = 0;                                // TP collectives (on the critical path of each pass)
  double ep_exposed_s = 0;  // EP all-to-alls (dispatch and combine, on the critical path of each MoE layer)
  double cp_exposed_s = 0;  // CP's K/V ring not hidden behind the attention core
  double pp_bubble_s = 0;   // the critical stage's idle time inside the pipeline (incl. waiting for sends)
  double pp_send_s = 0;     // blocking PP sends (only without PP overlap)
  double dp_exposed_s = 0;  // gradient reduction not hidden behind the last backward passes
  // Compute left over because overlapped communication kernels held SMs beside it: the hidden DP
  // reduction, ZeRO 3's overlapped calls, CP's ring, PP sends, TE's TP overlap (training/sm_contention.hpp)
  double sm_contention_s = 0;
  double optimizer_s = 0;
};

// `train --step dag`: the same step as one per-rank DAG (replay/train_chakra) replayed on the
// network model with every group's collectives in flight together (replay/train_dag.hpp).
struct DagStepCollective {
  std::string collective;   // nccl-tests' name
  double calls = 0;         // per rank, mean over ranks
  double simulated_s = 0;   // per rank, mean over ranks, as replayed (with contention)
};

struct DagStep {
  double step_time_s = 0;      // the DAG's step: its last rank's end, collectives contending
  double uncontended_s = 0;    // the same DAG with every collective at its time alone
  double contention_s = 0;     // step_time_s - uncontended_s: what overlapping groups cost each other
  int64_t ranks = 0, nodes = 0, slowest_rank = 0;
  std::vector<DagStepCollective> comm;
  std::vector<std::string> notes;
};

struct TrainResult {
  std::string model, gpu;
  TrainLayout layout;
  int64_t gpus = 0, microbatches = 0;
  double step_time_s = 0;
  double tokens_per_step = 0, tokens_per_s = 0;
  double model_flops = 0, hardware_flops = 0;   // per step, whole job
  double mfu = 0, hfu = 0, tflops_per_gpu = 0;  // tflops_per_gpu: model FLOPs per GPU per second
  double peak_tflops = 0;
  int64_t critical_stage = 0;
  TrainBreakdown breakdown;
  std::vector<CommSummary> comm;
  MemoryUse memory;
  double memory_capacity = 0;  // bytes; 0 when unknown
  std::optional<double> days;  // with --tokens or --flops
  std::vector<std::string> notes;
  std::optional<DagStep> dag;  // --step dag (filled by the caller, replay/train_dag.hpp)
};

// Throws InputError (the flag and valid choices) for a layout that does not fit the model or the
// cluster, or a model that does not fit the GPU's memory.
TrainResult run_training(const Cluster& cluster, const Router& router, const ModelShape& model,
                         const TrainLayout& layout, const TrainOptions& options, const TrainingGpu& gpu);

}  // namespace gf
