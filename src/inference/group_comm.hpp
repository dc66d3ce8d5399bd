// A communicator over chosen cluster GPUs (by global index), for the inference step's groups:
// the servers they sit on and the positions they take on each, which must be the same positions
// on every server (as NCCL's algorithms assume).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "collective/communicator.hpp"

namespace gf {

// Throws InputError at `flag` when the group takes different positions on different servers.
Communicator infer_group_comm(const Cluster& c, const Router& router, const std::vector<int64_t>& gpus,
                              const std::string& flag);

}  // namespace gf
