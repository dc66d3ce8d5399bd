// count_cluster() and build_cluster(): from a ClusterSpec to hardware counts and to a graph.
#include <algorithm>
#include <deque>
#include <map>

#include "topology/cluster_spec.hpp"

namespace gf {
namespace {

FabricShape shape_of(const ClusterSpec& spec) {
  FabricShape s;
  s.servers = spec.servers;
  s.gpus_per_server = spec.server.count(NodeKind::Gpu);
  s.nics_per_server = spec.server.compute_nics();
  for (const auto& n : spec.server.nodes) {
    if (!n.compute_nic()) continue;
    s.nic_tech = n.tech;
    if (auto id = spec.catalog.find(n.tech)) s.nic_bandwidth = spec.catalog.tech(*id).per_lane;
    break;
  }
  return s;
}

// NIC-side cables per technology when a server's NICs are not all alike: the fabric builders
// count every NIC port at the first NIC's technology (FabricShape::nic_tech), so a one-per-NIC
// row ("nic-leaf", "nic-router", "nic-switch") is split by each NIC's own; NIC-to-NIC rows
// (mesh, torus) keep one row, since a cable there runs at the slower of its two ends.
void split_nic_cables(const ClusterSpec& spec, FabricCounts& f) {
  std::map<std::string, int64_t> per_tech;  // NICs per technology over all servers
  for (const auto& n : spec.server.nodes)
    if (n.compute_nic()) per_tech[n.tech] += spec.servers;
  if (per_tech.size() < 2) return;
  const int64_t nics = spec.servers * spec.server.compute_nics();
  std::vector<CableCount> out;
  for (const auto& cable : f.cables) {
    const bool per_nic = cable.between.rfind("nic-", 0) == 0 && cable.between != "nic-nic";
    if (!per_nic) {
      out.push_back(cable);
      continue;
    }
    for (const auto& [tech, n] : per_tech) out.push_back({tech, cable.between, n * cable.count / nics});
  }
  f.cables = std::move(out);
}

bool needs_fabric(const ClusterSpec& spec) {
  if (spec.servers <= 1) return false;
  // An NVLink domain that spans every server joins them without a scale-out fabric.
  if (spec.server.scale_up && spec.servers <= spec.server.scale_up->servers_per_domain &&
      spec.server.compute_nics() == 0)
    return false;
  return true;
}

void check_scale_up(const ClusterSpec& spec) {
  const auto& d = *spec.server.scale_up;
  if (d.servers_per_domain <= 0 || d.switch_chips <= 0 || d.links_per_gpu <= 0)
    throw InputError(spec.where, "server.scale_up", "servers_per_domain, switch_chips and links_per_gpu must be positive",
                     "GB200 NVL72 is {servers_per_domain: 18, switch_chips: 18, links_per_gpu: 18}");
  if (d.links_per_gpu % d.switch_chips != 0)
    throw InputError(spec.where, "server.scale_up.links_per_gpu",
                     "links_per_gpu (" + std::to_string(d.links_per_gpu) + ") must be a multiple of switch_chips (" +
                         std::to_string(d.switch_chips) + ") so each GPU reaches every chip equally",
                     "use links_per_gpu " + std::to_string((d.links_per_gpu / d.switch_chips + 1) * d.switch_chips));
  if (!spec.catalog.find(d.tech))
    throw InputError(spec.where, "server.scale_up.tech", "unknown link technology '" + d.tech + "'",
                     suggest(d.tech, spec.catalog.tech_names()));
}

}  // namespace

ClusterCounts count_cluster(const ClusterSpec& spec) {
  if (spec.servers < 1)
    throw InputError(spec.where, "servers", "a cluster needs at least one server, got " + std::to_string(spec.servers),
                     "set servers: 1 or more (or --nodes N)");
  spec.server.validate(spec.catalog, spec.where);
  ClusterCounts c;
  c.shape = shape_of(spec);
  c.servers = spec.servers;
  c.gpus = spec.servers * c.shape.gpus_per_server;
  c.nics = spec.servers * c.shape.nics_per_server;

  std::map<std::string, int64_t> per_tech;  // ordered: deterministic output
  int64_t server_links = 0;
  for (const auto& l : spec.server.links) {
    const LinkTech& t = spec.catalog.tech(*spec.catalog.find(l.tech));
    // NVLink and xGMI are counted in links (lanes), as datasheets do ("18 NVLinks per GPU").
    bool lane_counted = t.family == LinkFamily::NvLink || t.family == LinkFamily::Xgmi;
    per_tech[l.tech] += (lane_counted ? l.lanes : 1) * spec.servers;
    ++server_links;
  }
  for (const auto& [tech, n] : per_tech) c.intra_server.push_back({tech, "in-server", n});
  c.links_directed = 2 * server_links * spec.servers;

  if (spec.server.scale_up) {
    check_scale_up(spec);
    const auto& d = *spec.server.scale_up;
    int64_t domains = (spec.servers + d.servers_per_domain - 1) / d.servers_per_domain;
    c.scale_up_switches = domains * d.switch_chips;
    c.intra_server.push_back({d.tech, "gpu-nvswitch (domain)", c.gpus * d.links_per_gpu});
    c.links_directed += 2 * c.gpus;  // one bonded link per GPU to the domain's switch plane (build_scale_up)
  }
  if (needs_fabric(spec)) {
    if (c.shape.nics_per_server == 0)
      throw InputError(spec.where, "server", "servers have no NIC, so GPUs in different servers cannot reach each other",
                       "add NIC nodes to the server, or use servers: 1");
    c.fabric = find_fabric(spec.fabric.kind, spec.fabric.where).count(spec.fabric, c.shape, spec.catalog);
    split_nic_cables(spec, c.fabric);
    c.links_directed += c.fabric.links_directed;
  }
  return c;
}

namespace {

// A domain's switch chips are built as ONE node, the NVLink switch plane, and each GPU's
// links_per_gpu NVLinks as one bonded link to it. Exact, not an approximation: every GPU reaches
// every chip with the same lanes (check_scale_up), and every route through the domain spreads over
// the chips in proportion to their bandwidth (Router::scale_up_route, links_to_nvswitch), so each
// chip link of a GPU always carries the same fraction of its traffic and the chips' links fill
// and drain together, as one link of their summed bandwidth would. NCCL's own topology does the
// same (src/graph/topo.cc: one NVS node, a GPU's NVLinks to it one link of count x per-link
// bandwidth). Built chip by chip, an NVL72 rack was 72 x 18 links each way, and an in-switch
// reduction over 72 GPUs 1,296 legs: 36 s and 5.9 GB for one all-reduce on 16 racks
// (docs/performance.md); the chips stay counted in the summary (ClusterCounts::scale_up_switches).
void build_scale_up(const ClusterSpec& spec, Cluster& c) {
  const auto& d = *spec.server.scale_up;
  TechId tech = *spec.catalog.find(d.tech);
  int64_t domains = (spec.servers + d.servers_per_domain - 1) / d.servers_per_domain;
  for (int64_t dom = 0; dom < domains; ++dom) {
    const NodeId plane = c.add_fabric_node(NodeKind::NvSwitch, 0, static_cast<int>(dom),
                                           "nvl-domain" + std::to_string(dom) + "/nvswitch-plane");
    int64_t first = dom * d.servers_per_domain;
    int64_t last = std::min<int64_t>(spec.servers, first + d.servers_per_domain);
    for (int64_t s = first; s < last; ++s)
      for (int g : c.gpu_locals()) c.connect(c.server_node(s, g), plane, tech, d.links_per_gpu);
  }
}

// Every GPU must reach GPU 0 without passing through another GPU (GPUs do not forward).
void check_connected(const Cluster& c, const SourceLocation& where) {
  if (c.gpu_count() <= 1) return;
  std::vector<char> seen(c.nodes().size(), 0);
  std::deque<NodeId> q{c.gpu(0)};
  seen[c.gpu(0)] = 1;
  while (!q.empty()) {
    NodeId n = q.front();
    q.pop_front();
    if (c.node(n).kind == NodeKind::Gpu && n != c.gpu(0)) continue;
    for (LinkId l : c.out_links(n)) {
      NodeId m = c.link(l).dst;
      if (!seen[m]) seen[m] = 1, q.push_back(m);
    }
  }
  const int gps = c.gpus_per_server();
  for (int64_t g = 1; g < c.gpu_count(); ++g) {
    if (seen[c.gpu(g)]) continue;
    // Reached inside its own server but not across: the fabric joins only some positions (a
    // switchless fabric cabling each NIC to the same NIC elsewhere, with NICs on the GPUs).
    const bool across = gps > 0 && g / gps != 0;
    throw InputError(where, "server.links",
                     "gpu" + std::to_string(g) + " (" + c.node_name(c.gpu(g)) + ") has no path to gpu0",
                     across ? "it is on another server, reached only through GPUs, which do not forward (NICs on the "
                              "GPUs cabled only to the same NIC elsewhere, as full_mesh does, join only same-position "
                              "GPUs); use a switched fabric (e.g. --fabric leaf_spine), or give every server a NIC"
                            : "connect every GPU to an NVSwitch, a PCIe switch or a CPU, and every server to a NIC");
  }
}

}  // namespace

Cluster build_cluster(const ClusterSpec& spec) {
  ClusterCounts counts = count_cluster(spec);
  if (counts.links_directed > kMaxBuildLinks)
    throw InputError(spec.where, "servers",
                     "this design needs " + std::to_string(counts.links_directed) +
                         " directed links, more than the " + std::to_string(kMaxBuildLinks) + " gpufabric builds",
                     "its hardware counts are still reported by `gpufabric topo`; use a switched fabric to simulate it");
  Cluster c(spec.catalog, spec.server, spec.servers);
  c.reserve_links(static_cast<size_t>(counts.links_directed));
  std::vector<TechId> techs;
  for (const auto& l : spec.server.links) techs.push_back(*spec.catalog.find(l.tech));
  for (int64_t s = 0; s < spec.servers; ++s)
    for (size_t i = 0; i < spec.server.links.size(); ++i) {
      const ServerLink& l = spec.server.links[i];
      c.connect(c.server_node(s, l.a), c.server_node(s, l.b), techs[i], l.lanes);
    }
  if (spec.server.scale_up) build_scale_up(spec, c);
  if (needs_fabric(spec)) {
    std::vector<FabricEndpoint> eps;
    eps.reserve(static_cast<size_t>(counts.nics));
    for (int64_t s = 0; s < spec.servers; ++s)
      for (int local : c.fabric_nic_locals()) {
        const ServerNode& n = spec.server.nodes[local];
        const TechId own = n.tech == counts.shape.nic_tech ? kShapeTech : *spec.catalog.find(n.tech);
        eps.push_back({c.server_node(s, local), static_cast<int32_t>(s), n.rail, own});
      }
    find_fabric(spec.fabric.kind, spec.fabric.where).build(spec.fabric, counts.shape, eps, c);
    // Direct fabrics have no switch model; only a named model can reduce in the network.
    auto model = !spec.fabric.switch_model.empty() ? spec.catalog.find_switch(spec.fabric.switch_model)
                                                   : spec.catalog.default_switch_for(
                                                         spec.fabric.link.empty() ? counts.shape.nic_tech : spec.fabric.link);
    c.set_fabric_reduces(model && model->in_network_reduction);
    c.set_fabric_switch(model);
  }
  c.finalize();
  check_connected(c, spec.where);
  return c;
}

}  // namespace gf
