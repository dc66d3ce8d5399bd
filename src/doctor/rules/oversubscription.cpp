// Rule `oversubscription`: a Clos tier (leaf or spine) with more bandwidth down than up, on the
// way of traffic between servers. Seed 002 lists "oversubscribed spine switches: multi-node
// scaling falls apart" among the common bottlenecks; a tier of ratio o gives traffic that must
// climb it at most 1/o of what its NICs offer. All-to-all (MoE expert parallelism) sends most of
// its bytes off the leaf, so it meets the full 1/o; a ring all-reduce crosses a leaf's uplinks on
// only the ring edges between leaves, so it often loses far less. On a rail-optimized fabric NCCL's
// PXN keeps an all-to-all on the receivers' rails, so it climbs only between leaves of one rail.
// The prediction uses all-to-all.
#include <algorithm>
#include <set>
#include <map>

#include <fmt/format.h>

#include "doctor/rules/fabric_rules.hpp"

namespace gf {
namespace {

// A ratio at or below this is non-blocking. The fabric counts clamp rounding to exactly 1
// (clos.cpp: uplinks rounded up past the NICs' bandwidth), so any excess is a design choice.
constexpr double kBlockingAbove = 1.0 + 1e-9;
// The largest all-to-all the prediction runs: the flow model takes 0.20 s for 128 H100 (16 DGX on
// examples/leafspine-4to1.yaml's leaves), 1.1 s for 256 and 7.4 s for 512 (`gpufabric perf
// alltoall -b 1G -e 1G --nodes 16 | 32 | 64`, Release, 2 cores; before each pair used NCCL's few
// p2p channels instead of all 16, 256 took over 200 s and the budget was 128). The doctor runs it
// twice (before and after), so larger parts are not predicted.
constexpr int64_t kMaxPredictedGpus = 512;
// From 2:1 on, cross-tier traffic gets at most half its NIC bandwidth: the seed's "falls apart".
constexpr double kCriticalFrom = 2.0;

// Servers whose NICs each leaf holds: the leaf switch (tier 1) at the other end of a NIC's link.
std::map<NodeId, std::set<int32_t>> servers_per_leaf(const Cluster& c) {
  std::map<NodeId, std::set<int32_t>> leaves;
  for (const Link& l : c.links()) {
    const Node& a = c.node(l.src);
    const Node& b = c.node(l.dst);
    if (a.kind == NodeKind::Nic && b.kind == NodeKind::Switch && b.tier == 1) leaves[l.dst].insert(a.server);
  }
  return leaves;
}

// The most servers whose NICs sit under one pod: leaves grouped by the pod spines (tier 2) their
// uplinks reach (a 3-tier Clos: clos.hpp gives pod spines the pod as Node::group).
size_t servers_per_pod(const Cluster& c, const std::map<NodeId, std::set<int32_t>>& leaves) {
  std::map<int32_t, std::set<int32_t>> pods;
  for (const auto& [leaf, servers] : leaves)
    for (LinkId l : c.out_links(leaf)) {
      const Node& up = c.node(c.link(l).dst);
      if (up.kind == NodeKind::Switch && up.tier == 2) {
        pods[up.group].insert(servers.begin(), servers.end());
        break;
      }
    }
  size_t most = 0;
  for (const auto& [pod, servers] : pods) most = std::max(most, servers.size());
  return most;
}

std::vector<Finding> check(const DoctorContext& ctx) {
  std::vector<Finding> out;
  if (ctx.spec.servers < 2) return out;
  const ClusterCounts counts = count_cluster(ctx.spec);
  const auto leaves = servers_per_leaf(ctx.cluster);
  size_t most = 0;
  for (const auto& [leaf, servers] : leaves) most = std::max(most, servers.size());
  const auto& tiers = counts.fabric.tiers;
  for (size_t i = 0; i < tiers.size(); ++i) {
    const TierCount& t = tiers[i];
    if (t.name != "leaf" && t.name != "spine") continue;
    if (!(t.oversubscription > kBlockingAbove)) continue;
    // Tier i+1's uplinks are on some shortest NIC-to-NIC path only when such a path climbs above
    // it: 2(i+1)+1 switches (leaf-spine-leaf = 3 crosses the leaf uplinks, 5 the spine uplinks).
    // A cluster whose NICs all sit on one leaf (or one pod) never climbs, whatever the ratio says.
    const int level = static_cast<int>(i) + 1;
    if (counts.fabric.max_switch_hops < 2 * level + 1) continue;

    const double o = t.oversubscription;
    Finding f;
    f.rule = "oversubscription";
    f.severity = o >= kCriticalFrom ? Severity::Critical : Severity::Warning;
    f.summary = fmt::format("the {} tier is {:.2g}:1 oversubscribed and traffic between servers crosses it", t.name, o);
    f.evidence.push_back(fmt::format("{} tier: {} switches of {} ports, down:up bandwidth {:.2f}:1", t.name, t.switches,
                                     t.radix, o));
    f.evidence.push_back(fmt::format("{} servers on {} leaves, at most {} servers per leaf ({} fabric)",
                                     ctx.spec.servers, leaves.size(), most, ctx.spec.fabric.kind));
    f.evidence.push_back(fmt::format("traffic climbing the {} uplinks gets at most 1/{:.2g} = {:.0f}% of the NIC "
                                     "bandwidth it is offered; all-to-all sends most of its bytes that way",
                                     t.name, o, 100.0 / o));
    if (ctx.spec.fabric.kind == "rail_optimized")
      f.evidence.push_back("rail-optimized: NCCL's PXN relays an all-to-all's sends over NVLink to the GPU on the "
                           "receiver's rail, so only traffic between leaves of one rail climbs (the prediction "
                           "includes it)");
    f.fix = fmt::format("add {} uplinks until the tier is 1:1 (fabric.{}: 1), or place each job's servers under one {}",
                        t.name, level == 1 ? "oversubscription" : "spine_oversubscription",
                        level == 1 ? "leaf" : "pod");
    Comparison cmp;
    cmp.before = cmp.after = ctx.spec;
    (level == 1 ? cmp.after.fabric.oversubscription : cmp.after.fabric.spine_oversubscription) = 1;
    cmp.collective = CollectiveKind::AllToAll;
    cmp.after_what = t.name + " tier at 1:1";
    // All-to-all over every GPU of a large cluster is n^2 flows (24,576 GPUs: 6e8); two leaves'
    // (or pods') worth of servers already cross the tier at the same ratio, so predict on those.
    const size_t block = level == 1 ? most : servers_per_pod(ctx.cluster, leaves);
    const int64_t part = static_cast<int64_t>(2 * block);
    if (block > 0 && part < ctx.spec.servers) {
      cmp.before.servers = cmp.after.servers = part;
      if (level == 2) cmp.before.fabric.tiers = cmp.after.fabric.tiers = 3;  // keep the spine tier
    }
    const int64_t gpus = cmp.before.servers * ctx.cluster.gpus_per_server();
    if (gpus > kMaxPredictedGpus) {
      f.evidence.push_back(fmt::format("not predicted: all-to-all over {} GPUs is beyond the doctor's budget of {} "
                                       "(try gpufabric perf alltoall on this cluster with fewer --nodes)",
                                       gpus, kMaxPredictedGpus));
      out.push_back(std::move(f));
      continue;
    }
    if (cmp.before.servers < ctx.spec.servers)
      f.evidence.push_back(fmt::format("predicted on {} of the {} servers: two {} worth, the same ratio crossed",
                                       part, ctx.spec.servers, level == 1 ? "leaves'" : "pods'"));
    try {
      count_cluster(cmp.before);
      count_cluster(cmp.after);  // the same switches at 1:1 may need more of them than the radix allows
      f.compare = std::move(cmp);
    } catch (const InputError& e) {
      f.evidence.push_back("not predicted: at 1:1 this design does not build (" + e.message() + ")");
    }
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace

DoctorRule oversubscription_rule() {
  return {"oversubscription", "a leaf or spine tier with less bandwidth up than down, crossed by traffic between servers",
          "../shared/seeds/002 (bottleneck 3: oversubscribed spine switches); Al-Fares et al., SIGCOMM 2008 (Clos)",
          &check};
}

}  // namespace gf
