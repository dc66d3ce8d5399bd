// Replay of a recorded job (replay/trace.hpp) on a cluster: every rank's DAG is run as recorded,
// compute nodes taking their recorded duration (divided by the GPU ratio), each collective's
// instance starting when the last of its group's ranks reaches it and lasting what the network
// model gives for that collective on those GPUs.
//
// As ASTRA-sim's workload layer runs a Chakra trace: one compute node at a time per rank (a GPU's
// compute stream; ready compute waits in ready order), communication beside it. Rank r runs on the
// cluster's GPU r. Collectives are matched across ranks as NCCL matches them: the k-th collective
// a rank issues on a process group (in its file's order) meets the k-th of every other member;
// the k-th send from a to b with tag t meets the k-th receive at b from a with tag t.
//
// Each distinct (collective, bytes, GPUs) is timed once, alone on the network model
// (training/group_collectives time_groups, NCCL's algorithm choice). Collectives whose spans
// overlap then run together from their start times, as a scenario's jobs do (replay/contention),
// and the replay is repeated with those durations until they settle (`contention`, default on).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "routing/router.hpp"
#include "topology/cluster.hpp"
#include "replay/trace.hpp"

namespace gf {

struct ReplayOptions {
  std::string network_model = "analytical";  // model/model_factory
  double gpu_ratio = 1.0;                    // target GPU speed / recorded GPU speed: compute time / ratio
  bool contention = true;                    // overlapping collectives share the fabric (false: each alone)
};

struct ReplayCommStats {
  std::string collective;  // nccl-tests' name ("all_reduce", ..., "sendrecv")
  int64_t calls = 0;       // per rank, summed over ranks
  double bytes = 0;        // summed over every rank's calls (nccl-tests' size)
  double recorded_s = 0;   // summed over ranks' nodes
  double simulated_s = 0;  // summed over ranks' nodes
};

struct ReplayResult {
  std::string format, source, network_model;
  int64_t ranks = 0, nodes = 0;
  double gpu_ratio = 1.0;
  double iteration_s = 0;                    // the last rank's end
  // The same with every collective at its time alone (the first replay, before contention):
  // iteration_s - uncontended_iteration_s is what contention between overlapping groups adds.
  double uncontended_iteration_s = 0;
  int64_t slowest_rank = 0;
  std::optional<double> recorded_iteration_s;  // the recording's span (start times present)
  double compute_s = 0;                      // per rank, mean (after the ratio)
  double recorded_compute_s = 0;
  std::vector<ReplayCommStats> comm;         // by collective, in nccl-tests' order
  int64_t timed = 0;                         // distinct collectives run on the network model
  std::vector<std::string> notes;
};

// Throws InputError (the file and node id) when ranks disagree on a collective, a send has no
// receive, the trace has more ranks than the cluster GPUs, or a group cannot form a communicator.
ReplayResult run_replay(const Cluster& cluster, const Router& router, const Trace& trace, const ReplayOptions& options);

}  // namespace gf
