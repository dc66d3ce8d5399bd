// A training step (training/train_step's model of it) written out as a per-rank DAG: the trace
// `gpufabric train --emit-chakra DIR` writes and `train --step dag` replays in memory. For every
// rank of TP x PP x DP, its passes in the pipeline schedule's order (training/pipeline pass_order,
// chained so a stage runs one at a time), each pass a compute node per layer (training/compute
// layer_times) followed by the layer's TP collectives and, with EP, its all-to-alls; with ZeRO 3
// each layer's DP gathers and gradient reduce-scatter; PP receives before and sends after each pass
// to the neighbouring stage's rank of the same TP and DP index; the DP reduction in gradient
// buckets reduced during the last backward passes (`dp` in --overlap), or after the last pass;
// then the optimizer.
//
// Replayed on the same cluster it gives train's step time when train's own shortcuts are exact
// (docs/replay.md, "Round trip"): DP reduction not overlapped (`--overlap pp`), and groups of a
// kind that do not contend on the fabric. With `dp` in --overlap the buckets wait for their layers'
// gradients, where train hides the reduction behind the last backward passes from their start.
#pragma once

#include "replay/trace.hpp"
#include "topology/cluster.hpp"
#include "routing/router.hpp"
#include "training/train_step.hpp"

namespace gf {

// Throws InputError naming the flag for what the trace does not express yet: CP (--cp), TP overlap
// (--overlap tp), FP8 (--dtype) and stragglers (--straggler).
// `names` false leaves every node's name empty (replay matches and reports nodes by id): what
// `train --step dag` builds in memory, where a name's bytes would be most of a node's.
Trace training_trace(const Cluster& cluster, const Router& router, const ModelShape& model, const TrainLayout& layout,
                     const TrainOptions& options, const TrainingGpu& gpu, bool names = true);

}  // namespace gf
