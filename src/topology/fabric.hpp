// Scale-out fabric builders. Each kind (single switch, full mesh, leaf-spine, fat-tree,
// rail-optimized, dragonfly, torus, ...) is one FabricBuilder in fabrics/. A builder answers two
// questions from the same parameters: how much hardware the design needs (count(): works for
// designs far too large to build, such as a 200,000-GPU full mesh) and what the graph is
// (build()). Both must agree; tests check that they do on small designs.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/units.hpp"
#include "topology/link_tech.hpp"
#include "topology/node.hpp"

namespace gf {

class Cluster;

struct FabricSpec {
  std::string kind = "rail_optimized";  // a name from fabric_registry()
  std::string link;             // switch-to-switch technology; "" = the NICs' technology
  std::string switch_model;     // "" = the catalog default for `link`
  int switch_radix = 0;         // 0 = the switch model's radix
  // Clos fabrics (leaf_spine, fat_tree, rail_optimized): ports of every switch above the leaves
  // (spines, cores); 0 = switch_radix. Lets leaves of 32 ports sit under spines of 256, as a
  // leaf-spine of small top-of-rack switches and large chassis spines is built.
  int spine_radix = 0;
  // Forwarding latency of every switch of the fabric; unset = the switch model's. 0 makes links
  // carry their wire latency alone (a pure link-latency model, as SimGrid's platforms are).
  std::optional<Time> switch_latency;
  double oversubscription = 1;  // leaf tier: downlink bandwidth / uplink bandwidth (>= 1)
  double spine_oversubscription = 1;  // spine tier of a 3-tier design
  int tiers = 0;                // 0 = as few as the radix allows (2 while one spine layer suffices)
  int planes = 1;               // independent parallel fabrics, NICs spread over them
  // dragonfly
  int groups = 0;               // 0 = derived from the cluster size
  int routers_per_group = 0;
  int global_links_per_router = 0;
  // torus: sizes per dimension, product = servers (2 or 3 dimensions)
  std::vector<int> torus_dims;
  SourceLocation where;         // the YAML location of the `fabric:` block, for errors
};

// What a fabric is asked to connect: `servers` servers, each with `nics` scale-out ports.
struct FabricShape {
  int64_t servers = 0;
  int nics_per_server = 0;
  int gpus_per_server = 0;
  std::string nic_tech;    // catalog name of the NIC ports
  Bandwidth nic_bandwidth; // per port, per direction
};

struct TierCount {
  std::string name;          // "leaf", "spine", "core", "switch", "router", "none"
  int64_t switches = 0;
  int radix = 0;             // ports per switch of this tier
  int64_t ports_used = 0;    // over all switches of the tier
  double oversubscription = 1;  // down:up bandwidth of this tier (1 = non-blocking)
};

struct CableCount {
  std::string tech;
  std::string between;  // "nic-leaf", "leaf-spine", "gpu-gpu", ...
  int64_t count = 0;    // physical bidirectional cables
};

struct FabricCounts {
  std::vector<TierCount> tiers;
  std::vector<CableCount> cables;
  int64_t ports_per_endpoint = 1;  // network ports each NIC-side endpoint needs (mesh: servers-1)
  Bandwidth bisection;             // per direction, across the worst balanced cut of servers
  int max_switch_hops = 0;         // switches on the longest shortest path between two NICs
  int max_server_hops = 0;         // direct fabrics (mesh, torus): NIC-to-NIC links on the longest
                                   // shortest path between two servers; 0 for switched fabrics
  int64_t links_directed = 0;      // directed links build() would create (to decide whether to build)
};

// The technology of an endpoint that keeps the shape's (the first NIC's) technology.
constexpr TechId kShapeTech = static_cast<TechId>(-1);

// The NIC-side port the fabric plugs into.
struct FabricEndpoint {
  NodeId nic;
  int32_t server;
  int32_t rail;
  // This NIC's own port technology when it differs from FabricShape::nic_tech (a server whose
  // NICs are not all alike: one HDR port among NDR ones); kShapeTech otherwise.
  TechId tech = kShapeTech;
};

class FabricBuilder {
 public:
  virtual ~FabricBuilder() = default;
  virtual std::string name() const = 0;
  virtual std::string description() const = 0;
  virtual std::string source() const = 0;
  // Throws InputError (at spec.where) when the design cannot be built: radix exceeded, bad dims.
  virtual FabricCounts count(const FabricSpec& spec, const FabricShape& shape, const LinkCatalog& cat) const = 0;
  // Adds switches and links to `cluster`; endpoints are ordered by server, then rail.
  virtual void build(const FabricSpec& spec, const FabricShape& shape, const std::vector<FabricEndpoint>& endpoints,
                     Cluster& cluster) const = 0;
};

// Every built-in fabric kind, in the order `gpufabric list topologies` prints them.
const std::vector<std::unique_ptr<FabricBuilder>>& fabric_registry();
// Throws InputError with a did-you-mean at `where` for an unknown kind.
const FabricBuilder& find_fabric(const std::string& kind, const SourceLocation& where);

}  // namespace gf
