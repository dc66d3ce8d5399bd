#include "workload/blast_radius.hpp"

#include <algorithm>
#include <unordered_map>

namespace gf {

FabricExposure fabric_exposure(const Cluster& c, int64_t job_servers) {
  FabricExposure e;
  std::unordered_map<NodeId, size_t> leaf_index;  // leaf node -> its slot in cut_off
  std::vector<NodeId> leaves;
  const int64_t servers = std::min(job_servers, c.servers());
  for (int64_t s = 0; s < servers; ++s) {
    NodeId only = -1;  // the one leaf all this server's fabric NICs reach, if there is one
    bool single = true;
    for (int local : c.fabric_nic_locals()) {
      for (LinkId l : c.out_links(c.server_node(s, local))) {
        const NodeId to = c.link(l).dst;
        if (c.node(to).kind != NodeKind::Switch || c.node(to).tier != 1) continue;
        if (leaf_index.emplace(to, leaves.size()).second) leaves.push_back(to), e.cut_off.push_back(0);
        if (only == -1)
          only = to;
        else if (only != to)
          single = false;
      }
    }
    if (single && only != -1) ++e.cut_off[leaf_index.at(only)];
  }
  for (NodeId leaf : leaves)
    for (LinkId l : c.out_links(leaf))
      if (c.node(c.link(l).dst).kind == NodeKind::Switch && c.node(c.link(l).dst).tier == 2) ++e.spine_links;
  return e;
}

}  // namespace gf
