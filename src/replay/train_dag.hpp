// `gpufabric train --step dag`: the training step as one per-rank DAG of compute and collectives
// (replay/train_chakra training_trace, built in memory), run by the replay engine
// (replay/replay run_replay) on the same network model, so the collectives of different parallel
// groups and kinds that are in flight at once share the fabric (a TP all-gather beside a DP
// bucket on one GPU's NVLink, PP sends beside DP buckets on a NIC), which the composed step, timing
// each kind apart, does not charge. docs/training.md, "The step as one DAG".
#pragma once

#include "routing/router.hpp"
#include "topology/cluster.hpp"
#include "training/train_step.hpp"

namespace gf {

// Throws InputError naming the flag for what the DAG does not express yet (training_trace's list,
// and ZeRO 3 with `dp` in --overlap: FSDP's prefetch is not in the DAG).
DagStep run_training_dag(const Cluster& cluster, const Router& router, const ModelShape& model,
                         const TrainLayout& layout, const TrainOptions& options, const TrainingGpu& gpu);

}  // namespace gf
