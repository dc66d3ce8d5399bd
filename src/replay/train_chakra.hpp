// A training step (training/train_step's model of it) written out as a per-rank DAG, the trace
// `gpufabric train --emit-chakra DIR` writes: for every rank of TP x PP x DP, its passes in the
// pipeline schedule's order (training/pipeline pass_order, chained so a stage runs one at a time),
// each pass a compute node per layer (training/compute layer_times) followed by the layer's TP
// collectives, PP receives before and sends after each pass to the neighbouring stage's rank of
// the same TP and DP index, and after the last pass the DP reduction and the optimizer.
//
// Replayed on the same cluster it gives train's step time when train's own shortcuts are exact
// (docs/replay.md, "Round trip"): DP reduction not overlapped (`--overlap pp`; with dp in
// --overlap the trace keeps the reduction after the last backward, as a DAG cannot express
// train's bucket window), and groups of a kind that do not contend on the fabric.
#pragma once

#include "replay/trace.hpp"
#include "topology/cluster.hpp"
#include "routing/router.hpp"
#include "training/train_step.hpp"

namespace gf {

// Throws InputError for what the trace does not express yet: EP (--ep > 1) and ZeRO 3.
Trace training_trace(const Cluster& cluster, const Router& router, const ModelShape& model, const TrainLayout& layout,
                     const TrainOptions& options, const TrainingGpu& gpu);

}  // namespace gf
