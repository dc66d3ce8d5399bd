// Rule `tcp-fallback`: network links that carry no RDMA (catalog `rdma: false`: a NIC of an
// Ethernet/TCP technology such as eth-400g-tcp, or RDMA NICs on a fabric whose switch links are set
// up as plain TCP). NCCL then falls back to its socket transport (NVIDIA/nccl src/transport/
// net_socket.cc): every byte is staged through host memory and the kernel's TCP stack instead of
// going GPU -> NIC directly. Seed 002 (bottleneck 4): "RDMA fallback to TCP: training becomes
// 3-10x slower"; seed 001 describes what RDMA bypasses. The models charge such links
// ModelParams::tcp_efficiency (an ESTIMATE, docs/models.md), so the prediction shows the cost.
#include <map>

#include <fmt/format.h>

#include "doctor/rules/fabric_rules.hpp"

namespace gf {
namespace {

bool is_network(LinkFamily f) {
  switch (f) {
    case LinkFamily::InfiniBand:
    case LinkFamily::RoCE:
    case LinkFamily::EthernetTcp:
    case LinkFamily::Efa:
    case LinkFamily::GaudiRoce: return true;
    default: return false;
  }
}

bool lacks_rdma(const LinkCatalog& cat, const std::string& name) {
  auto id = cat.find(name);
  return id && is_network(cat.tech(*id).family) && !cat.tech(*id).rdma;
}

// The RDMA technology of the same speed: roce-400g for eth-400g-tcp (the catalog's pairs), else
// the first RoCE technology of the same per-lane bandwidth; "" when there is none.
std::string rdma_twin(const LinkCatalog& cat, const std::string& name) {
  if (name.rfind("eth-", 0) == 0 && name.size() > 8 && name.compare(name.size() - 4, 4, "-tcp") == 0) {
    std::string roce = "roce-" + name.substr(4, name.size() - 8);
    if (cat.find(roce)) return roce;
  }
  auto id = cat.find(name);
  if (!id) return "";
  for (const LinkTech& t : cat.techs())
    if (t.family == LinkFamily::RoCE && t.rdma && t.per_lane == cat.tech(*id).per_lane) return t.name;
  return "";
}

// The plain-TCP technology of the same per-lane speed (eth-400g-tcp for roce-400g or ib-ndr); ""
// when the catalog has none.
std::string tcp_twin(const LinkCatalog& cat, const std::string& name) {
  auto id = cat.find(name);
  if (!id) return "";
  for (const LinkTech& t : cat.techs())
    if (t.family == LinkFamily::EthernetTcp && !t.rdma && t.per_lane == cat.tech(*id).per_lane) return t.name;
  return "";
}

std::vector<Finding> check(const DoctorContext& ctx) {
  const Cluster& c = ctx.cluster;
  const LinkCatalog& cat = c.catalog();
  // Cables without RDMA, by technology and by what they join (a link pair is one cable).
  std::map<std::string, std::map<std::string, int64_t>> cables;
  for (const Link& l : c.links()) {
    const LinkTech& t = cat.tech(l.tech);
    if (!is_network(t.family) || t.rdma || l.src > l.dst) continue;
    const Node& a = c.node(l.src);
    const Node& b = c.node(l.dst);
    const bool nic_end = a.kind == NodeKind::Nic || b.kind == NodeKind::Nic;
    ++cables[t.name][nic_end ? "NIC ports" : "switch-to-switch links"];
  }
  if (cables.empty()) return {};

  Finding f;
  f.rule = "tcp-fallback";
  f.severity = Severity::Critical;
  std::vector<std::string> nics;
  for (const ServerNode& n : ctx.spec.server.nodes)
    if (n.compute_nic() && lacks_rdma(cat, n.tech)) nics.push_back(n.name + " (" + n.tech + ")");
  f.summary = nics.empty() ? "the fabric is set up without RDMA: NCCL falls back to TCP sockets across servers"
                           : "the NICs carry no RDMA: NCCL falls back to TCP sockets across servers";
  if (!nics.empty()) {
    std::string list;
    for (size_t i = 0; i < nics.size(); ++i) list += (i ? ", " : "") + nics[i];
    f.evidence.push_back(fmt::format("{} of the server's NICs without RDMA: {}", nics.size(), list));
  }
  for (const auto& [tech, where] : cables)
    for (const auto& [what, n] : where)
      f.evidence.push_back(fmt::format("{} {} of {}: rdma false in the link catalog", n, what, tech));
  f.evidence.push_back("no GPUDirect RDMA: every byte crosses host memory and the kernel TCP stack (NCCL socket transport)");
  f.fix = "use RDMA: RoCEv2 NICs and a lossless (PFC/ECN) Ethernet fabric, or InfiniBand; check NCCL_IB_DISABLE is "
          "unset and NCCL_DEBUG=INFO reports NET/IB rather than NET/Socket";

  // The same cluster with every non-RDMA technology replaced by its RoCE twin.
  Comparison cmp;
  cmp.before = cmp.after = ctx.spec;
  cmp.after_what = "RoCE (RDMA) instead of TCP";
  std::map<std::string, std::string> twin;
  auto swap = [&](std::string& name) {
    if (name.empty() || !lacks_rdma(cat, name)) return true;
    if (!twin.count(name)) twin[name] = rdma_twin(cat, name);
    if (twin[name].empty()) return false;
    name = twin[name];
    return true;
  };
  // RDMA NICs on a fabric without RDMA: NCCL's socket transport is end to end, so the NIC ports
  // carry TCP too. The cluster as it runs has them as their TCP twins (only the switch links would
  // be charged otherwise, and rail-local traffic would show no cost at all).
  if (nics.empty()) {
    bool moved = false;
    for (ServerNode& n : cmp.before.server.nodes) {
      if (!n.compute_nic() || lacks_rdma(cat, n.tech)) continue;
      std::string tcp = tcp_twin(cat, n.tech);
      if (tcp.empty()) continue;
      n.tech = tcp;
      moved = true;
    }
    if (moved)
      f.evidence.push_back("modelled as it runs: the NIC ports speak TCP as well (NCCL's socket transport is end to end)");
  }
  bool ok = swap(cmp.after.fabric.link);
  for (ServerNode& n : cmp.after.server.nodes) ok = swap(n.tech) && ok;
  for (ServerLink& l : cmp.after.server.links) ok = swap(l.tech) && ok;
  for (const auto& [from, to] : twin)
    if (!to.empty()) f.evidence.push_back("RDMA twin of " + from + ": " + to);
  if (!ok) {
    f.evidence.push_back("not predicted: no RoCE technology of the same speed in the catalog");
  } else {
    try {
      count_cluster(cmp.after);
      f.compare = std::move(cmp);
    } catch (const InputError& e) {
      f.evidence.push_back("not predicted: the RoCE design does not build (" + e.message() + ")");
    }
  }
  return {f};
}

}  // namespace

DoctorRule tcp_fallback_rule() {
  return {"tcp-fallback", "NICs or fabric links without RDMA, so NCCL falls back to TCP sockets across servers",
          "../shared/seeds/002 (bottleneck 4: RDMA fallback to TCP, 3-10x slower); NVIDIA/nccl src/transport/net_socket.cc",
          &check};
}

}  // namespace gf
