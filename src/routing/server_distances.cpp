#include "routing/server_distances.hpp"

#include "routing/route_segment.hpp"
#include "routing/segment_search.hpp"

namespace gf {

ServerDistances::ServerDistances(const Cluster& c) : c_(c), locals_(c.nodes_per_server()) {
  slot_.assign(static_cast<size_t>(locals_) * static_cast<size_t>(locals_), -1);
  if (c.servers() == 0) return;
  std::vector<int> ends = c.gpu_locals();
  ends.insert(ends.end(), c.nic_locals().begin(), c.nic_locals().end());
  std::vector<int> frontier, next;
  for (int from : ends)
    for (int to : ends) {
      const bool gpu_from = c.node(c.server_node(0, from)).kind == NodeKind::Gpu;
      const bool gpu_to = c.node(c.server_node(0, to)).kind == NodeKind::Gpu;
      if (gpu_from == gpu_to) continue;  // GPU to NIC or NIC to GPU only
      const RouteSegment seg{c.server_node(0, from), c.server_node(0, to), SegmentKind::InServer};
      slot_[static_cast<size_t>(from * locals_ + to)] = static_cast<int32_t>(dist_.size() / static_cast<size_t>(locals_));
      const size_t base = dist_.size();
      dist_.resize(base + static_cast<size_t>(locals_), -1);
      // Breadth first from `to` over the nodes the segment may use, never through `from`: the
      // same rule as SegmentSearch, run to the end rather than stopped at `from`.
      dist_[base + static_cast<size_t>(to)] = 0;
      frontier.assign(1, to);
      for (int16_t d = 1; !frontier.empty(); ++d) {
        next.clear();
        for (int m : frontier)
          for (LinkId l : c.out_links(c.server_node(0, m))) {
            const NodeId p = c.link(l).dst;
            if (c.node(p).server != 0 || !segment_may_use(c, seg, p)) continue;
            int16_t& dp = dist_[base + static_cast<size_t>(c.node(p).local)];
            if (dp >= 0) continue;
            dp = d;
            if (p != seg.from) next.push_back(c.node(p).local);
          }
        std::swap(frontier, next);
      }
    }
}

ServerDistances::View ServerDistances::toward(NodeId from, NodeId to) const {
  View v;
  const Node& a = c_.node(from);
  const Node& b = c_.node(to);
  if (a.server < 0 || a.server != b.server) return v;
  const int32_t slot = slot_[static_cast<size_t>(a.local * locals_ + b.local)];
  if (slot < 0) return v;
  v.c_ = &c_;
  v.table_ = dist_.data() + static_cast<size_t>(slot) * static_cast<size_t>(locals_);
  v.server_ = a.server;
  return v;
}

int ServerDistances::hops(NodeId from, NodeId to) const {
  View v = toward(from, to);
  if (!v.valid()) return SegmentSearch(c_, {from, to, SegmentKind::InServer}).hops();
  const int d = v(from);
  return d == kUnreached ? -1 : d;
}

}  // namespace gf
