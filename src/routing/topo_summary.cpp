#include "routing/topo_summary.hpp"

#include <algorithm>
#include <set>
#include <tuple>

#include "topology/fabrics/fabric_common.hpp"

namespace gf {

RouteSample sample_route(const Router& r, NodeId a, NodeId b, const std::vector<std::string>& tier_names) {
  const Cluster& c = r.cluster();
  RouteSample s;
  s.from = c.node_name(a);
  s.to = c.node_name(b);
  Router::Plans plans = r.plans(a, b);
  Path p = r.hashed_path(plans, 0);
  if (p.empty()) {
    s.relation = "no route";
    return s;
  }
  s.links = static_cast<int>(p.links.size());
  int top_tier = -1;
  for (size_t i = 0; i + 1 < p.links.size(); ++i) {
    const Node& n = c.node(c.link(p.links[i]).dst);
    if (n.kind == NodeKind::Switch || (n.kind == NodeKind::NvSwitch && n.server < 0)) {
      ++s.switch_hops;
      top_tier = std::max<int>(top_tier, n.tier);
    }
  }
  if (top_tier < 0) s.relation = c.node(a).server == c.node(b).server ? "in server" : "direct";
  else if (top_tier == 0) s.relation = "through NVLink domain";
  else if (static_cast<size_t>(top_tier) <= tier_names.size()) s.relation = "through " + tier_names[top_tier - 1];
  else s.relation = "through tier " + std::to_string(top_tier);
  s.equal_cost = r.count_paths(plans);
  s.route_bottleneck = bottleneck(c, p);
  s.aggregate = max_flow(c, r.equal_cost_paths(plans, 1024));
  s.latency = latency(c, p);
  return s;
}

TopoSummary summarize(const ClusterSpec& spec, const Cluster* cluster) {
  TopoSummary t;
  t.name = spec.name;
  t.description = spec.description;
  t.source = spec.source;
  t.server_name = spec.server.name;
  t.gpu_model = spec.server.gpu.model;
  t.gpu_arch = spec.server.gpu.arch;
  t.counts = count_cluster(spec);
  t.fabric_kind = spec.servers > 1 && t.counts.shape.nics_per_server > 0 ? spec.fabric.kind : "none";
  if (t.fabric_kind != "none") {
    t.fabric_link = spec.fabric.link.empty() ? t.counts.shape.nic_tech : spec.fabric.link;
    // Direct fabrics (full mesh, torus) have no switch model; count_cluster() above has already
    // validated everything a switched fabric needs, so a failure here only means "no switch".
    int64_t switches = 0;
    for (const auto& tier : t.counts.fabric.tiers) switches += tier.name == "router" ? 0 : tier.switches;
    t.switch_model = "none";
    if (switches > 0) {
      try {
        t.switch_model = resolve_switch(spec.fabric, t.counts.shape, spec.catalog).model;
      } catch (const InputError&) {
      }
    }
  }
  Bandwidth nic_total;
  for (const auto& n : spec.server.nodes) {
    if (!n.compute_nic()) continue;  // storage and management ports are not the fabric's
    const auto id = spec.catalog.find(n.tech);
    const Bandwidth bw = id ? spec.catalog.tech(*id).per_lane : Bandwidth{};
    nic_total = nic_total + bw;
    auto g =
        std::find_if(t.nic_groups.begin(), t.nic_groups.end(), [&](const NicGroup& x) { return x.tech == n.tech; });
    if (g == t.nic_groups.end())
      t.nic_groups.push_back({n.tech, 1, bw});
    else
      ++g->per_server;
  }
  if (t.counts.shape.gpus_per_server > 0)
    t.nic_bandwidth_per_gpu =
        t.nic_groups.size() > 1 ? nic_total * (1.0 / t.counts.shape.gpus_per_server)
                                : t.counts.shape.nic_bandwidth * (static_cast<double>(t.counts.shape.nics_per_server) /
                                                                  t.counts.shape.gpus_per_server);
  if (!cluster) return t;
  t.built = true;
  // Route classes from gpu0: a neighbour in its server, then the same and another GPU position in
  // the next server, the middle server and the last; each distinct (relation, links) shown once.
  Router router(*cluster);
  std::vector<std::string> tier_names;
  for (const auto& tier : t.counts.fabric.tiers) tier_names.push_back(tier.name);
  int64_t g = cluster->gpus_per_server(), n = cluster->gpu_count();
  std::vector<int64_t> targets = {1, g, g + 1, (cluster->servers() / 2) * g + 1, n - 1, n - g};
  std::set<std::tuple<std::string, int, int>> seen;
  for (int64_t tgt : targets) {
    if (tgt <= 0 || tgt >= n) continue;
    RouteSample s = sample_route(router, cluster->gpu(0), cluster->gpu(tgt), tier_names);
    if (seen.insert({s.relation, s.links, s.switch_hops}).second) t.routes.push_back(s);
  }
  return t;
}

}  // namespace gf
