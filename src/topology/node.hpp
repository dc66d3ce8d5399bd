// Nodes and links of the cluster graph. Plain structs in flat arrays indexed by ids: the hot
// loops of the models walk these, so they stay small and allocation-free.
#pragma once

#include <cstdint>

#include "core/units.hpp"
#include "topology/link_tech.hpp"

namespace gf {

using NodeId = int32_t;
using LinkId = int32_t;
constexpr NodeId kNoNode = -1;

enum class NodeKind : uint8_t {
  Gpu,
  NvSwitch,    // NVSwitch chip, inside a server or in an NVLink Switch domain (NVL72)
  PcieSwitch,
  Cpu,         // a CPU socket's PCIe root complex (host bridge) with its NUMA id
  Nic,         // one scale-out network port
  Switch,      // network switch; Node::tier says leaf (1), spine (2), core (3)
};
const char* to_string(NodeKind k);

struct Node {
  NodeKind kind;
  int8_t tier = 0;      // network switch tier (1 leaf, 2 spine, 3 core); 0 otherwise
  int16_t numa = -1;    // NUMA node for CPUs and the devices under them; -1 if unknown/none
  int32_t server = -1;  // owning server; -1 for fabric-level nodes (network and domain switches)
  int32_t local = 0;    // index in the server template's node list, or among fabric nodes
  int32_t group = -1;   // NIC: rail; fabric switch: pod / plane / domain (builder-defined)
};

struct Link {
  NodeId src;
  NodeId dst;
  TechId tech;
  uint16_t lanes;       // bonded lanes (NVLinks) or parallel ports merged into one edge
  Bandwidth bandwidth;  // per direction, all lanes together
  Time latency;         // wire + destination port; a path's latency is the sum over its links
  LinkId reverse;       // the link going the other way (every link is added as a pair)
};

}  // namespace gf
