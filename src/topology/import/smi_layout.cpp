#include "topology/import/smi_layout.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>

#include "core/error.hpp"

namespace gf {

namespace {

class UnionFind {
 public:
  explicit UnionFind(size_t n) : parent_(n) { std::iota(parent_.begin(), parent_.end(), 0); }
  int find(int x) {
    while (parent_[x] != x) x = parent_[x] = parent_[parent_[x]];
    return x;
  }
  // The smaller index stays the root, so groups are named by their first device.
  void join(int a, int b) {
    a = find(a), b = find(b);
    if (a != b) parent_[std::max(a, b)] = std::min(a, b);
  }

 private:
  std::vector<int> parent_;
};

// Members of each group, groups ordered by their first member, members in column order.
std::vector<std::vector<int>> groups_of(UnionFind& uf, const std::vector<int>& members) {
  std::map<int, std::vector<int>> by_root;
  for (int m : members) by_root[uf.find(m)].push_back(m);
  std::vector<std::vector<int>> out;
  for (auto& [root, g] : by_root) out.push_back(std::move(g));
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.front() < b.front(); });
  return out;
}

// "GPU4, GPU5, NIC4": device columns of a group.
std::string names(const SmiTable& t, const std::vector<int>& members) {
  std::string s;
  for (int m : members) s += (s.empty() ? "" : ", ") + t.devices[m].column;
  return s;
}

// The four nested groupings the PCIe cells define, checked against every cell.
struct Groupings {
  UnionFind pix, pxb, hb, numa;
  explicit Groupings(size_t n) : pix(n), pxb(n), hb(n), numa(n) {}
};

Groupings group(const SmiTable& t, const std::string& file) {
  const size_t n = t.devices.size();
  Groupings g(n);
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = i + 1; j < n; ++j) {
      if (!t.cells[i][j]) continue;
      TopoConn c = t.cells[i][j]->conn;
      int a = static_cast<int>(i), b = static_cast<int>(j);
      if (c == TopoConn::Pix) g.pix.join(a, b);
      if (c == TopoConn::Pix || c == TopoConn::Pxb) g.pxb.join(a, b);
      if (c == TopoConn::Pix || c == TopoConn::Pxb || c == TopoConn::Phb) g.hb.join(a, b);
      if (c == TopoConn::Pix || c == TopoConn::Pxb || c == TopoConn::Phb || c == TopoConn::Node) g.numa.join(a, b);
    }
  }
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = i + 1; j < n; ++j) {
      if (!t.cells[i][j]) continue;
      TopoConn c = t.cells[i][j]->conn;
      int a = static_cast<int>(i), b = static_cast<int>(j);
      const char* joined = nullptr;
      if (c == TopoConn::Sys && g.numa.find(a) == g.numa.find(b)) joined = "on one NUMA node";
      if (c == TopoConn::Node && g.hb.find(a) == g.hb.find(b)) joined = "on one host bridge";
      if (c == TopoConn::Phb && g.pxb.find(a) == g.pxb.find(b)) joined = "under one PCIe switch tree";
      if (c == TopoConn::Pxb && g.pix.find(a) == g.pix.find(b)) joined = "under one PCIe switch";
      if (!joined) continue;
      throw InputError({file, t.cell_line[i][j], 0}, t.devices[i].column + "/" + t.devices[j].column,
                       "the cell says " + cell_text(*t.cells[i][j]) + ", but other cells put the two " + joined +
                           ": the matrix contradicts itself",
                       "the file is garbled or mixes two machines; paste one run of nvidia-smi topo -m unchanged");
    }
  }
  return g;
}

struct NumaNode {
  int id = -1;
  std::string affinity;
  std::vector<int> members;
};

// NUMA ids: the one the devices report (NUMA Affinity, else one id per distinct CPU Affinity)
// unless an earlier group took it; otherwise the next free id.
std::vector<NumaNode> numa_nodes(const SmiTable& t, Groupings& g, std::vector<std::string>& not_recovered) {
  const int n = static_cast<int>(t.devices.size());
  std::vector<int> all(n);
  std::iota(all.begin(), all.end(), 0);
  std::vector<std::vector<int>> groups = groups_of(g.numa, all);

  // A device with no row and no cell placing it on PCIe: placed with the other such devices.
  std::vector<std::vector<int>> placed, unplaced;
  for (auto& grp : groups) (grp.size() == 1 && t.devices[grp[0]].row_line == 0 ? unplaced : placed).push_back(grp);

  std::map<std::string, int> by_affinity;  // without a NUMA column: one id per core list
  int next = 0;
  for (const auto& d : t.devices) {
    if (d.numa) next = std::max(next, *d.numa + 1);
    if (!t.has_numa_column && !d.cpu_affinity.empty() && !by_affinity.count(d.cpu_affinity))
      by_affinity.emplace(d.cpu_affinity, static_cast<int>(by_affinity.size()));
  }
  next = std::max(next, static_cast<int>(by_affinity.size()));

  std::vector<NumaNode> out;
  std::set<int> taken;
  std::string moved;  // "GPU1 (0 -> 2), GPU2 (0 -> 3)": devices whose reported NUMA node the cells contradict
  for (const auto& grp : placed) {
    NumaNode node;
    node.members = grp;
    std::optional<int> wanted;
    int reporter = -1;
    for (int m : grp) {
      const SmiDevice& d = t.devices[m];
      std::optional<int> says = d.numa;
      if (!says && !t.has_numa_column && !d.cpu_affinity.empty()) says = by_affinity[d.cpu_affinity];
      if (node.affinity.empty()) node.affinity = d.cpu_affinity;
      if (!says) continue;
      if (!wanted) wanted = says, reporter = m;
      else if (*says != *wanted)
        not_recovered.push_back(t.devices[m].column + " reports NUMA node " + std::to_string(*says) + " but its cells put it with " +
                                t.devices[reporter].column + " (NUMA " + std::to_string(*wanted) + "): modelled on NUMA " +
                                std::to_string(*wanted));
    }
    if (wanted && !taken.count(*wanted)) {
      node.id = *wanted;
    } else {
      node.id = next++;
      if (wanted)
        moved += (moved.empty() ? "" : ", ") + t.devices[reporter].column + " (" + std::to_string(*wanted) + " -> " +
                 std::to_string(node.id) + ")";
    }
    taken.insert(node.id);
    out.push_back(std::move(node));
  }
  if (!moved.empty())
    not_recovered.push_back("NUMA Affinity: " + moved + " report a NUMA node whose other devices are SYS to them "
                            "(typical of a VM, where nvidia-smi cannot see the PCIe tree): modelled on NUMA nodes of "
                            "their own so the cells stay as printed");
  // Devices nothing places share one extra NUMA node, unless the file says SYS between two of them.
  std::vector<NumaNode> extra;
  for (const auto& grp : unplaced) {
    int d = grp[0];
    auto fits = [&](const NumaNode& node) {
      return std::none_of(node.members.begin(), node.members.end(), [&](int m) { return t.cells[d][m].has_value(); });
    };
    auto it = std::find_if(extra.begin(), extra.end(), fits);
    if (it == extra.end()) extra.push_back({next++, "", {}}), it = extra.end() - 1;
    it->members.push_back(d);
  }
  for (auto& node : extra) {
    not_recovered.push_back(names(t, node.members) + ": no row in the file and no cell placing " +
                            (node.members.size() == 1 ? "it" : "them") + " on PCIe: placed on an extra NUMA node " +
                            std::to_string(node.id) + ", each on its own host bridge (NODE to each other, SYS to the rest)");
    out.push_back(std::move(node));
  }
  return out;
}

}  // namespace

std::vector<int> add_pcie_layout(const SmiTable& t, const ImportProfile& p, const std::string& file, TemplateBuilder& b,
                                 std::vector<std::string>& not_recovered) {
  Groupings g = group(t, file);
  std::vector<NumaNode> numa = numa_nodes(t, g, not_recovered);
  const size_t n = t.devices.size();
  std::vector<int> numa_of(n, -1);
  for (const auto& node : numa)
    for (int m : node.members) numa_of[m] = node.id;

  // Devices first, GPUs then NICs in column order, so gpuK / nicK are the file's GPU K / NIC K.
  std::vector<int> index(n, -1);
  int gpus = 0, nics = 0;
  for (NodeKind kind : {NodeKind::Gpu, NodeKind::Nic}) {
    for (size_t i = 0; i < n; ++i) {
      const SmiDevice& d = t.devices[i];
      if (d.kind != kind) continue;
      if (kind == NodeKind::Gpu) index[i] = b.gpu("gpu" + std::to_string(gpus++), numa_of[i]);
      else index[i] = b.nic("nic" + std::to_string(nics), numa_of[i], nics, p.nic_tech, d.label), ++nics;
    }
  }

  // Root complexes: one per host-bridge group, meshed inside a NUMA node; NUMA nodes meshed by the
  // socket link (the format does not say which share a socket, so every pair is one hop apart).
  std::vector<std::vector<HostBridge>> bridges;
  std::vector<std::vector<std::vector<int>>> bridge_members;
  for (const auto& node : numa) {
    auto hbs = groups_of(g.hb, node.members);
    bridges.emplace_back(hbs.size(), HostBridge{node.id, node.affinity});
    bridge_members.push_back(std::move(hbs));
  }
  auto cpus = b.sockets(bridges, p.socket_link);
  int switches = 0;
  for (size_t s = 0; s < numa.size(); ++s) {
    for (size_t h = 0; h < cpus[s].size(); ++h) {
      int cpu = cpus[s][h];
      for (const auto& cluster : groups_of(g.pxb, bridge_members[s][h])) {
        if (cluster.size() == 1) {  // no PIX/PXB partner: straight on the root port
          b.link(index[cluster[0]], cpu, p.pcie);
          continue;
        }
        auto pix_groups = groups_of(g.pix, cluster);
        int top = b.pcie_switch("pcie" + std::to_string(switches++), numa[s].id);
        b.link(top, cpu, p.pcie);
        for (const auto& pix : pix_groups) {
          // One PIX group: its members share the top switch. Several: each group under its own
          // switch below the top one, so across groups the path has 3 bridges (PXB).
          int sw = top;
          if (pix_groups.size() > 1) {
            sw = b.pcie_switch("pcie" + std::to_string(switches++), numa[s].id);
            b.link(sw, top, p.pcie);
          }
          for (int m : pix) b.link(index[m], sw, p.pcie);
        }
      }
    }
  }
  return index;
}

}  // namespace gf
