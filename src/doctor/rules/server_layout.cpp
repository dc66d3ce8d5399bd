#include "doctor/rules/server_layout.hpp"

#include <algorithm>
#include <sstream>

namespace gf {

namespace {

LinkFamily family_of(const LinkCatalog& catalog, const std::string& tech) {
  auto id = catalog.find(tech);
  return id ? catalog.tech(*id).family : LinkFamily::EthernetTcp;
}

bool scale_up_family(LinkFamily f) {
  return f == LinkFamily::NvLink || f == LinkFamily::Xgmi || f == LinkFamily::GaudiRoce;
}

// Order of the nvidia-smi classes from near to far, for "nearest".
int rank_of(TopoConn c) { return static_cast<int>(c); }

}  // namespace

PcieTree pcie_tree(const ServerTemplate& t, const LinkCatalog& catalog) {
  const size_t n = t.nodes.size();
  PcieTree tree{std::vector<int>(n, -1), std::vector<int>(n, -1)};
  std::vector<char> seen(n, 0);
  std::vector<int> queue;
  for (size_t i = 0; i < n; ++i)
    if (t.nodes[i].kind == NodeKind::Cpu) seen[i] = 1, queue.push_back(static_cast<int>(i));
  for (size_t q = 0; q < queue.size(); ++q) {
    int u = queue[q];
    for (size_t li = 0; li < t.links.size(); ++li) {
      const ServerLink& l = t.links[li];
      if (l.a != u && l.b != u) continue;
      int v = l.a == u ? l.b : l.a;
      if (seen[v] || family_of(catalog, l.tech) != LinkFamily::Pcie) continue;
      NodeKind k = t.nodes[v].kind;
      if (k != NodeKind::PcieSwitch && k != NodeKind::Gpu && k != NodeKind::Nic) continue;
      seen[v] = 1;
      tree.parent[v] = u;
      tree.parent_link[v] = static_cast<int>(li);
      if (k == NodeKind::PcieSwitch) queue.push_back(v);  // GPUs and NICs do not forward
    }
  }
  return tree;
}

ServerLayout::ServerLayout(const Cluster& c)
    : c_(c), m_(topo_matrix(c, 0)), tree_(pcie_tree(c.server_template(), c.catalog())),
      gpu_(c.gpu_locals()), nic_(c.nic_locals()) {
  for (int g = 0; g < gpus(); ++g) {
    int lanes = 0;
    Bandwidth bw;
    for (LinkId id : c.out_links(c.server_node(0, gpu_[g]))) {
      const Link& l = c.link(id);
      NodeKind to = c.node(l.dst).kind;
      if ((to == NodeKind::Gpu || to == NodeKind::NvSwitch) && scale_up_family(c.catalog().tech(l.tech).family)) {
        lanes += l.lanes;
        bw = bw + l.bandwidth;
      }
    }
    lanes_.push_back(lanes);
    scale_up_bw_.push_back(bw);
  }
}

TopoConn ServerLayout::rdma_distance(int g, int k) const {
  TopoConn conn = gpu_nic(g, k).conn;
  if (conn != TopoConn::Sys) return conn;
  // A GPU on NVLink-C2C reaches a NIC on its own CPU's PCIe without crossing the socket link.
  const ServerTemplate& t = server();
  int nic_cpu = nic_[k];
  while (nic_cpu >= 0 && t.nodes[nic_cpu].kind != NodeKind::Cpu) nic_cpu = tree_.parent[nic_cpu];
  if (nic_cpu < 0) return conn;
  for (const ServerLink& l : t.links) {
    bool joins = (l.a == gpu_[g] && l.b == nic_cpu) || (l.b == gpu_[g] && l.a == nic_cpu);
    if (joins && family_of(catalog(), l.tech) == LinkFamily::NvLinkC2C) return TopoConn::Pix;
  }
  return conn;
}

std::vector<int> ServerLayout::nearest_nics(int g) const {
  std::vector<int> out;
  int best = rank_of(TopoConn::Sys) + 1;
  for (int k = 0; k < nics(); ++k) {
    int r = rank_of(rdma_distance(g, k));
    if (r < best) best = r, out.clear();
    if (r == best) out.push_back(k);
  }
  return out;
}

TopoConn ServerLayout::nearest_distance(int g) const {
  std::vector<int> near = nearest_nics(g);
  return near.empty() ? TopoConn::Sys : rdma_distance(g, near.front());
}

Bandwidth ServerLayout::nic_bandwidth(int k) const {
  auto id = catalog().find(server().nodes[nic_[k]].tech);
  return id ? catalog().tech(*id).per_lane : Bandwidth();
}

Bandwidth ServerLayout::link_bandwidth(int template_link) const {
  const ServerLink& l = server().links[template_link];
  auto id = catalog().find(l.tech);
  return id ? catalog().tech(*id).per_lane * static_cast<double>(l.lanes) : Bandwidth();
}

bool ServerLayout::under(int local, int sw) const {
  for (int p = tree_.parent[local]; p >= 0; p = tree_.parent[p])
    if (p == sw) return true;
  return false;
}

std::vector<int> ServerLayout::gpus_under(int sw) const {
  std::vector<int> out;
  for (int g = 0; g < gpus(); ++g)
    if (under(gpu_[g], sw)) out.push_back(g);
  return out;
}

std::vector<int> ServerLayout::nics_under(int sw) const {
  std::vector<int> out;
  for (int k = 0; k < nics(); ++k)
    if (under(nic_[k], sw)) out.push_back(k);
  return out;
}

std::string ServerLayout::gpu_name(int g) const { return node_name(gpu_[g]); }

std::string ServerLayout::nic_name(int k) const {
  const ServerNode& n = server().nodes[nic_[k]];
  return n.label.empty() || n.label == n.name ? n.name : n.name + " (" + n.label + ")";
}

int add_nic_near_gpu(ServerTemplate& t, const LinkCatalog& catalog, int gpu_local, const std::string& nic_tech) {
  PcieTree tree = pcie_tree(t, catalog);
  const ServerNode gpu = t.nodes[gpu_local];
  int rail = 0;
  for (const ServerNode& n : t.nodes)
    if (n.kind == NodeKind::Nic) rail = std::max(rail, n.rail + 1);
  auto add_node = [&](ServerNode n) {
    t.nodes.push_back(std::move(n));
    return static_cast<int>(t.nodes.size() - 1);
  };
  int nic = add_node({"nic_" + gpu.name, NodeKind::Nic, gpu.numa, rail, nic_tech, "", ""});
  int parent = tree.parent[gpu_local];
  if (parent < 0) {
    // Not on PCIe (NVLink-C2C): the NIC goes on the PCIe of the CPU the GPU is joined to.
    for (const ServerLink& l : t.links) {
      int other = l.a == gpu_local ? l.b : l.b == gpu_local ? l.a : -1;
      if (other >= 0 && t.nodes[other].kind == NodeKind::Cpu) {
        t.links.push_back({nic, other, "pcie-gen5-x16", 1});
        return nic;
      }
    }
    return nic;  // nowhere to plug it: the NIC stays unconnected and the build will say so
  }
  const std::string pcie = t.links[tree.parent_link[gpu_local]].tech;
  if (t.nodes[parent].kind == NodeKind::Cpu) {
    // Root port: a switch between the GPU and its root complex makes the GPU and the NIC PIX.
    int sw = add_node({"pcie_" + gpu.name, NodeKind::PcieSwitch, gpu.numa, -1, "", "", ""});
    ServerLink& up = t.links[tree.parent_link[gpu_local]];
    up = {gpu_local, sw, pcie, 1};
    t.links.push_back({sw, parent, pcie, 1});
    parent = sw;
  }
  t.links.push_back({nic, parent, pcie, 1});
  return nic;
}

std::string fastest_nic_tech(const ServerTemplate& t, const LinkCatalog& catalog) {
  std::string best;
  Bandwidth best_bw;
  for (const ServerNode& n : t.nodes) {
    if (!n.compute_nic()) continue;
    auto id = catalog.find(n.tech);
    Bandwidth bw = id ? catalog.tech(*id).per_lane : Bandwidth();
    if (best.empty() || bw > best_bw) best = n.tech, best_bw = bw;
  }
  return best;
}

ClusterSpec two_servers(const ClusterSpec& spec, ServerTemplate server) {
  ClusterSpec s = spec;
  // Servers of one NVLink domain talk over NVLink: take two whole domains so traffic crosses NICs.
  s.servers = server.scale_up ? 2 * std::max(1, server.scale_up->servers_per_domain) : 2;
  s.server = std::move(server);
  s.fabric = FabricSpec{};
  s.fabric.kind = "single_switch";
  // A switch with a port for every NIC, even where the NIC's usual switch model has fewer: the
  // comparison is about the server, not about the switch.
  s.fabric.switch_radix = static_cast<int>(std::max<int64_t>(2, s.servers * s.server.compute_nics()));
  s.fabric.where = spec.fabric.where;
  return s;
}

ClusterSpec one_server(const ClusterSpec& spec, ServerTemplate server) {
  ClusterSpec s = spec;
  s.servers = 1;
  s.server = std::move(server);
  s.fabric = FabricSpec{};
  s.fabric.kind = "single_switch";
  s.fabric.where = spec.fabric.where;
  return s;
}

std::string gBps_text(Bandwidth b) {
  std::ostringstream os;
  os.precision(3);
  os << b.to_gBps() << " GB/s";
  return os.str();
}

}  // namespace gf
