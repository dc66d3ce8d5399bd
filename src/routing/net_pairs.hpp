// NCCL's NET transport between two GPUs of one server leaves through the sender's NIC and enters
// through the receiver's; without a network between the NICs (a one-server cluster is built
// without one) that route does not exist, and going round through the CPU would not be NET. Both
// roads to P2P and SHM off (`perf --env`, a scenario job's `env:`) refuse such a cluster with this.
#pragma once

#include <cstdint>
#include <string>

#include "routing/router.hpp"

namespace gf {

// Why `r`'s cluster of `servers` servers cannot carry its NET pairs, or "" when it can.
std::string net_pairs_without_network(int64_t servers, const Router& r);

}  // namespace gf
