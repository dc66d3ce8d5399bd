// Collectives of a replay that are in flight at once, run together on the network model as a
// scenario's jobs are (engine/job_runner): one job per collective instance, starting at its own
// start time, all on one Model, so instances whose routes share links slow each other down as
// the model shares bandwidth. Each instance is built as training/group_collectives time_groups
// builds a group's call (NCCL's choice for that group, nccl-tests' sizes), so an instance that
// overlaps nothing takes exactly the time it takes alone.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "collective/collective.hpp"
#include "routing/router.hpp"
#include "topology/cluster.hpp"

namespace gf {

struct OverlapItem {
  CollectiveKind kind = CollectiveKind::AllReduce;
  int64_t bytes = 0;
  std::vector<int64_t> gpus;  // cluster GPU indices (a send/receive: source, destination)
  double start_s = 0;         // relative to the set's first start
};

// Seconds each item takes from its start to its end when all run together. Returns an empty
// vector, running nothing, when the items' schedules hold more than `transfer_budget` transfers
// in all (the caller keeps their times alone). Throws InputError (at `flag`) as time_groups does.
std::vector<double> time_together(const Cluster& cluster, const Router& router, const std::string& model,
                                  const std::vector<OverlapItem>& items, size_t transfer_budget,
                                  const std::string& flag = "--pg");

}  // namespace gf
