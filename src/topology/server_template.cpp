#include "topology/server_template.hpp"

#include <algorithm>
#include <set>

#include "topology/link_tech.hpp"

namespace gf {

int ServerTemplate::count(NodeKind k) const {
  int n = 0;
  for (const auto& node : nodes) n += node.kind == k;
  return n;
}

const std::vector<std::string>& nic_roles() {
  static const std::vector<std::string> k = {"compute", "storage", "management", "frontend"};
  return k;
}

int ServerTemplate::compute_nics() const {
  int n = 0;
  for (const auto& node : nodes) n += node.compute_nic();
  return n;
}

int ServerTemplate::index_of(const std::string& node_name) const {
  for (size_t i = 0; i < nodes.size(); ++i)
    if (nodes[i].name == node_name) return static_cast<int>(i);
  return -1;
}

void ServerTemplate::validate(const LinkCatalog& catalog, const SourceLocation& where) const {
  if (count(NodeKind::Gpu) == 0)
    throw InputError(where, "server", "server '" + name + "' has no GPU", "add at least one node of kind gpu");
  if (count(NodeKind::Gpu) > kMaxGpusPerServer || static_cast<int64_t>(nodes.size()) > kMaxNodesPerServer)
    throw InputError(where, "server",
                     "server '" + name + "' has " + std::to_string(count(NodeKind::Gpu)) + " GPUs and " +
                         std::to_string(nodes.size()) + " devices; gpufabric takes at most " +
                         std::to_string(kMaxGpusPerServer) + " GPUs and " + std::to_string(kMaxNodesPerServer) +
                         " devices per server (its per-server tables grow as the square)",
                     "describe a larger NVLink domain as several servers with a `scale_up:` block (docs/limits.md)");
  std::set<std::string> seen;
  for (const auto& n : nodes) {
    if (!seen.insert(n.name).second)
      throw InputError(where, "server.nodes", "node name '" + n.name + "' is used twice", "give every node a unique name");
    if (n.kind == NodeKind::Nic) {
      const auto tech = catalog.find(n.tech);
      if (!tech)
        throw InputError(where, "server.nodes." + n.name + ".tech", "unknown link technology '" + n.tech + "'",
                         suggest(n.tech, catalog.tech_names()));
      // A NIC port speaks a network's technology; NVLink, PCIe or xGMI on a NIC would build a
      // scale-out fabric of GPU links (the import's --nic-tech refuses the same).
      const LinkFamily f = catalog.tech(*tech).family;
      if (f != LinkFamily::InfiniBand && f != LinkFamily::RoCE && f != LinkFamily::EthernetTcp && f != LinkFamily::Efa &&
          f != LinkFamily::GaudiRoce)
        throw InputError(where, "server.nodes." + n.name + ".tech", "'" + n.tech + "' is not a network port technology",
                         "use one of the InfiniBand, RoCE, Ethernet or EFA technologies of `gpufabric list links`, e.g. ib-ndr");
      if (!n.role.empty() && std::find(nic_roles().begin(), nic_roles().end(), n.role) == nic_roles().end())
        throw InputError(where, "server.nodes." + n.name + ".role", "unknown NIC role '" + n.role + "'",
                         suggest(n.role, nic_roles()));
      if (n.rail < 0 && n.compute_nic())
        throw InputError(where, "server.nodes." + n.name + ".rail", "NIC has no rail", "set rail: 0, 1, ...");
    }
  }
  for (const auto& l : links) {
    if (l.a < 0 || l.b < 0 || l.a >= static_cast<int>(nodes.size()) || l.b >= static_cast<int>(nodes.size()))
      throw InputError(where, "server.links", "a link refers to a node that does not exist", "name the link's ends by node names listed under nodes:");
    if (l.a == l.b)
      throw InputError(where, "server.links", "link from '" + nodes[l.a].name + "' to itself", "make `a` and `b` two different nodes");
    if (!catalog.find(l.tech))
      throw InputError(where, "server.links", "unknown link technology '" + l.tech + "'",
                       suggest(l.tech, catalog.tech_names()));
    if (l.lanes <= 0)
      throw InputError(where, "server.links", "lanes must be at least 1, got " + std::to_string(l.lanes), "use lanes: 1 or more");
  }
}

}  // namespace gf
