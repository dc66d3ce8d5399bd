#include "topology/nic_count.hpp"

#include <algorithm>

namespace gf {

namespace {

std::vector<int> compute_nics_by_rail(const ServerTemplate& t) {
  std::vector<int> out;
  for (size_t i = 0; i < t.nodes.size(); ++i)
    if (t.nodes[i].compute_nic()) out.push_back(static_cast<int>(i));
  std::stable_sort(out.begin(), out.end(), [&](int a, int b) { return t.nodes[a].rail < t.nodes[b].rail; });
  return out;
}

void add_twins(ServerTemplate& t, const std::vector<int>& nics, int per_nic) {
  const std::vector<ServerLink> links = t.links;
  int rail = 0;
  for (int nic : nics) {
    t.nodes[nic].rail = rail++;
    for (int j = 1; j < per_nic; ++j) {
      ServerNode twin = t.nodes[nic];
      twin.name = t.nodes[nic].name + "_" + std::to_string(j);
      twin.label = t.nodes[nic].label.empty() ? "" : t.nodes[nic].label + "_" + std::to_string(j);
      twin.rail = rail++;
      t.nodes.push_back(twin);
      const int id = static_cast<int>(t.nodes.size()) - 1;
      for (const ServerLink& l : links) {
        if (l.a == nic) t.links.push_back({id, l.b, l.tech, l.lanes});
        if (l.b == nic) t.links.push_back({l.a, id, l.tech, l.lanes});
      }
    }
  }
}

void keep_every(ServerTemplate& t, const std::vector<int>& nics, int step) {
  std::vector<bool> drop(t.nodes.size(), false);
  int rail = 0;
  for (size_t k = 0; k < nics.size(); ++k) {
    if (k % static_cast<size_t>(step) == 0)
      t.nodes[nics[k]].rail = rail++;
    else
      drop[nics[k]] = true;
  }
  std::vector<int> new_index(t.nodes.size(), -1);
  std::vector<ServerNode> nodes;
  for (size_t i = 0; i < t.nodes.size(); ++i) {
    if (drop[i]) continue;
    new_index[i] = static_cast<int>(nodes.size());
    nodes.push_back(std::move(t.nodes[i]));
  }
  std::vector<ServerLink> links;
  for (const ServerLink& l : t.links)
    if (new_index[l.a] >= 0 && new_index[l.b] >= 0) links.push_back({new_index[l.a], new_index[l.b], l.tech, l.lanes});
  t.nodes = std::move(nodes);
  t.links = std::move(links);
}

}  // namespace

void set_compute_nics(ServerTemplate& t, int n, const SourceLocation& where, const std::string& key) {
  const std::vector<int> nics = compute_nics_by_rail(t);
  const int b = static_cast<int>(nics.size());
  if (n < 1 || b == 0 || (n > b && n % b != 0) || (n < b && b % n != 0)) {
    std::string ok;
    for (int d = 1; d <= b; ++d)
      if (b % d == 0) ok += std::to_string(d) + ", ";
    throw InputError(where, key,
                     "the server '" + t.name + "' has " + std::to_string(b) + " compute NICs; " + std::to_string(n) +
                         " can be made of them only as a divisor or a multiple",
                     b == 0 ? "this server has no NIC to start from: spell its nodes out"
                            : "use one of " + ok + "or a multiple of " + std::to_string(b) + " (" +
                                  std::to_string(2 * b) + ", ...), or spell the server out node by node");
  }
  if (n > b)
    add_twins(t, nics, n / b);
  else if (n < b)
    keep_every(t, nics, b / n);
}

}  // namespace gf
