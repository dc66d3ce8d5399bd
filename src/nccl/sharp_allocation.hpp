// Which communicators get an InfiniBand SHARP aggregation tree when several jobs ask at once.
//
// The switches hold few streaming-aggregation trees (NVIDIA SHARP Rev 3.13.0 release notes, "Device
// Capabilities and Limitations"): Quantum (HDR) one active tree per switch and 63 in the subnet,
// Quantum-2 (NDR) one per port and 511 in the subnet (SwitchModel::sharp_*). The aggregation
// manager grants trees as communicators are created, first come first served; a communicator
// whose CollNet setup fails runs without CollNet: NCCL's collNetTrySetup (NVIDIA/nccl
// src/init.cc) sets comm->collNetSupport = 0 on failure, and the tuner then picks among the
// other algorithms.
//
// What a job holds, as modelled: one tree per rail its ranks' NICs are on (NCCL's CollNet heads
// use a NIC per channel, each with its own SHARP communicator), holding every leaf those NICs are
// cabled to; where a tree spans several leaves, one uplink port on each of them and one switch
// above them all as its root (Quantum: a tier-2 switch no other job holds). Per switch (Quantum),
// a job's own trees may share a switch, two jobs may not. Per port (Quantum-2): a NIC's leaf port
// belongs to one tree, and a leaf's trees going up are at most its uplink ports. The subnet's
// limit counts trees.
#pragma once

#include <string>
#include <vector>

#include "collective/communicator.hpp"
#include "routing/router.hpp"
#include "topology/cluster.hpp"

namespace gf {

struct SharpRequest {
  std::string job;           // its name, for the reasons
  const Communicator* comm;  // comm->collnet: it could use CollNet at all
};

struct SharpGrant {
  bool granted = false;
  std::string why;  // when not granted: which resource another job holds, with the citation
};

// In the order given (the caller orders by start, then file order). A request whose communicator
// cannot use CollNet is not granted, with why saying so.
std::vector<SharpGrant> allocate_sharp(const Cluster& c, const Router& r, const std::vector<SharpRequest>& requests);

}  // namespace gf
