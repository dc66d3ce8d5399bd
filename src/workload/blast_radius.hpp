// What a leaf switch or a spine link failing does to a job on this cluster, for `gpufabric
// goodput`: which of the job's servers each leaf cuts off, and how many leaf-spine cables its
// leaves hold. Read off the built graph, so that every fabric builder (rail-optimized, plain
// leaf-spine, fat-tree, ...) answers for itself. docs/failures.md.
#pragma once

#include <cstdint>
#include <vector>

#include "topology/cluster.hpp"

namespace gf {

struct FabricExposure {
  // Per leaf (tier-1 switch) cabled to at least one of the job's servers: the job's servers whose
  // every fabric NIC is cabled to that leaf alone. A leaf down cuts them off the fabric; a server
  // with a NIC on another leaf too (rail-optimized: one leaf per rail) keeps a path and is not.
  std::vector<int64_t> cut_off;
  // Cables from those leaves up to tier-2 switches: a spine link down is routed around (ECMP over
  // the rest), so it slows the job and does not stop it.
  int64_t spine_links = 0;
};

// The job holds servers [0, job_servers) of `cluster`.
FabricExposure fabric_exposure(const Cluster& cluster, int64_t job_servers);

}  // namespace gf
