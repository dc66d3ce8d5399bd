#include "routing/gpu_nic_path.hpp"

#include <algorithm>
#include <unordered_map>
#include <vector>

#include "topology/net_transport.hpp"

namespace gf {

int gpu_nic_path_type(const Cluster& c, NodeId gpu, NodeId nic) {
  const int server = c.node(gpu).server;
  std::unordered_map<NodeId, LinkId> parent;  // node -> the link it was reached by
  std::vector<NodeId> frontier{gpu};
  parent.emplace(gpu, LinkId{-1});
  for (size_t q = 0; q < frontier.size() && !parent.count(nic); ++q) {
    for (LinkId l : c.out_links(frontier[q])) {
      const NodeId v = c.link(l).dst;
      const Node& n = c.node(v);
      if (n.server != server || parent.count(v)) continue;
      const bool transit = n.kind == NodeKind::PcieSwitch || n.kind == NodeKind::Cpu;
      if (v != nic && !transit) continue;
      parent.emplace(v, l);
      if (v != nic) frontier.push_back(v);
    }
  }
  if (!parent.count(nic)) return kNcclPathSys;
  int switches = 0, type = kNcclPathPix;
  bool c2c_into_cpu = false;
  for (NodeId v = nic; v != gpu;) {
    const Link& l = c.link(parent.at(v));
    const Node &from = c.node(l.src), &to = c.node(l.dst);
    if (to.kind == NodeKind::PcieSwitch) ++switches;
    if (from.kind == NodeKind::Cpu && to.kind == NodeKind::Cpu) type = std::max(type, int{kNcclPathSys});
    if (to.kind == NodeKind::Cpu) {
      if (from.kind == NodeKind::Gpu && c.catalog().tech(l.tech).family == LinkFamily::NvLinkC2C) c2c_into_cpu = true;
      else if (from.kind != NodeKind::Cpu) type = std::max(type, int{kNcclPathPhb});
    }
    v = l.src;
  }
  if (type >= kNcclPathPhb) return type;
  if (c2c_into_cpu) return kNcclPathP2c;
  return switches > 1 ? kNcclPathPxb : kNcclPathPix;
}

}  // namespace gf
