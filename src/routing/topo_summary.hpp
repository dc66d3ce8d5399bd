// What `gpufabric topo CLUSTER` reports: hardware counts from the builders' parameters (so they
// exist for designs too large to build) plus, when the graph is built, sample GPU-to-GPU routes.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "routing/router.hpp"
#include "topology/cluster_spec.hpp"

namespace gf {

struct RouteSample {
  std::string from, to;      // GPU names
  std::string relation;      // "in server", "through leaf", "through spine", ...
  int links = 0;             // links on one route
  int switch_hops = 0;       // network / NVLink-domain switches on one route
  double equal_cost = 0;     // number of equal-cost routes
  Bandwidth route_bottleneck;  // slowest link of one route
  Bandwidth aggregate;       // max-flow over the equal-cost routes (up to 1024 of them)
  Time latency;              // sum of link latencies along one route
};

// NICs of one technology in a server (a server may mix them: one HDR port among NDR ones).
struct NicGroup {
  std::string tech;
  int per_server = 0;
  Bandwidth bandwidth;  // per port, per direction
};

struct TopoSummary {
  std::string name, description, source;
  std::string server_name, gpu_model, gpu_arch;
  std::string fabric_kind, fabric_link, switch_model;
  ClusterCounts counts;
  Bandwidth nic_bandwidth_per_gpu;   // scale-out bandwidth per GPU, per direction (all NICs summed)
  std::vector<NicGroup> nic_groups;  // per technology, in the server's NIC order of first use
  bool built = false;
  std::string not_built_reason;        // why no routes are shown
  std::vector<RouteSample> routes;     // distinct route classes from gpu0
};

// `cluster` may be null (too large to build): counts only.
TopoSummary summarize(const ClusterSpec& spec, const Cluster* cluster);
// One route class between two GPUs (also used by `topo --path`).
// `tier_names` names switch tiers 1, 2, ... ("leaf", "spine") as the fabric's counts do.
RouteSample sample_route(const Router& r, NodeId a, NodeId b, const std::vector<std::string>& tier_names);

}  // namespace gf
