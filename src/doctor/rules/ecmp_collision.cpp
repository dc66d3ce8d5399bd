// Rule `ecmp-collision`: ECMP hashing that pins several of a collective's flows on one
// switch-to-switch link while other equal-cost links idle. Seed 002 names "ECMP hashing is uneven"
// among the causes of a slow fabric; hash-threshold ECMP (RFC 2992) picks a next hop per flow, so
// a few long-lived flows (NCCL's ring channels) collide by chance, and two flows on one link get
// half its bandwidth each.
//
// The flows are those the executor would route for a ring all-reduce over every GPU: each
// channel's ring edges between servers (Communicator::ring, channels from default_channels),
// each routed by transfer_legs with the sweep's default seed, so the hash and the flow keys are
// the executor's own. A flow is offered its NIC's bandwidth; a link's demand is the sum of what
// its flows are offered over its bandwidth. The even spread is each switch's uplinks (or the
// links down into it) sharing that switch's flows evenly. Expected busbw fraction = the slowest
// flow's rate as hashed over its rate under the even spread (the ring runs at its slowest edge).
#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "collective/communicator.hpp"
#include "doctor/rules/fabric_rules.hpp"
#include "doctor/rules/ring_edges.hpp"
#include "workload/sweep.hpp"
#include "engine/transfer_routes.hpp"
#include "nccl/tuner.hpp"
#include "topology/bundle.hpp"

namespace gf {
namespace {

// Losses under 10% are within what the models themselves are accurate to (docs/accuracy.md), so
// they are not reported as a finding.
constexpr double kReportBelow = 0.9;
// A ring running at under half its collision-free rate: three or more flows where one fits.
constexpr double kCriticalBelow = 0.5;
// Flows named in the evidence for the most loaded link.
constexpr size_t kFlowsShown = 6;

bool is_switch(const Cluster& c, NodeId n) { return c.node(n).kind == NodeKind::Switch; }

struct Load {
  double offered = 0;                // bytes/s its flows' NICs offer
  std::vector<TransferId> flows;     // ring edges on the link
};

std::vector<Finding> check(const DoctorContext& ctx) {
  const Cluster& c = ctx.cluster;
  if (c.servers() < 2 || c.gpus_per_server() < 1) return {};
  const Communicator comm = make_communicator(c, ctx.router, static_cast<int>(c.servers()), c.gpus_per_server());
  if (comm.nnodes < 2) return {};  // one NVLink domain: nothing crosses the fabric
  const int C = default_channels(comm, "ring");
  const Schedule s = inter_server_ring_edges(comm, C);
  const uint64_t seed = SweepOptions{}.seed;

  std::map<LinkId, Load> load;
  size_t crossing = 0;
  for (TransferId id = 0; id < static_cast<TransferId>(s.size()); ++id) {
    bool crossed = false;
    for (const Leg& leg : transfer_legs(s, id, comm, ctx.router, seed, RoutingPolicy::Ecmp)) {
      double nic = 0;
      for (LinkId l : leg.path.links)  // the source NIC's port into the fabric
        if (c.node(c.link(l).src).kind == NodeKind::Nic && is_switch(c, c.link(l).dst)) {
          nic = c.link(l).bandwidth.bytes_per_second();
          break;
        }
      for (LinkId l : leg.path.links) {
        if (!is_switch(c, c.link(l).src) || !is_switch(c, c.link(l).dst)) continue;
        load[l].offered += nic * leg.share;
        load[l].flows.push_back(id);
        crossed = true;
      }
    }
    crossing += crossed;
  }
  if (load.empty()) return {};  // every ring edge stays under one switch (e.g. on its rail leaf)

  // Groups: a switch's links up (keyed by the switch, +) and the links down into it (-).
  auto up = [&](LinkId l) { return c.node(c.link(l).dst).tier > c.node(c.link(l).src).tier; };
  auto group_of = [&](LinkId l) { return up(l) ? c.link(l).src + 1 : -(c.link(l).dst + 1); };
  std::map<int64_t, double> group_offered;
  for (const auto& [l, ld] : load) group_offered[group_of(l)] += ld.offered;
  auto uplinks = [&](NodeId sw) {  // bandwidth and count of sw's links to a higher tier
    std::pair<double, int> r{0, 0};
    for (LinkId l : c.out_links(sw))
      if (is_switch(c, c.link(l).dst) && c.node(c.link(l).dst).tier > c.node(sw).tier)
        r.first += c.link(l).bandwidth.bytes_per_second(), ++r.second;
    return r;
  };

  LinkId worst = load.begin()->first;
  double worst_demand = 0, even_demand = 0;
  for (const auto& [l, ld] : load) {
    const double d = ld.offered / c.link(l).bandwidth.bytes_per_second();
    if (d > worst_demand) worst_demand = d, worst = l;
  }
  for (const auto& [g, offered] : group_offered) {
    const NodeId sw = static_cast<NodeId>(g > 0 ? g - 1 : -g - 1);
    even_demand = std::max(even_demand, offered / uplinks(sw).first);
  }
  const double hashed = 1.0 / std::max(1.0, worst_demand);
  const double even = 1.0 / std::max(1.0, even_demand);
  const double fraction = hashed / even;
  if (!(fraction < kReportBelow)) return {};

  const Link& wl = c.link(worst);
  const NodeId wsw = up(worst) ? wl.src : wl.dst;
  const auto [wcap, wcount] = uplinks(wsw);
  const double wgroup = group_offered[group_of(worst)];
  Finding f;
  f.rule = "ecmp-collision";
  f.severity = fraction < kCriticalBelow ? Severity::Critical : Severity::Warning;
  f.summary = fmt::format("ECMP hashing puts {} ring flows on one {} link while equal-cost links carry fewer",
                          load[worst].flows.size(), c.catalog().tech(wl.tech).name);
  f.evidence.push_back(fmt::format("{} of the ring's {} inter-server flows ({} channels) cross switch-to-switch "
                                   "links, routed with the executor's ECMP hash (seed {})",
                                   crossing, s.size(), C, seed));
  std::string flows;
  const auto& fl = load[worst].flows;
  for (size_t i = 0; i < fl.size() && i < kFlowsShown; ++i) {
    const Transfer& t = s.transfer(fl[i]);
    flows += fmt::format("{}rank {} -> {} ch {}", i ? ", " : "", t.src, t.dst, t.channel);
  }
  if (fl.size() > kFlowsShown) flows += ", ...";
  const BundlePlace wplace = bundle_place(c, worst);  // one cable of a bundle: say which
  f.evidence.push_back(fmt::format("most loaded: {} -> {}{} ({:.0f} GB/s): {} flows offering {:.2f}x its bandwidth ({})",
                                   c.node_name(wl.src), c.node_name(wl.dst),
                                   wplace.cables > 1 ? fmt::format(" cable {} of {}", wplace.cable, wplace.cables) : "",
                                   wl.bandwidth.bytes_per_second() / 1e9,
                                   fl.size(), worst_demand, flows));
  f.evidence.push_back(fmt::format("even spread of those flows over {}'s {} uplinks ({:.0f} GB/s): {:.2f}x per link",
                                   c.node_name(wsw), wcount, wcap / 1e9, wgroup / wcap));
  f.evidence.push_back(fmt::format("while they collide, those flows get even / most loaded = {:.0f}% of their "
                                   "collision-free rate (what a bandwidth-bound ring loses; the prediction below "
                                   "says what this collective loses)",
                                   100 * fraction));
  f.fix = "adaptive routing (InfiniBand AR, Spectrum-X) or packet spraying; or a rail-optimized fabric so ring edges "
          "stay on their rail leaf; or more uplinks than flows per leaf";
  Comparison cmp;
  cmp.before = cmp.after = ctx.spec;
  cmp.before_routing = RoutingPolicy::Ecmp;
  cmp.after_routing = RoutingPolicy::Adaptive;
  cmp.collective = CollectiveKind::AllReduce;
  cmp.after_what = "adaptive routing";
  f.compare = std::move(cmp);
  return {f};
}

}  // namespace

DoctorRule ecmp_collision_rule() {
  return {"ecmp-collision", "ECMP hashing that puts several of a ring all-reduce's flows on one switch-to-switch link",
          "../shared/seeds/002 (ECMP hashing is uneven); RFC 2992 (hash-threshold ECMP)", &check};
}

}  // namespace gf
