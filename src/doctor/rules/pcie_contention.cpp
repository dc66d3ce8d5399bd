// pcie-contention: a PCIe switch whose NIC carries the scale-out traffic of more than one GPU, or
// whose uplink carries the traffic of several GPUs to peers outside the switch (no NVLink).
// Why it matters: a PCIe switch shares its ports' bandwidth; two GPUs behind one NIC each get half
// of it, and GPUs talking to each other across the root complex share one uplink. Seed 002 ("GPU
// Networking 101", sections 1.1 and 6: "PCIe: shared with NICs, NVMe ...", "GPUs share a PCIe root
// with the NIC: causes contention, reduces bandwidth").
#include <algorithm>
#include <optional>
#include <sstream>

#include "doctor/rules/server_checks.hpp"
#include "doctor/rules/server_layout.hpp"

namespace gf {

namespace {

// Uplink demand / uplink bandwidth above which the uplink is called shared. 1.0: any GPU that
// cannot run at its own link's rate while its neighbours do is slowed by the switch, and a PCIe
// switch port has no headroom to hide it (the uplink and the GPU links are usually all x16).
constexpr double kUplinkOversubscription = 1.0;

std::string ratio_text(double r) {
  std::ostringstream os;
  os.precision(2);
  os << r << ":1";
  return os.str();
}

struct SwitchLoad {
  int sw = -1;
  std::vector<int> gpus;        // GPU positions under the switch
  std::vector<int> nics;        // NIC positions hanging directly on it
  std::vector<int> nic_users;   // GPUs under it whose nearest NICs are all among `nics`
  std::vector<int> via_uplink;  // GPUs under it with traffic to peers beyond it (no NVLink)
  Bandwidth uplink, demand;     // the uplink's bandwidth; the GPU links of via_uplink together
};

SwitchLoad load_of(const ServerLayout& L, int sw) {
  SwitchLoad s;
  s.sw = sw;
  s.gpus = L.gpus_under(sw);
  for (int k : L.nics_under(sw))
    if (L.tree().parent[L.nic_local(k)] == sw) s.nics.push_back(k);
  for (int g : s.gpus) {
    std::vector<int> near = L.nearest_nics(g);
    bool mine = !near.empty() && std::all_of(near.begin(), near.end(), [&](int k) {
      return std::find(s.nics.begin(), s.nics.end(), k) != s.nics.end();
    });
    if (mine) s.nic_users.push_back(g);
    bool outside = false;
    for (int h = 0; h < L.gpus(); ++h)
      if (std::find(s.gpus.begin(), s.gpus.end(), h) == s.gpus.end() && L.gpu_gpu(g, h).conn != TopoConn::NvLink)
        outside = true;
    if (outside) {
      s.via_uplink.push_back(g);
      s.demand = s.demand + L.link_bandwidth(L.tree().parent_link[L.gpu_local(g)]);
    }
  }
  if (L.tree().parent_link[sw] >= 0) s.uplink = L.link_bandwidth(L.tree().parent_link[sw]);
  return s;
}

bool nic_shared(const SwitchLoad& s) { return !s.nics.empty() && s.nic_users.size() > s.nics.size(); }
bool uplink_shared(const SwitchLoad& s) {
  return s.via_uplink.size() >= 2 && s.uplink.bytes_per_second() > 0 && s.demand / s.uplink > kUplinkOversubscription;
}

std::string list(const ServerLayout& L, const std::vector<int>& gpus) {
  std::string out;
  for (int g : gpus) out += (out.empty() ? "" : ", ") + L.gpu_name(g);
  return out;
}

}  // namespace

std::vector<Finding> check_pcie_contention(const DoctorContext& ctx) {
  ServerLayout L(ctx.cluster);
  std::vector<SwitchLoad> hot;
  for (size_t i = 0; i < L.server().nodes.size(); ++i) {
    if (L.server().nodes[i].kind != NodeKind::PcieSwitch) continue;
    SwitchLoad s = load_of(L, static_cast<int>(i));
    if (nic_shared(s) || uplink_shared(s)) hot.push_back(std::move(s));
  }
  if (hot.empty()) return {};

  // One fix for the whole server (a NIC for every GPU that shares one), so every finding carries
  // the same Comparison and run_doctor simulates it once.
  std::optional<Comparison> compare;
  std::string tech = fastest_nic_tech(ctx.spec.server, ctx.spec.catalog);
  ServerTemplate fixed = ctx.spec.server;
  std::string fixed_where;
  for (const SwitchLoad& s : hot) {
    if (!nic_shared(s)) continue;
    for (size_t i = s.nics.size(); i < s.nic_users.size(); ++i)
      add_nic_near_gpu(fixed, ctx.spec.catalog, L.gpu_local(s.nic_users[i]), tech);
    fixed_where += (fixed_where.empty() ? "" : ", ") + L.node_name(s.sw);
  }
  if (!fixed_where.empty()) {
    Comparison c;
    c.before = two_servers(ctx.spec, ctx.spec.server);
    c.after = two_servers(ctx.spec, std::move(fixed));
    c.after_what = "one " + tech + " NIC per GPU under " + fixed_where;
    compare = std::move(c);
  }

  std::vector<Finding> out;
  for (const SwitchLoad& s : hot) {
    Finding f;
    f.rule = "pcie-contention";
    f.severity = Severity::Warning;
    const std::string name = L.node_name(s.sw);
    std::string holds = list(L, s.gpus);
    for (int k : s.nics) holds += ", " + L.nic_name(k);
    f.evidence.push_back(name + " holds " + holds);
    std::string what, fix;
    if (nic_shared(s)) {
      Bandwidth nic;
      for (int k : s.nics) nic = nic + L.nic_bandwidth(k);
      const double users = static_cast<double>(s.nic_users.size());
      Bandwidth gpu_link = L.link_bandwidth(L.tree().parent_link[L.gpu_local(s.nic_users.front())]);
      f.evidence.push_back(std::to_string(s.nic_users.size()) + " GPUs (" + list(L, s.nic_users) + ") share " +
                           std::to_string(s.nics.size()) + " NIC(s) of " + gBps_text(nic) + " in all: " +
                           gBps_text(nic / users) + " of scale-out each, against " + gBps_text(gpu_link) +
                           " of PCIe per GPU");
      what = std::to_string(s.nic_users.size()) + " GPUs share " + std::to_string(s.nics.size()) + " NIC(s)";
      fix = "give every GPU under " + name + " its own NIC on that switch";
    }
    if (uplink_shared(s)) {
      const ServerLink& up = L.server().links[L.tree().parent_link[s.sw]];
      const double ratio = s.demand / s.uplink;
      f.evidence.push_back("uplink " + name + "-" + L.node_name(L.tree().parent[s.sw]) + " (" + up.tech + ", " +
                           gBps_text(s.uplink) + ") carries " + list(L, s.via_uplink) + " to peers beyond the switch (" +
                           gBps_text(s.demand) + " of GPU links): " + ratio_text(ratio));
      what += (what.empty() ? "" : " and ") + std::to_string(s.via_uplink.size()) + " GPUs share its uplink (" +
              ratio_text(ratio) + ")";
      fix += std::string(fix.empty() ? "" : "; ") +
             "keep GPUs that exchange traffic under one switch, or join them with NVLink";
    }
    f.summary = "PCIe switch " + name + " is shared: " + what;
    f.fix = fix;
    if (nic_shared(s)) f.compare = compare;
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace gf
