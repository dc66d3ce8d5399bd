#include "routing/router.hpp"

#include <algorithm>
#include <unordered_map>

#include "core/hash.hpp"

namespace gf {

// Breadth-first search from a segment's destination backwards over the nodes the segment may
// use; every link has a reverse twin, so out-links serve as in-links.
class Router::Search {
 public:
  Search(const Cluster& c, const RouteSegment& seg) : c_(c), seg_(seg) {
    sa_ = c.node(seg.from).server;
    sb_ = c.node(seg.to).server;
    std::vector<NodeId> frontier{seg.to}, next;
    dist_[seg.to] = 0;
    order_.push_back(seg.to);
    for (int d = 1; !frontier.empty() && !reached(); ++d) {
      next.clear();
      for (NodeId m : frontier) {
        for (LinkId l : c.out_links(m)) {
          NodeId p = c.link(l).dst;
          if (dist_.count(p) || !usable(p)) continue;
          dist_[p] = d;
          order_.push_back(p);
          if (p != seg.from) next.push_back(p);  // the source is an end, never a transit
        }
      }
      std::swap(frontier, next);
    }
  }

  bool reached() const { return dist_.count(seg_.from) > 0; }
  int hops() const { return reached() ? dist_.at(seg_.from) : -1; }

  // Next hops from n that stay on a shortest path, in link order.
  void next_hops(NodeId n, std::vector<LinkId>& out) const {
    out.clear();
    auto it = dist_.find(n);
    if (it == dist_.end()) return;
    for (LinkId l : c_.out_links(n)) {
      auto jt = dist_.find(c_.link(l).dst);
      if (jt != dist_.end() && jt->second == it->second - 1) out.push_back(l);
    }
  }

  double count() const {
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

  void enumerate(size_t limit, std::vector<Path>& out) const {
    if (!reached()) return;
    Path cur;
    walk(seg_.from, cur, limit, out);
  }

  Path hashed(uint64_t key) const {
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

 private:
  bool usable(NodeId n) const {
    if (n == seg_.from) return true;
    const Node& node = c_.node(n);
    if (node.kind == NodeKind::Gpu) return false;
    switch (seg_.kind) {
      case SegmentKind::ScaleUp:
        if (node.kind == NodeKind::Nic || node.kind == NodeKind::Switch) return false;
        return node.server == -1 || node.server == sa_ || node.server == sb_;
      case SegmentKind::InServer:
        return node.kind != NodeKind::Nic && node.server == sa_;
      case SegmentKind::Fabric:
        // Network switches; and other servers' NIC ports, which only lead somewhere in direct
        // fabrics (a torus port on to its server's router): in switched fabrics a NIC's other side
        // is its own server's PCIe, which this segment never enters.
        return (node.server == -1 && node.kind == NodeKind::Switch) || node.kind == NodeKind::Nic;
    }
    return false;
  }

  void walk(NodeId n, Path& cur, size_t limit, std::vector<Path>& out) const {
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

  const Cluster& c_;
  RouteSegment seg_;
  int32_t sa_, sb_;
  std::unordered_map<NodeId, int> dist_;
  std::vector<NodeId> order_;
};

Router::Router(const Cluster& cluster) : c_(cluster) {
  // The NICs nearest each GPU position, found once on server 0: every server has the same template.
  for (int g : c_.gpu_locals()) {
    NodeId gpu = c_.server_node(0, g);
    int best = -1;
    std::vector<int> nics;
    for (int nic : c_.nic_locals()) {
      Search s(c_, {c_.server_node(0, nic), gpu, SegmentKind::InServer});
      if (!s.reached()) continue;
      if (best < 0 || s.hops() < best) best = s.hops(), nics.clear();
      if (s.hops() == best) nics.push_back(nic);
    }
    nearest_nics_.push_back(nics);
  }
}

Router::Search Router::search(const RouteSegment& seg) const { return Search(c_, seg); }

const std::vector<int>& Router::nearest_nics(NodeId gpu) const {
  int local = c_.node(gpu).local;
  auto pos = std::find(c_.gpu_locals().begin(), c_.gpu_locals().end(), local) - c_.gpu_locals().begin();
  return nearest_nics_[static_cast<size_t>(pos)];
}

std::vector<std::vector<RouteSegment>> Router::plans(NodeId a, NodeId b) const {
  std::vector<std::vector<RouteSegment>> out;
  if (a == b) return out;
  RouteSegment up{a, b, SegmentKind::ScaleUp};
  if (search(up).reached()) return {{up}};
  int sa = c_.node(a).server, sb = c_.node(b).server;
  const auto& nodes = c_.server_template().nodes;
  // The shortest NIC pairings; same-rail pairs win ties (NCCL pairs GPUs rail to rail).
  auto best_pairs = [&](const std::vector<int>& src_nics, const std::vector<int>& dst_nics) {
    std::vector<std::vector<RouteSegment>> found;
    int best = -1;
    bool best_same_rail = false;
    for (int src_nic : src_nics)
      for (int dst_nic : dst_nics) {
        NodeId sn = c_.server_node(sa, src_nic), dn = c_.server_node(sb, dst_nic);
        Search fab = search({sn, dn, SegmentKind::Fabric});
        if (!fab.reached()) continue;
        int first = search({a, sn, SegmentKind::InServer}).hops(), last = search({dn, b, SegmentKind::InServer}).hops();
        if (first < 0 || last < 0) continue;
        int hops = first + fab.hops() + last;
        bool same_rail = nodes[src_nic].rail == nodes[dst_nic].rail;
        if (best >= 0 && (hops > best || (hops == best && best_same_rail && !same_rail))) continue;
        if (best < 0 || hops < best || (same_rail && !best_same_rail)) found.clear();
        best = hops;
        best_same_rail = same_rail;
        found.push_back({{a, sn, SegmentKind::InServer}, {sn, dn, SegmentKind::Fabric}, {dn, b, SegmentKind::InServer}});
      }
    return found;
  };
  out = best_pairs(nearest_nics(a), nearest_nics(b));
  // No fabric path between the nearest NICs (e.g. they sit on different planes): any NIC pair.
  if (out.empty()) out = best_pairs(c_.nic_locals(), c_.nic_locals());
  return out;
}

std::vector<Path> Router::equal_cost_paths(NodeId a, NodeId b, size_t limit) const {
  return equal_cost_paths(plans(a, b), limit);
}

std::vector<Path> Router::equal_cost_paths(const Plans& ps, size_t limit) const {
  std::vector<Path> out;
  for (const auto& plan : ps) {
    // Cartesian product of the segments' routes, bounded by `limit`.
    std::vector<Path> partial{Path{}};
    for (const auto& seg : plan) {
      std::vector<Path> routes;
      search(seg).enumerate(limit, routes);
      std::vector<Path> next;
      for (const auto& p : partial)
        for (const auto& r : routes) {
          if (next.size() >= limit) break;
          Path q = p;
          q.links.insert(q.links.end(), r.links.begin(), r.links.end());
          next.push_back(std::move(q));
        }
      partial = std::move(next);
    }
    for (auto& p : partial) {
      if (out.size() >= limit) return out;
      out.push_back(std::move(p));
    }
  }
  return out;
}

double Router::count_paths(NodeId a, NodeId b) const { return count_paths(plans(a, b)); }

double Router::count_paths(const Plans& ps) const {
  double total = 0;
  for (const auto& plan : ps) {
    double prod = 1;
    for (const auto& seg : plan) prod *= search(seg).count();
    total += prod;
  }
  return total;
}

Path Router::hashed_path(NodeId a, NodeId b, uint64_t flow_key) const { return hashed_path(plans(a, b), flow_key); }

Path Router::hashed_path(const Plans& ps, uint64_t flow_key) const {
  Path out;
  if (ps.empty()) return out;
  const auto& plan = ps[mix_hash(flow_key, 0x9e3779b97f4a7c15ULL) % ps.size()];
  for (const auto& seg : plan) {
    Path p = search(seg).hashed(flow_key);
    out.links.insert(out.links.end(), p.links.begin(), p.links.end());
  }
  return out;
}

Route Router::route(NodeId a, NodeId b, uint64_t flow_key, int nic_choice) const {
  Plans ps = plans(a, b);
  // A GPU with several equally near NICs: NCCL assigns its channels to them in turn rather than
  // by hash, so channel k takes NIC pairing k mod (pairings) when the caller says which.
  if (nic_choice >= 0 && ps.size() > 1) ps = {ps[static_cast<size_t>(nic_choice) % ps.size()]};
  Route r;
  if (ps.size() == 1 && ps[0].size() == 1 && ps[0][0].kind == SegmentKind::ScaleUp) {
    std::vector<Path> paths = equal_cost_paths(ps, 64);
    double total = 0;
    for (const auto& p : paths) total += bottleneck(c_, p).bytes_per_second();
    for (auto& p : paths) {
      double share = bottleneck(c_, p).bytes_per_second() / total;
      r.push_back({std::move(p), share});
    }
    return r;
  }
  Path p = hashed_path(ps, flow_key);
  if (!p.empty()) r.push_back({std::move(p), 1.0});
  return r;
}

Route Router::uplink_to_fabric(NodeId gpu, uint64_t flow_key, int nic_choice) const {
  Route r;
  const auto& nics = nearest_nics(gpu);
  if (nics.empty()) return r;
  size_t pick = nic_choice >= 0 ? static_cast<size_t>(nic_choice) % nics.size() : mix_hash(flow_key, 17) % nics.size();
  NodeId nic = c_.server_node(c_.node(gpu).server, nics[pick]);
  Path p = search({gpu, nic, SegmentKind::InServer}).hashed(flow_key);
  for (LinkId l : c_.out_links(nic)) {
    const Node& far = c_.node(c_.link(l).dst);
    if (far.kind == NodeKind::Switch && far.server < 0) {
      p.links.push_back(l);
      r.push_back({std::move(p), 1.0});
      return r;
    }
  }
  return r;
}

Route Router::links_to_nvswitch(NodeId gpu) const {
  Route r;
  double total = 0;
  for (LinkId l : c_.out_links(gpu))
    if (c_.node(c_.link(l).dst).kind == NodeKind::NvSwitch) total += c_.link(l).bandwidth.bytes_per_second();
  for (LinkId l : c_.out_links(gpu))
    if (c_.node(c_.link(l).dst).kind == NodeKind::NvSwitch)
      r.push_back({Path{{l}}, c_.link(l).bandwidth.bytes_per_second() / total});
  return r;
}

}  // namespace gf
