#include "report/run_links.hpp"

#include <algorithm>

#include "engine/transfer_routes.hpp"
#include "topology/bundle.hpp"

namespace gf {

const char* tier_title(LinkTier t) {
  switch (t) {
    case LinkTier::InsideServers:
      return "inside servers (NVLink, PCIe)";
    case LinkTier::NicLinks:
      return "servers' NIC links (NIC to leaf and back)";
    case LinkTier::LeafSpine:
      return "leaf-spine";
    case LinkTier::SpineCore:
      return "spine-core";
    default:
      return "other fabric links";
  }
}

LinkTier link_tier(const Cluster& c, LinkId l) {
  const Node& a = c.node(c.link(l).src);
  const Node& b = c.node(c.link(l).dst);
  const bool sa = a.kind == NodeKind::Switch, sb = b.kind == NodeKind::Switch;
  if (!sa && !sb) return LinkTier::InsideServers;
  if (sa != sb) return (sa ? b : a).kind == NodeKind::Nic ? LinkTier::NicLinks : LinkTier::Other;
  const int lo = std::min(a.tier, b.tier), hi = std::max(a.tier, b.tier);
  if (lo == 1 && hi == 2) return LinkTier::LeafSpine;
  if (lo == 2 && hi == 3) return LinkTier::SpineCore;
  return LinkTier::Other;
}

std::vector<std::vector<LinkHeat>> link_tiers(const Cluster& c, const std::vector<double>& carried, double seconds) {
  std::vector<std::vector<LinkHeat>> tiers(kLinkTiers);
  for (size_t l = 0; l < c.links().size(); ++l) {
    const Link& link = c.link(static_cast<LinkId>(l));
    LinkHeat u;
    u.link = static_cast<LinkId>(l);
    u.from = c.node_name(link.src);
    u.to = c.node_name(link.dst) + cable_suffix(c, u.link);  // "spine0#3": one cable of a bundle
    u.bytes = l < carried.size() ? carried[l] : 0;
    const double capacity = link.bandwidth.bytes_per_second() * seconds;
    u.utilisation = capacity > 0 ? u.bytes / capacity : 0;
    tiers[static_cast<size_t>(link_tier(c, u.link))].push_back(std::move(u));
  }
  return tiers;
}

RunLinks run_links(const ScenarioView& v) {
  const Cluster& c = v.cluster;
  const size_t nlinks = c.links().size();
  RunLinks out;
  out.tiers = link_tiers(c, v.model.carried_bytes(), v.run.makespan.to_s());
  std::vector<const LinkHeat*> all(nlinks);  // by link id, into the tiers
  for (const auto& tier : out.tiers)
    for (const LinkHeat& u : tier) all[static_cast<size_t>(u.link)] = &u;
  // Which job's routes cross each link: the routes the engine pinned (under adaptive routing,
  // the idle fabric's, as RouteCache gives them).
  std::vector<std::vector<char>> uses(v.jobs.size(), std::vector<char>(nlinks, 0));
  std::vector<int> users(nlinks, 0);
  for (size_t j = 0; j < v.jobs.size(); ++j) {
    for (const JobCall& call : v.jobs[j].calls) {
      RouteCache routes(*call.schedule, *call.comm, v.router, v.jobs[j].seed, v.policy);
      for (TransferId id = 0; id < static_cast<TransferId>(call.schedule->size()); ++id)
        for (const Leg& leg : *routes.route(id))
          for (LinkId l : leg.path.links) uses[j][static_cast<size_t>(l)] = 1;
    }
    for (size_t l = 0; l < nlinks; ++l) users[l] += uses[j][l];
  }
  out.jobs.resize(v.jobs.size());
  for (size_t j = 0; j < v.jobs.size(); ++j) {
    JobLinks& jl = out.jobs[j];
    for (size_t l = 0; l < nlinks; ++l) {
      if (!uses[j][l]) continue;
      ++jl.used;
      if (users[l] > 1) jl.shared.push_back(*all[l]);
    }
    std::stable_sort(jl.shared.begin(), jl.shared.end(),
                     [](const LinkHeat& a, const LinkHeat& b) { return a.utilisation > b.utilisation; });
  }
  return out;
}

}  // namespace gf
