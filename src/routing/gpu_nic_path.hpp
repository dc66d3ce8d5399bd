// The NCCL path type between a GPU and a NIC of its server (src/include/graph.h PATH_*), as
// ncclTopoCheckGdr compares it with NCCL_NET_GDR_LEVEL: PIX through at most one PCIe switch, PXB
// through several, P2C into the GPU's CPU over NVLink-C2C and on to the NIC over PCIe, PHB
// through a CPU entered over PCIe (a host bridge), SYS across the CPUs' socket link.
#pragma once

#include "topology/cluster.hpp"

namespace gf {

// The type of the fewest-hop path from `gpu` to `nic` (same server) through the server's PCIe
// switches and CPUs (no other GPU, no other NIC); PIX for a NIC port on the GPU itself; SYS where
// no such path exists.
int gpu_nic_path_type(const Cluster& c, NodeId gpu, NodeId nic);

}  // namespace gf
