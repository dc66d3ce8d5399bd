// The reference search of one route segment: a breadth-first search from the segment's
// destination backwards over the nodes the segment may use, O(nodes the segment may use) per
// search. Router uses it for scale-up segments, for counting and listing equal-cost routes, and as
// the fallback where its distance tables cannot hold a distance; tests use it to check the tables.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "routing/hop_distance.hpp"
#include "routing/path.hpp"
#include "routing/route_segment.hpp"
#include "topology/cluster.hpp"

namespace gf {

// Which nodes a segment may pass through: GPUs never forward; scale-up stays inside the two
// servers and NVLink-domain switches; in-server stays inside the source's server; fabric uses
// network switches and NIC ports (which lead somewhere only in direct fabrics, e.g. a torus port
// on to its server's router).
bool segment_may_use(const Cluster& c, const RouteSegment& seg, NodeId n);

class SegmentSearch {
 public:
  SegmentSearch(const Cluster& c, const RouteSegment& seg);

  bool reached() const { return dist_.count(seg_.from) > 0; }
  int hops() const { return reached() ? dist_.at(seg_.from) : -1; }
  // Hops left from n to the segment's end; kUnreached (hop_distance.hpp) where the search did not
  // get to n. Exact for every n no farther than the segment's start.
  int distance(NodeId n) const;
  // Next hops from n that stay on a shortest path, in link order.
  void next_hops(NodeId n, std::vector<LinkId>& out) const;
  // How many shortest routes (a double: it can exceed 2^64 on large fat-trees).
  double count() const;
  // Up to `limit` shortest routes, depth first in link order.
  void enumerate(size_t limit, std::vector<Path>& out) const;
  // The route the per-flow hash picks: at each node n, hash(key, n) among next_hops(n).
  Path hashed(uint64_t key) const;

 private:
  void walk(NodeId n, Path& cur, size_t limit, std::vector<Path>& out) const;

  const Cluster& c_;
  RouteSegment seg_;
  std::unordered_map<NodeId, int> dist_;
  std::vector<NodeId> order_;  // nodes by increasing distance
};

}  // namespace gf
