// Rule `fabric-shape`: a fabric whose shape, not its declared oversubscription, keeps the
// collectives users run below what the NICs offer: dragonfly global links, torus dimensions, a
// single spine, a narrow core. Seed 003 ("GPU Cluster Networking") weighs each topology by the
// bandwidth between any two servers it keeps; a ring all-reduce runs at its slowest edge, and an
// all-to-all at its most loaded link.
//
// No model is run here (run_doctor runs the before/after). Each flow the collective puts on the
// fabric is routed by the executor's own routes (transfer_legs), spread over every equal-cost path
// (spraying: the best any load balancing can do with these paths, so what remains is the shape,
// not the hash; ecmp-collision reports the hash). Each NIC offers its bandwidth, shared by the
// flows that leave through it; a fabric link's demand is what its flows offer over its bandwidth,
// and the collective keeps 1 / (the highest demand) of the NIC bound.
#include <algorithm>
#include <unordered_map>

#include <fmt/format.h>

#include "collective/communicator.hpp"
#include "doctor/rules/fabric_rules.hpp"
#include "doctor/rules/ring_edges.hpp"
#include "engine/transfer_routes.hpp"
#include "nccl/tuner.hpp"
#include "topology/bundle.hpp"
#include "workload/sweep.hpp"

namespace gf {
namespace {

// Losses under 10% are within the models' own accuracy (docs/accuracy.md): not a finding.
constexpr double kReportBelow = 0.9;
// Under half the NIC bound: the fabric, not the NICs, sets every multi-server collective's speed.
constexpr double kCriticalBelow = 0.5;
// The all-to-all's flows are one per (server pair, rail): beyond this many the analysis is skipped
// (said in the evidence) to keep the doctor within seconds; 64 DGX servers are 32,256 flows.
constexpr size_t kMaxAllToAllFlows = 200000;
constexpr size_t kLinksShown = 3;

bool fabric_node(const Node& n) { return n.kind == NodeKind::Switch || n.kind == NodeKind::Nic; }

struct Demand {
  double fraction = 1;             // of the NIC bound the collective keeps: 1 / max(1, highest demand)
  double worst = 0;                // the highest demand
  std::vector<LinkId> capping;     // links within 1% of it, most loaded first
  size_t flows = 0;
};

Demand demand_of(const Schedule& s, const Communicator& comm, const DoctorContext& ctx) {
  const Cluster& c = ctx.cluster;
  const uint64_t seed = SweepOptions{}.seed;
  std::vector<Route> routes;
  routes.reserve(s.size());
  // Pass 1: routes, and how many flows leave through each NIC's first fabric link.
  std::unordered_map<LinkId, double> leaving;
  auto egress = [&](const Path& p) -> std::optional<size_t> {
    for (size_t i = 0; i < p.links.size(); ++i)
      if (c.node(c.link(p.links[i]).src).kind == NodeKind::Nic && fabric_node(c.node(c.link(p.links[i]).dst))) return i;
    return std::nullopt;
  };
  for (TransferId id = 0; id < static_cast<TransferId>(s.size()); ++id) {
    routes.push_back(transfer_legs(s, id, comm, ctx.router, seed, RoutingPolicy::Spray));
    for (const Leg& leg : routes.back())
      if (auto e = egress(leg.path)) leaving[leg.path.links[*e]] += leg.share;
  }
  // Pass 2: each flow offers its NIC's bandwidth over the flows leaving that NIC.
  std::unordered_map<LinkId, double> offered;
  for (const Route& r : routes)
    for (const Leg& leg : r) {
      const auto e = egress(leg.path);
      if (!e) continue;
      const LinkId out = leg.path.links[*e];
      const double rate = c.link(out).bandwidth.bytes_per_second() / leaving[out] * leg.share;
      // Fabric links after the source NIC's own port and before the destination NIC.
      for (size_t i = *e + 1; i < leg.path.links.size(); ++i) {
        const Link& l = c.link(leg.path.links[i]);
        if (!fabric_node(c.node(l.src)) || !fabric_node(c.node(l.dst))) break;
        const bool into_last_nic = c.node(l.dst).kind == NodeKind::Nic &&
                                   (i + 1 == leg.path.links.size() || !fabric_node(c.node(c.link(leg.path.links[i + 1]).dst)));
        if (into_last_nic) break;
        offered[leg.path.links[i]] += rate;
      }
    }
  Demand d;
  d.flows = s.size();
  std::vector<std::pair<double, LinkId>> by_demand;
  for (const auto& [l, o] : offered) by_demand.push_back({o / c.link(l).bandwidth.bytes_per_second(), l});
  std::sort(by_demand.begin(), by_demand.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  if (by_demand.empty()) return d;
  d.worst = by_demand.front().first;
  d.fraction = 1.0 / std::max(1.0, d.worst);
  for (const auto& [dem, l] : by_demand)
    if (dem >= d.worst * 0.99) d.capping.push_back(l);
  return d;
}

// One transfer per (server pair, local rank): an all-to-all's bytes between servers, sent on the
// receiver's rail as NCCL's PXN does.
Schedule alltoall_rail_flows(const Communicator& comm) {
  Schedule s("alltoall", comm.nranks, 1, Protocol::Simple);
  for (Rank a = 0; a < comm.nranks; ++a)
    for (Rank b = 0; b < comm.nranks; ++b) {
      if (comm.node_of[static_cast<size_t>(a)] == comm.node_of[static_cast<size_t>(b)]) continue;
      if (comm.local_of[static_cast<size_t>(a)] != comm.local_of[static_cast<size_t>(b)]) continue;
      Transfer t;
      t.src = a;
      t.dst = b;
      s.add(t);
    }
  return s;
}

std::string link_list(const Cluster& c, const std::vector<LinkId>& links) {
  std::string out;
  for (size_t i = 0; i < links.size() && i < kLinksShown; ++i) {
    const Link& l = c.link(links[i]);
    const BundlePlace place = bundle_place(c, links[i]);  // one cable of a bundle: which
    out += fmt::format("{}{} -> {}{} ({} {:.0f} GB/s)", i ? ", " : "", c.node_name(l.src), c.node_name(l.dst),
                       place.cables > 1 ? fmt::format(" cable {} of {}", place.cable, place.cables) : "",
                       c.catalog().tech(l.tech).name, l.bandwidth.bytes_per_second() / 1e9);
  }
  if (links.size() > kLinksShown) out += fmt::format(", and {} more", links.size() - kLinksShown);
  return out;
}

std::vector<Finding> check(const DoctorContext& ctx) {
  const Cluster& c = ctx.cluster;
  // A declared oversubscription is the oversubscription rule's finding.
  if (ctx.spec.fabric.oversubscription > 1 || ctx.spec.fabric.spine_oversubscription > 1) return {};
  if (c.servers() < 2 || c.gpus_per_server() < 1) return {};
  const Communicator comm = make_communicator(c, ctx.router, static_cast<int>(c.servers()), c.gpus_per_server());
  if (comm.nnodes < 2) return {};

  const Demand ring = demand_of(inter_server_ring_edges(comm, default_channels(comm, "ring")), comm, ctx);
  const size_t a2a_flows = static_cast<size_t>(comm.nranks) * static_cast<size_t>(comm.nranks - comm.ppn) /
                           static_cast<size_t>(std::max(1, comm.ppn));
  std::optional<Demand> a2a;
  if (a2a_flows <= kMaxAllToAllFlows) a2a = demand_of(alltoall_rail_flows(comm), comm, ctx);
  const bool ring_worse = !a2a || ring.fraction <= a2a->fraction;
  const Demand& worst = ring_worse ? ring : *a2a;
  if (!(worst.fraction < kReportBelow)) return {};

  Finding f;
  f.rule = "fabric-shape";
  f.severity = worst.fraction < kCriticalBelow ? Severity::Critical : Severity::Warning;
  f.summary = fmt::format("the {} fabric keeps {} at {:.0f}% of what the NICs offer: {} cap it",
                          ctx.spec.fabric.kind, ring_worse ? "a ring all-reduce" : "an all-to-all", 100 * worst.fraction,
                          worst.capping.size() == 1 ? "one link" : fmt::format("{} links", worst.capping.size()));
  auto line = [&](const char* what, const Demand& d) {
    return fmt::format("{}: {} flows between servers, spread over every equal-cost path; the most loaded fabric link "
                       "is offered {:.2f}x its bandwidth, so the flows get {:.0f}% of their NICs' rate",
                       what, d.flows, d.worst, 100 * d.fraction);
  };
  f.evidence.push_back(line("ring all-reduce (each channel's ring edges)", ring));
  if (a2a) f.evidence.push_back(line("all-to-all (one flow per server pair and rail, as PXN sends it)", *a2a));
  else
    f.evidence.push_back(fmt::format("all-to-all not analysed: {} flows, above the {} this rule routes", a2a_flows,
                                     kMaxAllToAllFlows));
  f.evidence.push_back("links that cap it: " + link_list(c, worst.capping));
  f.evidence.push_back("load balancing cannot help: these figures already spread every flow over all equal-cost paths");
  if (ctx.spec.fabric.kind == "rail_optimized") {
    f.fix = "more or faster links where the list above shows (a larger spine tier, or more planes)";
    return {f};
  }
  f.fix = "a rail-optimized (or full-bisection fat-tree) fabric for these servers; or, keeping this shape, more "
          "or faster links where the list above shows";
  Comparison cmp;
  cmp.before = ctx.spec;
  cmp.after = ctx.spec;
  FabricSpec rail;
  rail.kind = "rail_optimized";
  rail.link = ctx.spec.fabric.link;
  rail.switch_model = ctx.spec.fabric.switch_model;
  rail.where = ctx.spec.fabric.where;
  cmp.after.fabric = rail;
  cmp.collective = ring_worse ? CollectiveKind::AllReduce : CollectiveKind::AllToAll;
  cmp.after_what = "a rail-optimized fabric of the same servers and links";
  f.compare = std::move(cmp);
  return {f};
}

}  // namespace

DoctorRule fabric_shape_rule() {
  return {"fabric-shape",
          "a fabric shape (dragonfly global links, torus dimensions, a narrow spine or core) that keeps a ring "
          "all-reduce or an all-to-all below what the NICs offer, even with every path used",
          "../shared/seeds/003 (topologies trade bandwidth between servers for cost and hops)", &check};
}

}  // namespace gf
