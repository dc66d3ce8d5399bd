// A Path is the ordered links from a source node to a destination node.
#pragma once

#include <vector>

#include "topology/cluster.hpp"

namespace gf {

struct Path {
  std::vector<LinkId> links;
  bool empty() const { return links.empty(); }
};

// The slowest link's per-direction bandwidth (infinite for an empty path).
Bandwidth bottleneck(const Cluster& c, const Path& p);
// Sum of the links' latencies.
Time latency(const Cluster& c, const Path& p);

}  // namespace gf

namespace gf {
// The most bandwidth a to b can carry using only the links of `paths` (all from the same source
// to the same destination): a max-flow over their union, e.g. 4 NVSwitch routes of 5/4/4/5
// NVLink4 lanes give 450 GB/s. Meant for a handful to a few thousand paths, not a hot loop.
Bandwidth max_flow(const Cluster& c, const std::vector<Path>& paths);
}  // namespace gf
