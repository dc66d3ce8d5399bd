#include "routing/router.hpp"

#include <algorithm>

#include "core/hash.hpp"
#include "routing/gpu_nic_path.hpp"
#include "routing/segment_search.hpp"
#include "topology/pcie_matrix.hpp"

namespace gf {

namespace {

// The salt of the hash that picks among equally short NIC pairings.
constexpr uint64_t kPlanSalt = 0x9e3779b97f4a7c15ULL;

// ECMP: hash(flow key, node) among the candidates.
struct HashPick {
  uint64_t key;
  size_t operator()(NodeId n, const std::vector<LinkId>& cand) const {
    return mix_hash(key, static_cast<uint64_t>(n)) % cand.size();
  }
};

// Adaptive: the least-loaded outgoing link; ties by the ECMP hash among the tied candidates.
struct LeastLoadedPick {
  uint64_t key;
  const LinkLoad& load;
  size_t operator()(NodeId n, const std::vector<LinkId>& cand) const {
    double best = load.load(cand[0]);
    size_t ties = 1;
    for (size_t i = 1; i < cand.size(); ++i) {
      const double x = load.load(cand[i]);
      if (x < best) best = x, ties = 0;
      if (x == best) ++ties;
    }
    size_t want = mix_hash(key, static_cast<uint64_t>(n)) % ties;
    for (size_t i = 0; i < cand.size(); ++i)
      if (load.load(cand[i]) == best && want-- == 0) return i;
    return 0;  // unreachable: `ties` candidates carry the least load
  }
};

// Spray walk i: the digits of i in the mixed radix of the candidate counts, rotated per node by
// the ECMP hash (see Router::route).
struct DigitPick {
  uint64_t key;
  uint64_t rest;
  size_t operator()(NodeId n, const std::vector<LinkId>& cand) {
    const uint64_t c = cand.size();
    const uint64_t digit = rest % c;
    rest /= c;
    return (digit + mix_hash(key, static_cast<uint64_t>(n)) % c) % c;
  }
};

bool is_scale_up(const Router::Plans& ps) {
  return ps.size() == 1 && ps[0].size() == 1 && ps[0][0].kind == SegmentKind::ScaleUp;
}

}  // namespace

Router::Router(const Cluster& cluster) : c_(cluster), server_(cluster), fabric_(cluster) {
  const int locals = c_.nodes_per_server(), gpus = c_.gpus_per_server();
  gpu_pos_.assign(static_cast<size_t>(locals), -1);
  for (int i = 0; i < gpus; ++i) gpu_pos_[static_cast<size_t>(c_.gpu_locals()[static_cast<size_t>(i)])] = i;
  if (c_.servers() == 0) return;
  // The NICs nearest each GPU position, found once on server 0: every server has the same template.
  for (int g : c_.gpu_locals()) {
    NodeId gpu = c_.server_node(0, g);
    int best = -1;
    std::vector<int> nics;
    for (int nic : c_.nic_locals()) {
      const int h = server_.hops(c_.server_node(0, nic), gpu);
      if (h < 0) continue;
      if (best < 0 || h < best) best = h, nics.clear();
      if (h == best) nics.push_back(nic);
    }
    nearest_nics_.push_back(nics);
  }
  // A scale-up route may leave its servers only through NVLink-domain nodes (server -1, not
  // network switches) or a cable joining two servers' non-NIC devices.
  auto scale_up_kind = [](const Node& n) { return n.kind != NodeKind::Nic && n.kind != NodeKind::Switch; };
  for (const Node& n : c_.nodes())
    if (n.server == -1 && scale_up_kind(n)) cross_server_scale_up_ = true;
  for (const Link& l : c_.links()) {
    if (cross_server_scale_up_) break;
    const Node &s = c_.node(l.src), &d = c_.node(l.dst);
    if (s.server >= 0 && d.server >= 0 && s.server != d.server && scale_up_kind(s) && scale_up_kind(d))
      cross_server_scale_up_ = true;
  }
  // PXN's relay condition on the NIC side, per GPU position on server 0 (every server is a copy of
  // its template): a nearest NIC reached through PCIe switches only, after at most one CPU entered
  // over NVLink-C2C (NCCL's PATH_P2C). A CPU entered over PCIe is a host bridge (PHB) and a CPU to
  // CPU link is SYS: neither counts.
  pxn_nic_close_.assign(static_cast<size_t>(gpus), 0);
  for (int i = 0; i < gpus; ++i) {
    const NodeId gpu = c_.server_node(0, c_.gpu_locals()[static_cast<size_t>(i)]);
    std::vector<NodeId> frontier{gpu}, seen{gpu};
    for (size_t q = 0; q < frontier.size(); ++q) {
      const NodeId u = frontier[q];
      for (LinkId l : c_.out_links(u)) {
        const Link& link = c_.link(l);
        const Node& v = c_.node(link.dst);
        if (v.server != 0 || std::find(seen.begin(), seen.end(), link.dst) != seen.end()) continue;
        const LinkFamily fam = c_.catalog().tech(link.tech).family;
        const bool c2c_hop = u == gpu && v.kind == NodeKind::Cpu && fam == LinkFamily::NvLinkC2C;
        const bool pcie_hop = fam == LinkFamily::Pcie && (v.kind == NodeKind::PcieSwitch || v.kind == NodeKind::Nic);
        const bool own_port = u == gpu && v.kind == NodeKind::Nic;  // a NIC on the GPU itself
        if (!c2c_hop && !pcie_hop && !own_port) continue;
        seen.push_back(link.dst);
        if (v.kind == NodeKind::Nic) {
          const auto& near = nearest_nics_[static_cast<size_t>(i)];
          if (std::find(near.begin(), near.end(), v.local) != near.end()) pxn_nic_close_[static_cast<size_t>(i)] = 1;
        } else {
          frontier.push_back(link.dst);
        }
      }
    }
  }
  if (cross_server_scale_up_) {
    scale_up_component_.assign(c_.nodes().size(), -1);
    std::vector<NodeId> stack;
    int32_t next = 0;
    for (size_t start = 0; start < c_.nodes().size(); ++start) {
      if (scale_up_component_[start] >= 0 || !scale_up_kind(c_.node(static_cast<NodeId>(start)))) continue;
      scale_up_component_[start] = next;
      stack.assign(1, static_cast<NodeId>(start));
      while (!stack.empty()) {
        const NodeId u = stack.back();
        stack.pop_back();
        for (LinkId l : c_.out_links(u)) {
          const NodeId v = c_.link(l).dst;
          if (scale_up_component_[static_cast<size_t>(v)] >= 0 || !scale_up_kind(c_.node(v))) continue;
          scale_up_component_[static_cast<size_t>(v)] = next;
          stack.push_back(v);
        }
      }
      ++next;
    }
  }
  // The CPU local to each GPU: SHM's host memory, and the host buffers of NET without GPUDirect.
  const TransportSettings& ts = c_.server_template().transport;
  const auto& tmpl = c_.server_template().nodes;
  local_cpu_.assign(static_cast<size_t>(gpus), -1);
  for (int i = 0; i < gpus; ++i) {
    const int g = c_.gpu_locals()[static_cast<size_t>(i)];
    int best = -1, best_hops = -1;
    for (size_t k = 0; k < tmpl.size(); ++k) {
      if (tmpl[k].kind != NodeKind::Cpu) continue;
      const SegmentSearch s(c_, {c_.server_node(0, g), c_.server_node(0, static_cast<int>(k)), SegmentKind::ScaleUp});
      if (!s.reached()) continue;
      // The CPU of the GPU's own NUMA node, else the nearest (NCCL's ncclGetLocalCpu).
      const int h = tmpl[k].numa == tmpl[static_cast<size_t>(g)].numa && tmpl[k].numa >= 0 ? -1 : s.hops();
      if (best < 0 || h < best_hops) best = static_cast<int>(k), best_hops = h;
    }
    local_cpu_[static_cast<size_t>(i)] = best;
  }
  // GPUDirect RDMA or host staging, per GPU (topology/net_transport.hpp). Under NCCL's defaults no
  // GPU stages: every path below PHB is within the default level P2C.
  gpu_nic_type_.assign(static_cast<size_t>(gpus), -1);
  staged_.assign(static_cast<size_t>(gpus), 0);
  for (int i = 0; i < gpus; ++i) {
    const auto& near = nearest_nics_[static_cast<size_t>(i)];
    if (near.empty()) continue;
    const int t = gpu_nic_path_type(c_, c_.server_node(0, c_.gpu_locals()[static_cast<size_t>(i)]), c_.server_node(0, near[0]));
    gpu_nic_type_[static_cast<size_t>(i)] = t;
    staged_[static_cast<size_t>(i)] = ts.net.staged(t) && local_cpu_[static_cast<size_t>(i)] >= 0;
  }
  // Transports inside a server, by the pair's nvidia-smi class as NCCL's path types have it (two
  // host bridges of one NUMA node, nvidia-smi's NODE, are one CPU node in NCCL's graph: PHB).
  if (gpus > 1) {
    const TopoMatrix m = topo_matrix(c_, 0);
    transport_.assign(static_cast<size_t>(gpus * gpus), Transport::P2p);
    for (int i = 0; i < gpus; ++i)
      for (int j = 0; j < gpus; ++j) {
        if (i == j) continue;
        PathType t = PathType::Sys;
        switch (m.cells[static_cast<size_t>(i)][static_cast<size_t>(j)].conn) {
          case TopoConn::Self: t = PathType::Loc; break;
          case TopoConn::NvLink: t = PathType::Nvl; break;
          case TopoConn::Pix: t = PathType::Pix; break;
          case TopoConn::Pxb: t = PathType::Pxb; break;
          case TopoConn::Phb:
          case TopoConn::Node: t = PathType::Phb; break;
          case TopoConn::Sys: t = PathType::Sys; break;
        }
        Transport tr = ts.pick(t);
        if (tr == Transport::Shm && local_cpu_[static_cast<size_t>(j)] < 0) tr = Transport::Net;  // no host to go through
        transport_[static_cast<size_t>(i * gpus + j)] = tr;
      }
  }
  if (!cross_server_scale_up_) {
    // Then a scale-up route stays in one server, the same for every server: search server 0 once.
    same_server_scale_up_.assign(static_cast<size_t>(gpus * gpus), 0);
    for (int i = 0; i < gpus; ++i)
      for (int j = 0; j < gpus; ++j)
        if (i != j)
          same_server_scale_up_[static_cast<size_t>(i * gpus + j)] =
              SegmentSearch(c_, {c_.gpu(i), c_.gpu(j), SegmentKind::ScaleUp}).reached();
  }
}

const std::vector<int>& Router::nearest_nics(NodeId gpu) const {
  return nearest_nics_[static_cast<size_t>(gpu_pos_[static_cast<size_t>(c_.node(gpu).local)])];
}

bool Router::scale_up_reaches(NodeId a, NodeId b) const {
  const Node &na = c_.node(a), &nb = c_.node(b);
  if (!cross_server_scale_up_ && na.kind == NodeKind::Gpu && nb.kind == NodeKind::Gpu) {
    if (na.server != nb.server) return false;
    const int g = c_.gpus_per_server();
    return same_server_scale_up_[static_cast<size_t>(gpu_pos_[static_cast<size_t>(na.local)] * g +
                                                     gpu_pos_[static_cast<size_t>(nb.local)])] != 0;
  }
  if (!scale_up_component_.empty() && na.kind == NodeKind::Gpu && nb.kind == NodeKind::Gpu &&
      scale_up_component_[static_cast<size_t>(a)] != scale_up_component_[static_cast<size_t>(b)])
    return false;
  return SegmentSearch(c_, {a, b, SegmentKind::ScaleUp}).reached();
}

int Router::segment_hops(const RouteSegment& seg) const {
  if (seg.kind == SegmentKind::InServer) return server_.hops(seg.from, seg.to);
  if (seg.kind == SegmentKind::Fabric)
    if (std::optional<int> h = fabric_.hops(seg.from, seg.to)) return *h;
  return SegmentSearch(c_, seg).hops();
}

template <class Pick>
bool Router::append_walk(const RouteSegment& seg, Pick&& pick, Path& out) const {
  auto run = [&](const auto& dist) {
    if (dist(seg.from) == kUnreached) return false;
    walk_down(c_, seg.from, seg.to, dist, pick, scratch_, out);
    return true;
  };
  if (seg.kind == SegmentKind::InServer) {
    ServerDistances::View v = server_.toward(seg.from, seg.to);
    if (v.valid()) return run(v);
  } else if (seg.kind == SegmentKind::Fabric) {
    if (std::optional<FabricDistances::View> v = fabric_.toward(seg.from, seg.to)) {
      if ((*v)(seg.from) == kUnreached) return false;
      fabric_.walk(*v, pick, scratch_, out);
      return true;
    }
  }
  SegmentSearch s(c_, seg);
  return run([&](NodeId n) { return s.distance(n); });
}

Transport Router::same_server_transport(NodeId a, NodeId b) const {
  const int g = c_.gpus_per_server();
  return transport_[static_cast<size_t>(gpu_pos_[static_cast<size_t>(c_.node(a).local)] * g +
                                        gpu_pos_[static_cast<size_t>(c_.node(b).local)])];
}

bool Router::same_server_gpus(NodeId a, NodeId b) const {
  const Node &na = c_.node(a), &nb = c_.node(b);
  return na.kind == NodeKind::Gpu && nb.kind == NodeKind::Gpu && a != b && na.server >= 0 && na.server == nb.server &&
         !transport_.empty();
}

Transport Router::transport(NodeId a, NodeId b) const {
  if (same_server_gpus(a, b)) return same_server_transport(a, b);
  if (!c_.server_template().transport.p2p_over_nvlink()) return Transport::Net;
  return scale_up_reaches(a, b) ? Transport::P2p : Transport::Net;
}

std::vector<std::vector<RouteSegment>> Router::plans(NodeId a, NodeId b) const {
  std::vector<std::vector<RouteSegment>> out;
  if (a == b) return out;
  bool p2p = c_.server_template().transport.p2p_over_nvlink();
  if (same_server_gpus(a, b)) {
    const Transport t = same_server_transport(a, b);
    if (t == Transport::Shm) {
      const int cpu_local = local_cpu_[static_cast<size_t>(gpu_pos_[static_cast<size_t>(c_.node(b).local)])];
      const NodeId cpu = c_.server_node(c_.node(b).server, cpu_local);
      return {{{a, cpu, SegmentKind::ScaleUp}, {cpu, b, SegmentKind::ScaleUp}}};
    }
    p2p = t == Transport::P2p;
  }
  if (p2p && scale_up_reaches(a, b)) return {{{a, b, SegmentKind::ScaleUp}}};
  int sa = c_.node(a).server, sb = c_.node(b).server;
  const auto& nodes = c_.server_template().nodes;
  // The shortest NIC pairings; same-rail pairs win ties (NCCL pairs GPUs rail to rail).
  auto best_pairs = [&](const std::vector<int>& src_nics, const std::vector<int>& dst_nics) {
    std::vector<std::vector<RouteSegment>> found;
    int best = -1;
    bool best_same_rail = false;
    for (int src_nic : src_nics)
      for (int dst_nic : dst_nics) {
        NodeId sn = c_.server_node(sa, src_nic), dn = c_.server_node(sb, dst_nic);
        const int fab = segment_hops({sn, dn, SegmentKind::Fabric});
        if (fab < 0) continue;
        int first = server_.hops(a, sn), last = server_.hops(dn, b);
        if (first < 0 || last < 0) continue;
        int hops = first + fab + last;
        bool same_rail = nodes[src_nic].rail == nodes[dst_nic].rail;
        if (best >= 0 && (hops > best || (hops == best && best_same_rail && !same_rail))) continue;
        if (best < 0 || hops < best || (same_rail && !best_same_rail)) found.clear();
        best = hops;
        best_same_rail = same_rail;
        found.push_back({{a, sn, SegmentKind::InServer}, {sn, dn, SegmentKind::Fabric}, {dn, b, SegmentKind::InServer}});
      }
    return found;
  };
  out = best_pairs(nearest_nics(a), nearest_nics(b));
  // No fabric path between the nearest NICs (e.g. they sit on different planes): any NIC pair.
  if (out.empty()) out = best_pairs(c_.nic_locals(), c_.nic_locals());
  for (auto& plan : out) stage_through_host(plan);
  return out;
}

void Router::stage_through_host(std::vector<RouteSegment>& plan) const {
  if (plan.size() != 3) return;
  const auto staged_cpu = [&](NodeId gpu) -> NodeId {
    const Node& n = c_.node(gpu);
    const int pos = gpu_pos_[static_cast<size_t>(n.local)];
    if (pos < 0 || !staged_[static_cast<size_t>(pos)]) return -1;
    return c_.server_node(n.server, local_cpu_[static_cast<size_t>(pos)]);
  };
  const NodeId a = plan[0].from, sn = plan[0].to, dn = plan[2].from, b = plan[2].to;
  std::vector<RouteSegment> out;
  if (const NodeId cpu = staged_cpu(a); cpu >= 0) {
    out.push_back({a, cpu, SegmentKind::ScaleUp});
    out.push_back({cpu, sn, SegmentKind::InServer});
  } else {
    out.push_back(plan[0]);
  }
  out.push_back(plan[1]);
  if (const NodeId cpu = staged_cpu(b); cpu >= 0) {
    out.push_back({dn, cpu, SegmentKind::InServer});
    out.push_back({cpu, b, SegmentKind::ScaleUp});
  } else {
    out.push_back(plan[2]);
  }
  plan = std::move(out);
}

int Router::staged_gpus() const { return static_cast<int>(std::count(staged_.begin(), staged_.end(), 1)); }

int Router::gpu_nic_path(int pos) const {
  return pos >= 0 && pos < static_cast<int>(gpu_nic_type_.size()) ? gpu_nic_type_[static_cast<size_t>(pos)] : -1;
}

std::vector<Path> Router::equal_cost_paths(NodeId a, NodeId b, size_t limit) const {
  return equal_cost_paths(plans(a, b), limit);
}

std::vector<Path> Router::equal_cost_paths(const Plans& ps, size_t limit) const {
  std::vector<Path> out;
  for (const auto& plan : ps) {
    // Cartesian product of the segments' routes, bounded by `limit`.
    std::vector<Path> partial{Path{}};
    for (const auto& seg : plan) {
      std::vector<Path> routes;
      SegmentSearch(c_, seg).enumerate(limit, routes);
      std::vector<Path> next;
      for (const auto& p : partial)
        for (const auto& r : routes) {
          if (next.size() >= limit) break;
          Path q = p;
          q.links.insert(q.links.end(), r.links.begin(), r.links.end());
          next.push_back(std::move(q));
        }
      partial = std::move(next);
    }
    for (auto& p : partial) {
      if (out.size() >= limit) return out;
      out.push_back(std::move(p));
    }
  }
  return out;
}

double Router::count_paths(NodeId a, NodeId b) const { return count_paths(plans(a, b)); }

double Router::count_paths(const Plans& ps) const {
  double total = 0;
  for (const auto& plan : ps) {
    double prod = 1;
    for (const auto& seg : plan) prod *= SegmentSearch(c_, seg).count();
    total += prod;
  }
  return total;
}

Path Router::hashed_path(NodeId a, NodeId b, uint64_t flow_key) const { return hashed_path(plans(a, b), flow_key); }

Path Router::hashed_path(const Plans& ps, uint64_t flow_key) const {
  Path out;
  if (ps.empty()) return out;
  const auto& plan = ps[mix_hash(flow_key, kPlanSalt) % ps.size()];
  for (const auto& seg : plan) append_walk(seg, HashPick{flow_key}, out);
  return out;
}

Route Router::scale_up_route(const Plans& ps) const {
  Route r;
  std::vector<Path> paths = equal_cost_paths(ps, 64);
  // GPU to GPU through a CPU (GB200: GPU -C2C- Grace -C2C- GPU, as short as GPU - NVSwitch - GPU)
  // is host memory, not a peer path: NCCL's path search ranks NVLink (NVL) above anything through
  // a CPU (PHB/SYS; src/graph/paths.cc) and never splits peer traffic between the two. Paths that
  // avoid CPUs win when there are any; on PCIe-only servers every path crosses one and all stay.
  const auto via_cpu = [&](const Path& p) {
    for (size_t i = 0; i + 1 < p.links.size(); ++i)
      if (c_.node(c_.link(p.links[i]).dst).kind == NodeKind::Cpu) return true;
    return false;
  };
  if (std::any_of(paths.begin(), paths.end(), [&](const Path& p) { return !via_cpu(p); }))
    paths.erase(std::remove_if(paths.begin(), paths.end(), via_cpu), paths.end());
  double total = 0;
  for (const auto& p : paths) total += bottleneck(c_, p).bytes_per_second();
  for (auto& p : paths) {
    double share = bottleneck(c_, p).bytes_per_second() / total;
    r.push_back({std::move(p), share});
  }
  return r;
}

Route Router::route(NodeId a, NodeId b, uint64_t flow_key, int nic_choice) const {
  return route(a, b, flow_key, nic_choice, RoutingPolicy::Ecmp, nullptr);
}

// Among NIC pairings (each plan: GPU a -> source NIC -> fabric -> destination NIC -> GPU b), the
// source NIC is a's (nic_choice + a's position)-th distinct one, then the destination NIC b's
// (nic_choice + b's position)-th among the pairings from that source NIC.
const std::vector<RouteSegment>& Router::pick_pairing(const Plans& ps, NodeId a, NodeId b, int nic_choice) const {
  const auto position = [&](NodeId gpu) {
    const int64_t g = c_.gpu_index(gpu);
    return g < 0 ? 0 : static_cast<size_t>(g % c_.gpus_per_server());
  };
  // The fabric segment's ends (a plan staged through host memory has CPU segments around it).
  const auto fabric = [](const std::vector<RouteSegment>& plan) -> const RouteSegment& {
    for (const RouteSegment& seg : plan)
      if (seg.kind == SegmentKind::Fabric) return seg;
    return plan.front();
  };
  const auto first_nic = [&](const std::vector<RouteSegment>& plan) { return fabric(plan).from; };
  const auto last_nic = [&](const std::vector<RouteSegment>& plan) { return fabric(plan).to; };
  std::vector<NodeId> srcs;
  for (const auto& plan : ps)
    if (std::find(srcs.begin(), srcs.end(), first_nic(plan)) == srcs.end()) srcs.push_back(first_nic(plan));
  const NodeId sn = srcs[(static_cast<size_t>(nic_choice) + position(a)) % srcs.size()];
  std::vector<size_t> from_sn;
  for (size_t i = 0; i < ps.size(); ++i)
    if (first_nic(ps[i]) == sn) from_sn.push_back(i);
  std::vector<NodeId> dsts;
  for (size_t i : from_sn)
    if (std::find(dsts.begin(), dsts.end(), last_nic(ps[i])) == dsts.end()) dsts.push_back(last_nic(ps[i]));
  const NodeId dn = dsts[(static_cast<size_t>(nic_choice) + position(b)) % dsts.size()];
  for (size_t i : from_sn)
    if (last_nic(ps[i]) == dn) return ps[i];
  return ps[from_sn.front()];
}

Route Router::route(NodeId a, NodeId b, uint64_t flow_key, int nic_choice, RoutingPolicy policy,
                    const LinkLoad* load) const {
  Plans ps = plans(a, b);
  // A GPU with several equally near NICs: NCCL assigns its channels to them in turn rather than
  // by hash. The turn starts at the GPU's position in its server, so GPUs that share NICs (two
  // GPUs and two NICs under one Grace CPU in a GB200 tray) use different ones, as NCCL's per-GPU
  // NIC affinity does; the sending and receiving sides take their turns independently.
  if (nic_choice >= 0 && ps.size() > 1) ps = {pick_pairing(ps, a, b, nic_choice)};
  if (is_scale_up(ps)) return scale_up_route(ps);
  Route r;
  if (ps.empty()) return r;
  const auto& plan = ps[mix_hash(flow_key, kPlanSalt) % ps.size()];
  if (policy == RoutingPolicy::Spray) {
    for (uint64_t i = 0; i < kSprayPaths; ++i) {
      Path p;
      DigitPick digits{flow_key, i};
      for (const auto& seg : plan) {
        if (seg.kind == SegmentKind::Fabric) append_walk(seg, digits, p);
        else append_walk(seg, HashPick{flow_key}, p);
      }
      if (p.empty()) return r;
      bool seen = false;
      for (const Leg& l : r) seen = seen || l.path.links == p.links;
      if (!seen) r.push_back({std::move(p), 0.0});
    }
    for (Leg& l : r) l.share = 1.0 / static_cast<double>(r.size());
    return r;
  }
  Path p;
  if (policy == RoutingPolicy::Adaptive && load != nullptr) {
    for (const auto& seg : plan) append_walk(seg, LeastLoadedPick{flow_key, *load}, p);
  } else {
    for (const auto& seg : plan) append_walk(seg, HashPick{flow_key}, p);
  }
  if (!p.empty()) r.push_back({std::move(p), 1.0});
  return r;
}

NodeId Router::pxn_relay(NodeId a, NodeId b) const {
  const Node &na = c_.node(a), &nb = c_.node(b);
  if (na.kind != NodeKind::Gpu || nb.kind != NodeKind::Gpu || na.server < 0 || nb.server < 0) return a;
  const int pos_b = gpu_pos_[static_cast<size_t>(nb.local)];
  if (pos_b == gpu_pos_[static_cast<size_t>(na.local)] || !pxn_nic_close_[static_cast<size_t>(pos_b)]) return a;
  if (scale_up_reaches(a, b)) return a;
  const NodeId relay = c_.server_node(na.server, c_.gpu_locals()[static_cast<size_t>(pos_b)]);
  return relay_hop(a, relay).empty() ? a : relay;
}

const Route& Router::relay_hop(NodeId a, NodeId relay) const {
  const uint64_t key = static_cast<uint64_t>(static_cast<uint32_t>(a)) << 32 | static_cast<uint32_t>(relay);
  auto it = relay_hops_.find(key);
  if (it != relay_hops_.end()) return it->second;
  Route hop;
  // PXN's hop is a P2P write into the relay's memory: none where NCCL gives that pair no P2P.
  if (transport(a, relay) == Transport::P2p && scale_up_reaches(a, relay)) {
    hop = scale_up_route({{{a, relay, SegmentKind::ScaleUp}}});
    // NCCL's PATH_NVL: NVLink all the way (through NVSwitch chips or not). A PCIe peer path or one
    // through a CPU's C2C links is no PXN hop.
    bool nvlink = true;
    for (const Leg& leg : hop)
      for (LinkId l : leg.path.links) nvlink = nvlink && c_.catalog().tech(c_.link(l).tech).family == LinkFamily::NvLink;
    if (!nvlink) hop.clear();
  }
  return relay_hops_.emplace(key, std::move(hop)).first->second;
}

Route Router::pxn_route(NodeId a, NodeId b, uint64_t flow_key, int nic_choice, RoutingPolicy policy,
                        const LinkLoad* load) const {
  const NodeId relay = pxn_relay(a, b);
  if (relay == a) return route(a, b, flow_key, nic_choice, policy, load);
  Route r = relay_hop(a, relay);
  for (Leg& leg : route(relay, b, flow_key, nic_choice, policy, load)) r.push_back(std::move(leg));
  return r;
}

Router::TransportCounts Router::transport_counts() const {
  TransportCounts n;
  const int g = c_.gpus_per_server();
  if (transport_.empty()) return n;
  for (int i = 0; i < g; ++i)
    for (int j = i + 1; j < g; ++j) {
      const Transport t = transport_[static_cast<size_t>(i * g + j)];
      (t == Transport::P2p ? n.p2p : t == Transport::Shm ? n.shm : n.net) += 1;
    }
  return n;
}

int Router::net_pairs_across_nics() const {
  const int g = c_.gpus_per_server();
  if (transport_.empty()) return 0;
  int n = 0;
  for (int i = 0; i < g; ++i)
    for (int j = 0; j < g; ++j) {
      if (i == j || transport_[static_cast<size_t>(i * g + j)] != Transport::Net) continue;
      const std::vector<int>& a = nearest_nics(c_.gpu(i));
      const std::vector<int>& b = nearest_nics(c_.gpu(j));
      bool shared = false;
      for (int x : a) shared = shared || std::find(b.begin(), b.end(), x) != b.end();
      n += shared ? 0 : 1;
    }
  return n;
}

Route Router::uplink_to_fabric(NodeId gpu, uint64_t flow_key, int nic_choice) const {
  Route r;
  const auto& nics = nearest_nics(gpu);
  if (nics.empty()) return r;
  // In turn from the GPU's own position, as route() does, so GPUs sharing NICs spread over them.
  const size_t position = static_cast<size_t>(std::max<int64_t>(0, c_.gpu_index(gpu)) % c_.gpus_per_server());
  size_t pick = nic_choice >= 0 ? (static_cast<size_t>(nic_choice) + position) % nics.size()
                                : mix_hash(flow_key, 17) % nics.size();
  NodeId nic = c_.server_node(c_.node(gpu).server, nics[pick]);
  Path p;
  append_walk({gpu, nic, SegmentKind::InServer}, HashPick{flow_key}, p);
  for (LinkId l : c_.out_links(nic)) {
    const Node& far = c_.node(c_.link(l).dst);
    if (far.kind == NodeKind::Switch && far.server < 0) {
      p.links.push_back(l);
      r.push_back({std::move(p), 1.0});
      return r;
    }
  }
  return r;
}

Route Router::links_to_nvswitch(NodeId gpu) const {
  Route r;
  double total = 0;
  for (LinkId l : c_.out_links(gpu))
    if (c_.node(c_.link(l).dst).kind == NodeKind::NvSwitch) total += c_.link(l).bandwidth.bytes_per_second();
  for (LinkId l : c_.out_links(gpu))
    if (c_.node(c_.link(l).dst).kind == NodeKind::NvSwitch)
      r.push_back({Path{{l}}, c_.link(l).bandwidth.bytes_per_second() / total});
  return r;
}

}  // namespace gf
