// Collective times of a training step's parallel groups, measured on the cluster's network model:
// every group of one kind (all DP groups, all PP neighbour pairs) runs its collective at once as
// jobs of one engine run (engine/job_runner), so groups that share links slow each other as they
// do in a real step. The algorithm and protocol are chosen once, as NCCL would for the first group
// (nccl/tuner), and used by every group of that kind (they have the same shape).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "collective/collective.hpp"
#include "collective/communicator.hpp"
#include "routing/router.hpp"
#include "topology/cluster.hpp"

namespace gf {

struct GroupTiming {
  double seconds = 0;     // from the start until the last group's call ended
  std::string algorithm;  // the tuner's choice, "ring/simple"
  int64_t groups = 0;     // how many groups ran at once
  int64_t of_groups = 0;  // how many groups there are (more than `groups` under the shortcut)
  int channels = 0;       // the tuner's NCCL channels: one thread block, so one SM, each
};

// Above this many transfers over all groups, only the first group is run and stands for all: a
// shortcut, exact when the groups' routes share no link (e.g. DP groups on different rails of a
// rail-optimized fabric), optimistic when they contend. The output says when it was taken.
constexpr size_t kGroupTransferBudget = 200'000;

// A communicator over chosen cluster GPUs (global indices): the servers they sit on and the
// positions they take on each, which must be the same on every server (as NCCL's algorithms
// assume); otherwise InputError at `flag` ("--tp"). Training's and serving's groups alike.
Communicator group_communicator(const Cluster& c, const Router& router, const std::vector<int64_t>& gpus,
                                const std::string& flag);

// `groups`: cluster GPU indices of each group (each group lays the same GPU positions on each of
// its servers, as NCCL's algorithms assume). `flag` names the parallelism in errors ("--tp").
// Throws InputError when a group cannot form a communicator.
GroupTiming time_groups(const Cluster& cluster, const Router& router, const std::string& model,
                        const std::vector<std::vector<int64_t>>& groups, CollectiveKind kind, Bytes bytes,
                        const std::string& flag, size_t transfer_budget = kGroupTransferBudget);

}  // namespace gf
