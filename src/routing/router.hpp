// Routes between GPUs, as the hardware and NCCL's transport choose them.
//
// A route between two GPUs is, in order of preference:
//  1. scale-up: inside the two GPUs' servers and through NVLink-domain switches only (NVLink,
//     NVSwitch, xGMI, PCIe peer-to-peer, the CPUs for SYS paths), never through a NIC;
//  2. otherwise scale-out: from the source GPU to its nearest NIC inside its server, across the
//     fabric (network switches only) to a NIC nearest the destination GPU (the same rail when
//     one is equally near), then inside that server to the GPU.
// Equal cost means equal hop count; the number of equal-cost routes is the sum over equally short
// NIC pairings of the product of each segment's count. A deterministic per-flow hash picks one
// route the way switches do ECMP: at each hop, hash(flow key, node) picks among the next hops
// that stay on a shortest path. GPUs never forward; a server's internals carry only its own
// traffic.
//
// Each query runs a breadth-first search over the nodes a segment may use; the scale-out
// segment touches only fabric switches, so a query costs O(fabric) not O(cluster).
#pragma once

#include <cstdint>
#include <vector>

#include "routing/path.hpp"
#include "routing/route.hpp"
#include "topology/cluster.hpp"

namespace gf {

enum class SegmentKind : uint8_t { ScaleUp, InServer, Fabric };

struct RouteSegment {
  NodeId from, to;
  SegmentKind kind;
};

class Router {
 public:
  explicit Router(const Cluster& cluster);

  // The segments of each equally short way from GPU a to GPU b; empty when there is none.
  std::vector<std::vector<RouteSegment>> plans(NodeId a, NodeId b) const;
  // The overloads taking Plans reuse one plans() result: several questions about one pair cost
  // one set of searches.
  using Plans = std::vector<std::vector<RouteSegment>>;
  // Up to `limit` equal-cost routes from GPU a to GPU b, in a deterministic order.
  std::vector<Path> equal_cost_paths(NodeId a, NodeId b, size_t limit) const;
  std::vector<Path> equal_cost_paths(const Plans& plans, size_t limit) const;
  // How many equal-cost routes exist (a double: on large fat-trees it can exceed 2^64).
  double count_paths(NodeId a, NodeId b) const;
  double count_paths(const Plans& plans) const;
  // One route chosen by the per-flow hash; empty when no route exists.
  Path hashed_path(NodeId a, NodeId b, uint64_t flow_key) const;
  Path hashed_path(const Plans& plans, uint64_t flow_key) const;

  // How a transfer from GPU a to GPU b is carried: a scale-up route is sprayed over its
  // equal-cost paths (up to 64) in proportion to their bandwidth; a scale-out route is the one
  // path the per-flow hash picks. `nic_choice` >= 0 picks among equally near NIC pairings in turn
  // (NCCL spreads channels over a GPU's NICs) instead of by hash; the fabric path is still hashed.
  Route route(NodeId a, NodeId b, uint64_t flow_key, int nic_choice = -1) const;
  // From a GPU to the first network switch on its way out of the server (CollNet's uplink), and
  // from a GPU to the NVSwitch chips it is wired to (NVLS), each as legs sharing the bytes.
  Route uplink_to_fabric(NodeId gpu, uint64_t flow_key, int nic_choice = -1) const;
  Route links_to_nvswitch(NodeId gpu) const;

  const Cluster& cluster() const { return c_; }

 private:
  class Search;
  Search search(const RouteSegment& seg) const;
  const std::vector<int>& nearest_nics(NodeId gpu) const;

  const Cluster& c_;
  std::vector<std::vector<int>> nearest_nics_;  // by GPU position in the server: NIC template indices
};

}  // namespace gf
