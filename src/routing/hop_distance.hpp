// What the fast route walks share: "hops left to the segment's end" as a function of the node,
// and the walk that follows it down, choosing among the next hops that stay on a shortest path.
#pragma once

#include <limits>
#include <vector>

#include "routing/path.hpp"
#include "topology/cluster.hpp"

namespace gf {

// The distance of a node the segment may not use, or from which its end cannot be reached.
constexpr int kUnreached = std::numeric_limits<int>::max();

// Appends to `out` the walk from `from` to `to` down `dist` (hops left, kUnreached off the
// segment; dist(from) must be finite). At each node n the candidates are n's out-links, in link
// order, whose far end is one hop nearer; `pick(n, candidates)` returns the index of the one taken.
// `scratch` holds the candidates (reused: no allocation once it has grown).
template <class Dist, class Pick>
void walk_down(const Cluster& c, NodeId from, NodeId to, const Dist& dist, Pick&& pick, std::vector<LinkId>& scratch,
               Path& out) {
  for (NodeId n = from; n != to;) {
    const int d = dist(n);
    scratch.clear();
    for (LinkId l : c.out_links(n))
      if (dist(c.link(l).dst) == d - 1) scratch.push_back(l);
    const LinkId l = scratch[pick(n, scratch)];
    out.links.push_back(l);
    n = c.link(l).dst;
  }
}

}  // namespace gf
