// A slow GPU in a training step (`gpufabric train ... --straggler server7/gpu3=0.8`, issue 21):
// the GPU computes at a fraction of its speed (thermal throttling, a bad HBM stack, a noisy
// neighbour). Its TP group waits for it at every synchronous TP collective, its pipeline stage's
// every compute phase is that much longer, and the DP reduction waits for the slowest pipeline,
// so the step is run with every compute phase of that stage (forward, backward, recompute,
// optimizer) divided by the fraction. Collectives keep their network time.
#pragma once

#include <cstdint>
#include <string>

#include "topology/cluster.hpp"

namespace gf {

struct GpuSlowdown {
  std::string name;    // as written ("server7/gpu3")
  int64_t gpu = 0;     // the cluster's GPU index: the job's global rank (Megatron's order, layout.hpp)
  double compute = 1;  // fraction of its compute speed kept, (0, 1]
};

// "serverS/gpuK=F" on `c`; throws InputError naming `flag` for a name that is not a GPU (with a
// did-you-mean) or a fraction outside (0, 1].
GpuSlowdown parse_gpu_slowdown(const Cluster& c, const std::string& flag, const std::string& text);

}  // namespace gf
