#include "topology/pcie_matrix.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "core/error.hpp"

namespace gf {

std::string cell_text(const TopoCell& c) {
  switch (c.conn) {
    case TopoConn::Self: return "X";
    case TopoConn::NvLink: return "NV" + std::to_string(c.links);
    case TopoConn::Pix: return "PIX";
    case TopoConn::Pxb: return "PXB";
    case TopoConn::Phb: return "PHB";
    case TopoConn::Node: return "NODE";
    case TopoConn::Sys: return "SYS";
  }
  return "?";
}

namespace {

// One server's nodes by template index, with the PCIe tree hanging from its CPU root complexes.
class ServerView {
 public:
  ServerView(const Cluster& c, int64_t server) : c_(c), base_(c.server_node(server, 0)) {
    int n = c.nodes_per_server();
    parent_.assign(n, -1);
    root_.assign(n, -1);
    build_tree();
  }

  NodeId id(int local) const { return base_ + local; }
  NodeKind kind(int local) const { return c_.node(id(local)).kind; }
  int numa(int local) const { return c_.node(id(local)).numa; }
  const ServerNode& spec(int local) const { return c_.server_template().nodes[local]; }
  LinkFamily family(const Link& l) const { return c_.catalog().tech(l.tech).family; }
  // Template index of a node of this server, or -1 (another server's, or a fabric node).
  int local_of(NodeId n) const {
    int64_t l = static_cast<int64_t>(n) - base_;
    return l >= 0 && l < c_.nodes_per_server() ? static_cast<int>(l) : -1;
  }

  // The CPU a device is closest to: the root of its PCIe subtree, else a CPU it links to directly
  // (a GPU on NVLink-C2C), else its parent GPU's (a port on a Gaudi chip); -1 when none.
  int host_cpu(int local) const {
    if (root_[local] >= 0) return root_[local];
    for (LinkId l : c_.out_links(id(local))) {
      int d = local_of(c_.link(l).dst);
      if (d >= 0 && kind(d) == NodeKind::Cpu) return d;
    }
    if (parent_[local] >= 0 && parent_[local] != local) return host_cpu(parent_[local]);
    return -1;
  }
  int cpu_numa_nodes() const {
    std::set<int> ids;
    for (int i = 0; i < c_.nodes_per_server(); ++i)
      if (kind(i) == NodeKind::Cpu) ids.insert(numa(i));
    return static_cast<int>(ids.size());
  }
  bool on_c2c(int local) const {
    for (LinkId l : c_.out_links(id(local))) {
      int d = local_of(c_.link(l).dst);
      if (d >= 0 && kind(d) == NodeKind::Cpu && family(c_.link(l)) == LinkFamily::NvLinkC2C) return true;
    }
    return false;
  }

  // PIX/PXB/PHB/NODE/SYS between two devices from their places in the PCIe tree.
  TopoConn pcie_distance(int a, int b) const {
    if (root_[a] < 0 || root_[b] < 0) return TopoConn::Sys;  // not on PCIe: through the CPUs
    std::vector<int> up_a = chain(a), up_b = chain(b);
    for (size_t ia = 0; ia < up_a.size(); ++ia) {
      auto it = std::find(up_b.begin(), up_b.end(), up_a[ia]);
      if (it == up_b.end()) continue;
      int lca = up_a[ia];
      if (kind(lca) == NodeKind::Cpu) return TopoConn::Phb;
      // Bridges strictly between the two ends: the ancestors below the meeting point on each
      // side, and the meeting point itself unless it is one of the ends (a Gaudi port's chip).
      auto ib = static_cast<size_t>(it - up_b.begin());
      size_t between = (ia > 0 ? ia - 1 : 0) + (ib > 0 ? ib - 1 : 0) + (ia > 0 && ib > 0 ? 1 : 0);
      return between <= 1 ? TopoConn::Pix : TopoConn::Pxb;
    }
    return numa(root_[a]) == numa(root_[b]) ? TopoConn::Node : TopoConn::Sys;
  }

 private:
  // Breadth-first from every root complex over PCIe links; GPUs and NICs are leaves (they do not
  // forward). NICs reached no other way hang off the GPU they are wired to (ports on the chip).
  void build_tree() {
    std::vector<int> queue;
    for (int i = 0; i < c_.nodes_per_server(); ++i)
      if (kind(i) == NodeKind::Cpu) root_[i] = i, queue.push_back(i);
    for (size_t q = 0; q < queue.size(); ++q) {
      int u = queue[q];
      for (LinkId l : c_.out_links(id(u))) {
        const Link& link = c_.link(l);
        int v = local_of(link.dst);
        if (v < 0 || root_[v] >= 0 || family(link) != LinkFamily::Pcie) continue;
        NodeKind k = kind(v);
        if (k != NodeKind::PcieSwitch && k != NodeKind::Gpu && k != NodeKind::Nic) continue;
        parent_[v] = u;
        root_[v] = root_[u];
        if (k == NodeKind::PcieSwitch) queue.push_back(v);
      }
    }
    for (int i = 0; i < c_.nodes_per_server(); ++i) {
      if (kind(i) != NodeKind::Nic || root_[i] >= 0) continue;
      for (LinkId l : c_.out_links(id(i))) {
        int g = local_of(c_.link(l).dst);
        if (g >= 0 && kind(g) == NodeKind::Gpu) {
          parent_[i] = g;
          root_[i] = root_[g];
          break;
        }
      }
    }
  }
  // The device, then its ancestors up to and including its root complex.
  std::vector<int> chain(int local) const {
    std::vector<int> out{local};
    for (int p = parent_[local]; p >= 0; p = parent_[p]) out.push_back(p);
    return out;
  }

  const Cluster& c_;
  NodeId base_;
  std::vector<int> parent_;  // PCIe parent (switch, root complex, or a Gaudi port's chip); -1 at roots
  std::vector<int> root_;    // root complex at the top of the subtree; -1 off the PCIe tree
};

// NV# between every pair of GPUs: bonded direct links, plus, through NVSwitch chips both reach,
// the smaller of the two GPUs' NVLink counts into those shared chips (a GPU's traffic to a peer can
// use every link it has into the shared switches: DGX H100 5+4+4+5 = NV18, DGX A100 6x2 = NV12).
std::vector<std::vector<TopoCell>> nvlink_cells(const Cluster& c, const ServerView& v, const std::vector<int>& gpus) {
  size_t n = gpus.size();
  std::vector<std::map<NodeId, int>> to_switch(n);
  std::vector<std::map<int, TopoCell>> direct(n);
  for (size_t i = 0; i < n; ++i) {
    for (LinkId l : c.out_links(v.id(gpus[i]))) {
      const Link& link = c.link(l);
      NodeKind k = c.node(link.dst).kind;
      if (k == NodeKind::NvSwitch) {
        to_switch[i][link.dst] += link.lanes;
      } else if (k == NodeKind::Gpu && v.local_of(link.dst) >= 0) {
        TopoCell& cell = direct[i][v.local_of(link.dst)];
        cell.links += link.lanes;
        cell.family = v.family(link);
      }
    }
  }
  std::vector<std::vector<TopoCell>> out(n, std::vector<TopoCell>(n));
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = 0; j < n; ++j) {
      if (i == j) continue;
      TopoCell cell;
      if (auto d = direct[i].find(gpus[j]); d != direct[i].end()) cell = d->second;
      int via_i = 0, via_j = 0;
      for (const auto& [sw, lanes] : to_switch[i]) {
        auto other = to_switch[j].find(sw);
        if (other == to_switch[j].end()) continue;
        via_i += lanes;
        via_j += other->second;
      }
      if (via_i > 0) {
        if (cell.links == 0) cell.family = LinkFamily::NvLink;
        cell.links += std::min(via_i, via_j);
      }
      if (cell.links > 0) cell.conn = TopoConn::NvLink;
      out[i][j] = cell;
    }
  }
  return out;
}

// "0,3-9,11-17": a sorted list of NUMA ids with runs collapsed, as nvidia-smi prints them.
std::string id_list(std::set<int> ids) {
  std::string s;
  for (auto it = ids.begin(); it != ids.end();) {
    int first = *it, last = first;
    while (++it != ids.end() && *it == last + 1) last = *it;
    if (!s.empty()) s += ",";
    s += std::to_string(first);
    if (last > first) s += "-" + std::to_string(last);
  }
  return s;
}

// Affinity columns. A GPU joined to its CPU by NVLink-C2C has its memory on NUMA nodes of its
// own: the driver numbers them after the CPUs' nodes, 8 per GPU (on a GB200 tray with CPU nodes 0
// and 1 the GPUs are nodes 2, 10, 18, 26), and a GPU's NUMA affinity lists its CPU's node plus the
// other 7 nodes of each GPU on that CPU ("0,3-9,11-17"), as nvidia-smi prints on GB200
// (sgl-project/sglang issue #11208).
void fill_affinity(const ServerView& v, const std::vector<int>& locals, int gpus, std::vector<TopoDevice>& devs) {
  std::map<int, int> gpu_numa_id;  // device index -> its memory's NUMA id
  int next = v.cpu_numa_nodes();
  for (int d = 0; d < gpus; ++d)
    if (v.on_c2c(locals[d])) gpu_numa_id[d] = next, next += 8;
  for (size_t d = 0; d < devs.size(); ++d) {
    int cpu = v.host_cpu(locals[d]);
    TopoDevice& dev = devs[d];
    dev.cpu_affinity = cpu >= 0 && !v.spec(cpu).cpu_affinity.empty() ? v.spec(cpu).cpu_affinity : "N/A";
    dev.numa_affinity = cpu >= 0 && v.numa(cpu) >= 0 ? std::to_string(v.numa(cpu)) : "N/A";
    dev.gpu_numa_id = "N/A";
    auto own = gpu_numa_id.find(static_cast<int>(d));
    if (own == gpu_numa_id.end()) continue;
    dev.gpu_numa_id = std::to_string(own->second);
    std::set<int> ids{v.numa(cpu)};
    for (const auto& [other, first] : gpu_numa_id)
      if (v.host_cpu(locals[other]) == cpu)
        for (int k = 1; k < 8; ++k) ids.insert(first + k);
    dev.numa_affinity = id_list(ids);
  }
}

}  // namespace

TopoMatrix topo_matrix(const Cluster& c, int64_t server) {
  if (server < 0 || server >= c.servers())
    throw InputError({}, "server",
                     "server " + std::to_string(server) + " does not exist; the cluster has " +
                         std::to_string(c.servers()) + " server(s)",
                     "pick a server from 0 to " + std::to_string(c.servers() - 1));
  ServerView v(c, server);
  TopoMatrix m;
  m.server = server;
  std::vector<int> locals(c.gpu_locals());
  m.gpus = static_cast<int>(locals.size());
  for (int g = 0; g < m.gpus; ++g)
    m.devices.push_back({"GPU" + std::to_string(g), NodeKind::Gpu, v.id(locals[g]), "", "", "", ""});
  for (size_t k = 0; k < c.all_nic_locals().size(); ++k) {
    int local = c.all_nic_locals()[k];
    const ServerNode& s = v.spec(local);
    m.devices.push_back({"NIC" + std::to_string(k), NodeKind::Nic, v.id(local), s.label.empty() ? s.name : s.label,
                         "", "", ""});
    locals.push_back(local);
  }
  fill_affinity(v, locals, m.gpus, m.devices);

  auto nv = nvlink_cells(c, v, std::vector<int>(locals.begin(), locals.begin() + m.gpus));
  size_t n = locals.size();
  m.cells.assign(n, std::vector<TopoCell>(n));
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = 0; j < n; ++j) {
      TopoCell& cell = m.cells[i][j];
      if (i == j) {
        cell.conn = TopoConn::Self;
      } else if (i < static_cast<size_t>(m.gpus) && j < static_cast<size_t>(m.gpus) &&
                 nv[i][j].conn == TopoConn::NvLink) {
        cell = nv[i][j];
      } else {
        cell.conn = v.pcie_distance(locals[i], locals[j]);
      }
    }
  }
  return m;
}

}  // namespace gf
