// The ranks of one collective and what the algorithms need to know about where they sit: which
// server each rank is on, how the ranks of a server are joined (NVLink/NVSwitch or PCIe), whether
// in-network reduction is available (NVLS on NVSwitch, SHARP on the fabric), the per-GPU intra- and
// inter-server bandwidths, and the ring order NCCL would pick. Built once per (cluster, rank set).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "collective/schedule.hpp"
#include "routing/router.hpp"
#include "topology/cluster.hpp"

namespace gf {

struct Communicator {
  const Cluster* cluster = nullptr;
  int nranks = 0;
  int nnodes = 0;  // servers taking part
  int ppn = 0;     // ranks per server (the same on every server)
  std::vector<NodeId> gpu;    // rank -> GPU node
  std::vector<int> node_of;   // rank -> server index within the communicator, 0..nnodes-1
  std::vector<int> local_of;  // rank -> position within its server, 0..ppn-1
  std::string arch;           // GPU architecture ("hopper", ...), selects NCCL's per-arch constants

  bool nvlink = false;   // the ranks of a server reach each other over NVLink/xGMI (not PCIe)
  bool nvswitch = false; // ... through NVSwitch chips (in the server or an NVLink domain)
  bool nvls = false;     // those NVSwitch chips reduce in the switch (NVLink SHARP)
  bool collnet = false;  // the scale-out switches reduce in the network (InfiniBand SHARP)
  bool one_domain = false;  // every rank is in one scale-up domain (one server or one NVL72)

  Bandwidth intra_bw;  // per GPU, per direction, to the other GPUs of its server (max-flow)
  Bandwidth inter_bw;  // per GPU, per direction, out of the server (its share of the NICs)

  Rank rank(int node, int local) const { return node * ppn + local; }
  // The order of ranks around channel c's ring: NVLink neighbours inside a server, servers in
  // order, each server's local order alternating direction so that every server-to-server hop
  // leaves and enters on the same rail (rotated by c so channels spread over the rails).
  std::vector<Rank> ring(int channel) const;
  // How many different rings ring() cycles through (more than 1 only on a direct GPU mesh); a
  // channel count that is a multiple of it loads every ring's links equally.
  int distinct_rings() const;
};

// Ranks are GPU positions 0..gpus_per_node-1 of servers 0..nodes-1, numbered node-major as
// nccl-tests with one process per GPU does. Throws InputError if the cluster is too small.
Communicator make_communicator(const Cluster& cluster, const Router& router, int nodes, int gpus_per_node);

// Ranks on chosen servers (a job placed on part of a cluster): GPU positions `locals` (0-based,
// within a server) of each server in `servers`, numbered server-major in the order given. Every
// server contributes the same positions, as NCCL's algorithms assume the same ranks per node.
// Servers of one NVLink domain form one communicator node only when the list takes whole domains
// in blocks (as the count-based overload does for servers 0..nodes-1). Throws InputError for an
// empty, out-of-range or repeated server or position.
Communicator make_communicator(const Cluster& cluster, const Router& router, std::span<const int64_t> servers,
                               std::span<const int> locals);

}  // namespace gf
