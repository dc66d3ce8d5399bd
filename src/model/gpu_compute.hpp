// A slow GPU's compute fraction as every network model takes it (`perf --degrade serverS/gpuK=F`,
// a scenario's `compute:` event): one check, so the flow, analytical and packet models refuse the
// same inputs with the same words.
#pragma once

#include "topology/cluster.hpp"

namespace gf {

// Throws std::invalid_argument unless `fraction` is in (0, 1] and `gpu` names a GPU of `cluster`.
void check_gpu_compute(const Cluster& cluster, NodeId gpu, double fraction);

}  // namespace gf
