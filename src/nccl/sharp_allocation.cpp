#include "nccl/sharp_allocation.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace gf {

namespace {

constexpr const char* kSource = "SHARP Rev 3.13.0 release notes";

// A tree's switches and ports: leaves, the NIC-to-leaf links it takes.
struct Tree {
  std::set<NodeId> leaves;
  std::set<LinkId> nic_ports;
};

// One tree per rail: NCCL's CollNet heads use different NICs per channel, and each NIC's SHARP
// communicator is a tree of its own (on a rail-optimized fabric, within that rail's leaves).
std::vector<Tree> trees_of(const Cluster& c, const Router& r, const Communicator& comm) {
  std::map<int, Tree> by_rail;
  // Every NIC a GPU may take (CollNet's uplink, Router::uplink_to_fabric, over each choice).
  const int choices = std::max<int>(1, static_cast<int>(c.nic_locals().size()));
  for (NodeId g : comm.gpu)
    for (int choice = 0; choice < choices; ++choice)
      for (const Leg& leg : r.uplink_to_fabric(g, 0, choice)) {
        if (leg.path.links.empty()) continue;
        const Link& up = c.link(leg.path.links.back());  // NIC -> its first network switch
        Tree& t = by_rail[c.node(up.src).group];
        t.leaves.insert(up.dst);
        t.nic_ports.insert(leg.path.links.back());
      }
  std::vector<Tree> out;
  for (auto& [rail, t] : by_rail)
    if (!t.leaves.empty()) out.push_back(std::move(t));
  return out;
}

int uplink_ports(const Cluster& c, NodeId leaf) {
  int n = 0;
  for (LinkId l : c.out_links(leaf)) {
    const Node& far = c.node(c.link(l).dst);
    if (far.kind == NodeKind::Switch && far.tier > c.node(leaf).tier)
      n += std::max(1, static_cast<int>(c.link(l).lanes));
  }
  return n;
}

bool adjacent(const Cluster& c, NodeId a, NodeId b) {
  for (LinkId l : c.out_links(a))
    if (c.link(l).dst == b) return true;
  return false;
}

// A switch above every leaf of `t` that no tree holds: a tier-2 switch joined to all of them, or,
// across pods (3 tiers, no spine sees every leaf), a switch of the top tier.
NodeId free_root(const Cluster& c, const Tree& t, const std::map<NodeId, std::string>& held,
                 const std::map<NodeId, std::string>& taking) {
  auto is_free = [&](NodeId n) { return !held.count(n) && !taking.count(n); };
  int top = 0;
  for (const Node& node : c.nodes())
    if (node.kind == NodeKind::Switch && node.server == -1) top = std::max(top, static_cast<int>(node.tier));
  for (NodeId n = 0; n < static_cast<NodeId>(c.nodes().size()); ++n) {
    const Node& node = c.node(n);
    if (node.kind != NodeKind::Switch || node.server != -1 || node.tier != 2 || !is_free(n)) continue;
    bool all = true;
    for (NodeId leaf : t.leaves) all = all && adjacent(c, leaf, n);
    if (all) return n;
  }
  for (NodeId n = 0; n < static_cast<NodeId>(c.nodes().size()) && top > 2; ++n) {
    const Node& node = c.node(n);
    if (node.kind == NodeKind::Switch && node.server == -1 && node.tier == top && is_free(n)) return n;
  }
  return kNoNode;
}

}  // namespace

std::vector<SharpGrant> allocate_sharp(const Cluster& c, const Router& r, const std::vector<SharpRequest>& requests) {
  std::vector<SharpGrant> out(requests.size());
  const std::optional<SwitchModel>& sw = c.fabric_switch();
  const std::string model = sw ? sw->name : "the fabric's switches";
  std::map<NodeId, std::string> switch_holder;  // Quantum: one tree per switch
  std::map<LinkId, std::string> port_holder;    // Quantum-2: one tree per port
  std::map<NodeId, int> up_used;                // Quantum-2: trees going up from a leaf
  int trees_held = 0;
  for (size_t i = 0; i < requests.size(); ++i) {
    const SharpRequest& q = requests[i];
    SharpGrant& g = out[i];
    if (!q.comm->collnet || !c.fabric_reduces()) {
      g.why = "its switches do not reduce in the network";
      continue;
    }
    const std::vector<Tree> trees = trees_of(c, r, *q.comm);
    if (sw && sw->sharp_trees_per_subnet > 0 &&
        trees_held + static_cast<int>(trees.size()) > sw->sharp_trees_per_subnet) {
      g.why = "the subnet's " + std::to_string(sw->sharp_trees_per_subnet) +
              " streaming-aggregation trees are all held (" + model + ", " + kSource + ")";
      continue;
    }
    // What this job's trees would take, checked against what earlier jobs hold and what its own
    // other trees take (a root switch is one tree's).
    std::map<NodeId, std::string> take_switch;
    std::map<NodeId, int> take_up;
    for (const Tree& t : trees) {
      const bool goes_up = t.leaves.size() > 1;
      if (sw && sw->sharp_trees_per_switch > 0) {
        for (NodeId leaf : t.leaves)
          if (auto h = switch_holder.find(leaf); h != switch_holder.end() && g.why.empty())
            g.why = c.node_name(leaf) + " already holds job '" + h->second + "''s aggregation tree (" + model +
                    ": one streaming-aggregation tree per switch, " + kSource + ")";
        if (!g.why.empty()) break;
        for (NodeId leaf : t.leaves) take_switch[leaf] = q.job;
        if (goes_up) {
          const NodeId root = free_root(c, t, switch_holder, take_switch);
          if (root == kNoNode) {
            g.why = "no switch above its " + std::to_string(t.leaves.size()) + " leaves is free to root its tree (" +
                    model + ": one streaming-aggregation tree per switch, " + kSource + ")";
            break;
          }
          take_switch[root] = q.job;
        }
      }
      if (sw && sw->sharp_tree_per_port) {
        for (LinkId l : t.nic_ports)
          if (auto h = port_holder.find(l); h != port_holder.end() && g.why.empty()) {
            const Link& link = c.link(l);
            g.why = "the port of " + c.node_name(link.src) + " on " + c.node_name(link.dst) + " already carries job '" +
                    h->second + "''s aggregation tree (" + model + ": one active tree per port, " + kSource + ")";
          }
        if (!g.why.empty()) break;
        if (goes_up)
          for (NodeId leaf : t.leaves)
            if (up_used[leaf] + ++take_up[leaf] > uplink_ports(c, leaf) && g.why.empty())
              g.why = "every uplink port of " + c.node_name(leaf) + " already carries an aggregation tree (" + model +
                      ": one active tree per port, " + kSource + ")";
        if (!g.why.empty()) break;
      }
    }
    if (!g.why.empty()) continue;
    g.granted = true;
    trees_held += static_cast<int>(trees.size());
    for (const auto& [n, job] : take_switch) switch_holder[n] = job;
    for (const auto& [leaf, k] : take_up) up_used[leaf] += k;
    for (const Tree& t : trees)
      for (LinkId l : t.nic_ports) port_holder[l] = q.job;
  }
  return out;
}

}  // namespace gf
