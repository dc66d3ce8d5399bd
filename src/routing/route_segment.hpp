// One segment of a route between two GPUs: scale-up (NVLink/NVSwitch/PCIe, no NIC), in-server
// (between a GPU and a NIC of its own server) or fabric (NIC to NIC over network switches).
#pragma once

#include <cstdint>

#include "topology/node.hpp"

namespace gf {

enum class SegmentKind : uint8_t { ScaleUp, InServer, Fabric };

struct RouteSegment {
  NodeId from, to;
  SegmentKind kind;
};

}  // namespace gf
