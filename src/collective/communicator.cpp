#include "collective/communicator.hpp"

#include <algorithm>
#include <numeric>

#include "core/error.hpp"
#include "topology/link_tech.hpp"

namespace gf {

namespace {

// Directed Hamiltonian rings over `ppn` fully connected GPUs that share no link: Walecki's
// decomposition (Alspach, "The wonderful Walecki construction", Bull. ICA 52, 2008). GPU ppn-1 is
// the hub; the others sit on a circle of k = ppn-1 and cycle i visits the hub, then i, i+1, i-1,
// i+2, i-2, ... around the circle. The floor((ppn-1)/2) cycles are edge-disjoint; each runs in
// both directions, so a GPU sends on ppn-1 of its ppn-1 links for odd ppn and on ppn-2 of them for
// even ppn (K_ppn less a perfect matching: the leftover link of each GPU closes no ring). Stepping
// by strides coprime with ppn instead (1, 3, 5, 7 for 8 GPUs) uses only the links to GPUs an odd
// distance away, 4 of 7, which left an 8-GPU xGMI mesh at 4/7 of its ring bandwidth.
std::vector<std::vector<int>> mesh_rings(int ppn) {
  std::vector<std::vector<int>> rings;
  const int k = ppn - 1;
  for (int i = 0; i < k / 2; ++i) {
    std::vector<int> cycle{ppn - 1};
    for (int j = 0; j < k; ++j) {
      const int offset = j % 2 == 1 ? (j + 1) / 2 : -(j / 2);
      cycle.push_back(((i + offset) % k + k) % k);
    }
    rings.push_back(cycle);
    rings.emplace_back(cycle.rbegin(), cycle.rend());
  }
  if (rings.empty()) {  // 1 or 2 GPUs: the one ring
    std::vector<int> cycle(static_cast<size_t>(std::max(ppn, 0)));
    std::iota(cycle.begin(), cycle.end(), 0);
    rings.push_back(cycle);
  }
  return rings;
}

// CollNet's legs run from each GPU up to the first network switch (Router::uplink_to_fabric);
// true when that switch exists for every GPU of the first server and every NIC it may pick (the
// servers share one template, so the first stands for all).
bool every_gpu_meets_a_switch(const Router& router, const Communicator& m) {
  const int choices = std::max<int>(1, static_cast<int>(m.cluster->nic_locals().size()));
  for (int local = 0; local < m.ppn; ++local)
    for (int choice = 0; choice < choices; ++choice)
      if (router.uplink_to_fabric(m.gpu[static_cast<size_t>(m.rank(0, local))], 0, choice).empty()) return false;
  return true;
}

}  // namespace

int Communicator::distinct_rings() const { return nvlink && !nvswitch ? static_cast<int>(mesh_rings(ppn).size()) : 1; }

std::vector<Rank> Communicator::ring(int channel) const {
  std::vector<Rank> order;
  order.reserve(static_cast<size_t>(nranks));
  // With direct GPU-to-GPU links (an xGMI or NVLink full mesh, no switch) a ring that always steps
  // to the next GPU would use the same one link per pair on every channel; RCCL/NCCL spread their
  // channels over different rings. Channel c takes ring c mod R of mesh_rings (R rings) and starts
  // at position (c / R) mod ppn, so R x ppn channels give every ring every start, hence every GPU
  // (and its NIC) the same number of channels leaving and entering the server.
  std::vector<int> within(static_cast<size_t>(std::max(ppn, 0)));
  std::iota(within.begin(), within.end(), 0);
  int rings_count = 1;
  if (nvlink && !nvswitch) {
    std::vector<std::vector<int>> rings = mesh_rings(ppn);
    rings_count = static_cast<int>(rings.size());
    within = rings[static_cast<size_t>(channel) % rings.size()];
  }
  const int start = ppn > 0 ? (channel / rings_count) % ppn : 0;
  // NCCL_CROSS_NIC=1 (topology/net_transport.hpp): NCCL's search may then leave each server
  // through the last GPU's own NIC (search.cc ncclTopoSearchTryNet skips its rail check unless
  // crossNic is 0), and every server runs the same graph, so all servers walk forward: the ring
  // leaves a server on the rail of position start-1 and enters the next on the rail of `start`.
  const bool cross_nic = cluster && cluster->server_template().transport.net.cross_nic == 1;
  for (int n = 0; n < nnodes; ++n) {
    for (int i = 0; i < ppn; ++i) {
      // Even servers walk forward from `start`; odd servers walk back from where the previous
      // server left off, so consecutive servers meet on the same GPU position (same rail).
      int step = n % 2 == 0 || cross_nic ? i : ppn - 1 - i;
      order.push_back(rank(n, within[static_cast<size_t>((start + step) % ppn)]));
    }
  }
  return order;
}

Communicator make_communicator(const Cluster& c, const Router& router, int nodes, int gpus_per_node) {
  if (nodes < 1 || nodes > c.servers())
    throw InputError({}, "--nodes",
                     "the cluster has " + std::to_string(c.servers()) + " servers, asked for " + std::to_string(nodes),
                     "use --nodes 1.." + std::to_string(c.servers()));
  if (gpus_per_node < 1 || gpus_per_node > c.gpus_per_server())
    throw InputError({}, "--gpus-per-node",
                     "a server has " + std::to_string(c.gpus_per_server()) + " GPUs, asked for " +
                         std::to_string(gpus_per_node),
                     "use --gpus-per-node 1.." + std::to_string(c.gpus_per_server()));
  std::vector<int64_t> servers(static_cast<size_t>(nodes));
  std::vector<int> locals(static_cast<size_t>(gpus_per_node));
  for (int n = 0; n < nodes; ++n) servers[static_cast<size_t>(n)] = n;
  for (int l = 0; l < gpus_per_node; ++l) locals[static_cast<size_t>(l)] = l;
  return make_communicator(c, router, servers, locals);
}

Communicator make_communicator(const Cluster& c, const Router& router, std::span<const int64_t> servers,
                               std::span<const int> locals) {
  if (servers.empty()) throw InputError({}, "servers", "no servers given", "name at least one server");
  if (locals.empty()) throw InputError({}, "gpus", "no GPU positions given", "name at least one GPU per server");
  std::vector<bool> seen(static_cast<size_t>(c.servers()), false);
  for (int64_t s : servers) {
    if (s < 0 || s >= c.servers())
      throw InputError({}, "servers", "server " + std::to_string(s) + " does not exist (the cluster has " +
                                          std::to_string(c.servers()) + ")",
                       "use servers 0.." + std::to_string(c.servers() - 1));
    if (seen[static_cast<size_t>(s)]) throw InputError({}, "servers", "server " + std::to_string(s) + " is listed twice", "name each server once");
    seen[static_cast<size_t>(s)] = true;
  }
  std::vector<bool> seen_local(static_cast<size_t>(c.gpus_per_server()), false);
  for (int l : locals) {
    if (l < 0 || l >= c.gpus_per_server())
      throw InputError({}, "gpus", "a server has " + std::to_string(c.gpus_per_server()) + " GPUs, asked for position " +
                                       std::to_string(l),
                       "use positions 0.." + std::to_string(c.gpus_per_server() - 1));
    if (seen_local[static_cast<size_t>(l)])
      throw InputError({}, "gpus", "GPU position " + std::to_string(l) + " is listed twice", "name each GPU position once");
    seen_local[static_cast<size_t>(l)] = true;
  }
  const int nodes = static_cast<int>(servers.size());
  const int gpus_per_node = static_cast<int>(locals.size());
  Communicator m;
  m.cluster = &c;
  // Servers joined by an NVLink domain (GB200 NVL72 trays) form one NCCL "node": NCCL treats a
  // multi-node NVLink clique as one node (MNNVL), so its algorithms reduce inside the domain over
  // NVLink and only cross the network between domains. Whole domains only (each block of `group`
  // servers in the list lies in one domain); otherwise per server.
  int group = 1;
  if (const auto& d = c.server_template().scale_up; d && nodes > 1) {
    group = std::min(nodes, d->servers_per_domain);
    if (nodes % group != 0) group = 1;
    for (int n = 0; n < nodes && group > 1; ++n)
      if (servers[static_cast<size_t>(n)] / d->servers_per_domain !=
          servers[static_cast<size_t>(n - n % group)] / d->servers_per_domain)
        group = 1;
  }
  m.nnodes = nodes / group;
  m.ppn = gpus_per_node * group;
  m.nranks = nodes * gpus_per_node;
  m.arch = c.server_template().gpu.arch;
  for (int n = 0; n < nodes; ++n)
    for (int l = 0; l < gpus_per_node; ++l) {
      m.gpu.push_back(c.gpu(servers[static_cast<size_t>(n)] * c.gpus_per_server() + locals[static_cast<size_t>(l)]));
      m.node_of.push_back(n / group);
      m.local_of.push_back((n % group) * gpus_per_node + l);
    }
  // Intra-server: how GPU 0 reaches GPU 1 (the server template is the same everywhere).
  if (gpus_per_node > 1) {
    Router::Plans plans = router.plans(m.gpu[0], m.gpu[1]);
    std::vector<Path> paths = router.equal_cost_paths(plans, 256);
    m.intra_bw = max_flow(c, paths);
    for (const auto& p : paths)
      for (LinkId l : p.links) {
        const LinkTech& t = c.catalog().tech(c.link(l).tech);
        if (t.family == LinkFamily::NvLink || t.family == LinkFamily::Xgmi) m.nvlink = true;
        if (c.node(c.link(l).dst).kind == NodeKind::NvSwitch) m.nvswitch = true;
      }
  }
  // NVLS needs NVSwitch gen 3 or later, i.e. Hopper or Blackwell GPUs (NVIDIA H100 architecture
  // white paper: NVLink SHARP); CollNet needs the fabric's switches to reduce (SHARP).
  m.nvls = m.nvswitch && (m.arch == "hopper" || m.arch == "blackwell");
  // Across nodes (NVLink domains count as one), and only where every GPU's way out of the server
  // meets a network switch: a direct fabric (full_mesh, torus) joins NICs, or per-server routers,
  // with no switch for SHARP to reduce in, whatever the NICs' technology would offer.
  m.collnet = m.nnodes > 1 && c.fabric_reduces() && every_gpu_meets_a_switch(router, m);
  // Inter-server: the scale-out bandwidth a server's NICs give each of its GPUs.
  double nic_total = 0;
  for (int local : c.nic_locals()) {
    for (LinkId l : c.out_links(c.server_node(0, local))) {
      NodeId far = c.link(l).dst;
      if (c.node(far).server != c.node(c.server_node(0, local)).server) nic_total += c.link(l).bandwidth.bytes_per_second();
    }
  }
  m.inter_bw = Bandwidth::bytes_per_s(c.gpus_per_server() > 0 ? nic_total / c.gpus_per_server() : 0);
  // One scale-up domain: a single server, or servers joined by an NVLink domain.
  m.one_domain = nodes == 1 || (nodes > 1 && router.plans(m.gpu[0], m.gpu[static_cast<size_t>(m.nranks - 1)]).size() == 1 &&
                                router.plans(m.gpu[0], m.gpu[static_cast<size_t>(m.nranks - 1)])[0].size() == 1);
  return m;
}

}  // namespace gf
