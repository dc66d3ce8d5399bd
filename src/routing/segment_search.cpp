#include "routing/segment_search.hpp"

#include "core/hash.hpp"

namespace gf {

bool segment_may_use(const Cluster& c, const RouteSegment& seg, NodeId n) {
  if (n == seg.from) return true;
  const Node& node = c.node(n);
  if (node.kind == NodeKind::Gpu) return false;
  switch (seg.kind) {
    case SegmentKind::ScaleUp:
      if (node.kind == NodeKind::Nic || node.kind == NodeKind::Switch) return false;
      return node.server == -1 || node.server == c.node(seg.from).server || node.server == c.node(seg.to).server;
    case SegmentKind::InServer:
      return node.kind != NodeKind::Nic && node.server == c.node(seg.from).server;
    case SegmentKind::Fabric:
      // Network switches; and other servers' NIC ports, which only lead somewhere in direct
      // fabrics (a torus port on to its server's router): in switched fabrics a NIC's other side
      // is its own server's PCIe, which this segment never enters.
      return (node.server == -1 && node.kind == NodeKind::Switch) || node.kind == NodeKind::Nic;
  }
  return false;
}

// Every link has a reverse twin, so out-links serve as in-links.
SegmentSearch::SegmentSearch(const Cluster& c, const RouteSegment& seg) : c_(c), seg_(seg) {
  std::vector<NodeId> frontier{seg.to}, next;
  dist_[seg.to] = 0;
  order_.push_back(seg.to);
  for (int d = 1; !frontier.empty() && !reached(); ++d) {
    next.clear();
    for (NodeId m : frontier) {
      for (LinkId l : c.out_links(m)) {
        NodeId p = c.link(l).dst;
        if (dist_.count(p) || !segment_may_use(c, seg, p)) continue;
        dist_[p] = d;
        order_.push_back(p);
        if (p != seg.from) next.push_back(p);  // the source is an end, never a transit
      }
    }
    std::swap(frontier, next);
  }
}

int SegmentSearch::distance(NodeId n) const {
  auto it = dist_.find(n);
  return it == dist_.end() ? kUnreached : it->second;
}

void SegmentSearch::next_hops(NodeId n, std::vector<LinkId>& out) const {
  out.clear();
  auto it = dist_.find(n);
  if (it == dist_.end()) return;
  for (LinkId l : c_.out_links(n)) {
    auto jt = dist_.find(c_.link(l).dst);
    if (jt != dist_.end() && jt->second == it->second - 1) out.push_back(l);
  }
}

double SegmentSearch::count() const {
  if (!reached()) return 0;
  std::unordered_map<NodeId, double> ways;
  ways[seg_.to] = 1;
  std::vector<LinkId> hops;
  for (NodeId n : order_) {  // increasing distance: every next hop is already counted
    if (n == seg_.to) continue;
    next_hops(n, hops);
    double w = 0;
    for (LinkId l : hops) w += ways[c_.link(l).dst];
    ways[n] = w;
  }
  return ways[seg_.from];
}

void SegmentSearch::enumerate(size_t limit, std::vector<Path>& out) const {
  if (!reached()) return;
  Path cur;
  walk(seg_.from, cur, limit, out);
}

Path SegmentSearch::hashed(uint64_t key) const {
  Path p;
  if (!reached()) return p;
  std::vector<LinkId> hops;
  for (NodeId n = seg_.from; n != seg_.to;) {
    next_hops(n, hops);
    LinkId l = hops[mix_hash(key, static_cast<uint64_t>(n)) % hops.size()];
    p.links.push_back(l);
    n = c_.link(l).dst;
  }
  return p;
}

void SegmentSearch::walk(NodeId n, Path& cur, size_t limit, std::vector<Path>& out) const {
  if (out.size() >= limit) return;
  if (n == seg_.to) {
    out.push_back(cur);
    return;
  }
  std::vector<LinkId> hops;
  next_hops(n, hops);
  for (LinkId l : hops) {
    cur.links.push_back(l);
    walk(c_.link(l).dst, cur, limit, out);
    cur.links.pop_back();
    if (out.size() >= limit) return;
  }
}

}  // namespace gf
