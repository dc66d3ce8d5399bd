// nic-mix: a server whose NICs differ in speed (one HDR among NDR), or whose NICs are slower than
// the fabric's switch ports. Why it matters: NCCL splits a collective's data evenly over its
// channels (NVIDIA/nccl src/enqueue.cc) and gives every channel of a graph one bandwidth
// (src/graph/search.cc, ncclTopoCompute), so the channels on the slow rail finish last and a ring
// runs at its slowest rail; a NIC slower than its switch port leaves the port's bandwidth unused.
// Seed 002 ("GPU Networking 101", section 6) lists mismatched parts among the common bottlenecks.
#include <map>

#include "doctor/rules/server_checks.hpp"
#include "doctor/rules/server_layout.hpp"

namespace gf {

std::vector<Finding> check_nic_mix(const DoctorContext& ctx) {
  ServerLayout L(ctx.cluster);
  if (L.nics() == 0) return {};  // nic-affinity reports a server with none
  std::map<std::string, std::vector<int>> by_tech;
  int slow = 0, fast = 0;
  for (int k = 0; k < L.nics(); ++k) {
    by_tech[L.server().nodes[L.nic_local(k)].tech].push_back(k);
    if (L.nic_bandwidth(k) < L.nic_bandwidth(slow)) slow = k;
    if (L.nic_bandwidth(fast) < L.nic_bandwidth(k)) fast = k;
  }
  const std::string fast_tech = fastest_nic_tech(ctx.spec.server, ctx.spec.catalog);
  Finding f;
  f.rule = "nic-mix";
  ServerTemplate fixed = ctx.spec.server;
  std::string after;  // what the fixed server's NICs are
  if (L.nic_bandwidth(slow) < L.nic_bandwidth(fast)) {
    // Mixed speeds: the slowest rail sets the ring's pace; expected busbw fraction slow / fast.
    const double fraction = L.nic_bandwidth(slow) / L.nic_bandwidth(fast);
    f.severity = fraction < 0.75 ? Severity::Critical : Severity::Warning;
    f.summary = "the server's NICs differ in speed: a ring runs at its slowest rail, about " +
                std::to_string(static_cast<int>(fraction * 100 + 0.5)) + "% of what the fastest NICs allow";
    for (const auto& [tech, ks] : by_tech) {
      std::string names;
      for (int k : ks) names += (names.empty() ? "" : ", ") + L.nic_name(k);
      f.evidence.push_back(std::to_string(ks.size()) + " x " + tech + " (" + gBps_text(L.nic_bandwidth(ks.front())) +
                           " per direction): " + names);
    }
    f.evidence.push_back("NCCL splits the data evenly over its channels and gives each the same bandwidth, so the "
                         "channels on " + L.nic_name(slow) + " finish last");
    f.fix = "make every NIC " + fast_tech + " (replace or re-cable the slow ones); until then NCCL_IB_HCA can leave "
            "the slow NIC out, at the cost of one rail";
    after = fast_tech;
  } else {
    // One speed, but slower than the switch ports the fabric is built of.
    const std::string& port = ctx.spec.fabric.link;
    auto port_id = port.empty() ? std::nullopt : ctx.spec.catalog.find(port);
    if (!port_id) return {};
    const LinkTech& pt = ctx.spec.catalog.tech(*port_id);
    const LinkTech* nt = nullptr;
    if (auto id = ctx.spec.catalog.find(fast_tech)) nt = &ctx.spec.catalog.tech(*id);
    if (!nt || !(nt->per_lane < pt.per_lane) || nt->family != pt.family) return {};
    f.severity = Severity::Warning;
    f.summary = "every NIC (" + fast_tech + ", " + gBps_text(nt->per_lane) + ") is slower than the fabric's " + port +
                " switch ports (" + gBps_text(pt.per_lane) + "): the ports run at the NICs' speed";
    f.evidence.push_back(std::to_string(L.nics()) + " x " + fast_tech + " NICs per server into " + port + " ports");
    f.fix = "NICs of the ports' speed (" + port + ")";
    after = port;
  }
  for (ServerNode& n : fixed.nodes)
    if (n.compute_nic()) n.tech = after;
  Comparison c;
  c.before = two_servers(ctx.spec, ctx.spec.server);
  c.after = two_servers(ctx.spec, std::move(fixed));
  c.after_what = "every NIC " + after;
  f.compare = std::move(c);
  return {std::move(f)};
}

}  // namespace gf
