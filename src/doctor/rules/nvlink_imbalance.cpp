// nvlink-imbalance: a GPU with fewer NVLink lanes than its peers (a link down, a missing NVSwitch
// link) or a partial mesh (GPU pairs with no NVLink while others have it).
// Why it matters: a ring all-reduce moves the same bytes over every hop, so it runs at the speed of
// its slowest GPU; one GPU with 17 of 18 lanes slows all eight. Seed 002 ("GPU Networking 101",
// section 6: "NVLink rings are unbalanced: one GPU becomes a choke point").
#include <algorithm>
#include <string>

#include "doctor/rules/server_checks.hpp"
#include "doctor/rules/server_layout.hpp"

namespace gf {

namespace {

// Fewest lanes / most lanes at or below which the finding is critical: at half the lanes the
// slowest GPU halves every ring through it, more than any other single fault inside a server.
constexpr double kCriticalLaneRatio = 0.5;

// The balanced server: every GPU gets the richest GPU's lanes to each NVSwitch chip, direct GPU
// links all get the most lanes any direct link has, and missing pairs of a direct mesh are added.
ServerTemplate balanced(const ServerLayout& L, ServerTemplate t, int richest) {
  const int ref = L.gpu_local(richest);
  auto is_gpu = [&](int i) { return t.nodes[i].kind == NodeKind::Gpu; };
  auto is_nvswitch = [&](int i) { return t.nodes[i].kind == NodeKind::NvSwitch; };
  auto scale_up = [&](const ServerLink& l) {
    auto id = L.catalog().find(l.tech);
    if (!id) return false;
    LinkFamily f = L.catalog().tech(*id).family;
    return f == LinkFamily::NvLink || f == LinkFamily::Xgmi || f == LinkFamily::GaudiRoce;
  };
  const std::vector<ServerLink> original = t.links;
  for (const ServerLink& r : original) {
    if (!scale_up(r) || !(r.a == ref || r.b == ref)) continue;
    int sw = r.a == ref ? r.b : r.a;
    if (!is_nvswitch(sw)) continue;
    for (int g = 0; g < L.gpus(); ++g) {
      int d = L.gpu_local(g);
      auto it = std::find_if(t.links.begin(), t.links.end(), [&](const ServerLink& l) {
        return scale_up(l) && ((l.a == d && l.b == sw) || (l.b == d && l.a == sw));
      });
      if (it == t.links.end()) t.links.push_back({d, sw, r.tech, r.lanes});
      else it->lanes = std::max(it->lanes, r.lanes);
    }
  }
  const ServerLink* widest = nullptr;
  for (const ServerLink& l : original)
    if (scale_up(l) && is_gpu(l.a) && is_gpu(l.b) && (!widest || l.lanes > widest->lanes)) widest = &l;
  if (!widest) return t;
  const ServerLink model = *widest;
  for (ServerLink& l : t.links)
    if (scale_up(l) && is_gpu(l.a) && is_gpu(l.b)) l.lanes = std::max(l.lanes, model.lanes);
  for (int g = 0; g < L.gpus(); ++g)
    for (int h = g + 1; h < L.gpus(); ++h)
      if (L.gpu_gpu(g, h).conn != TopoConn::NvLink) t.links.push_back({L.gpu_local(g), L.gpu_local(h), model.tech, model.lanes});
  return t;
}

}  // namespace

std::vector<Finding> check_nvlink_imbalance(const DoctorContext& ctx) {
  ServerLayout L(ctx.cluster);
  if (L.gpus() < 2) return {};
  int most = 0, fewest = 1 << 30, richest = 0, poorest = 0;
  for (int g = 0; g < L.gpus(); ++g) {
    if (L.scale_up_lanes(g) > most) most = L.scale_up_lanes(g), richest = g;
    if (L.scale_up_lanes(g) < fewest) fewest = L.scale_up_lanes(g), poorest = g;
  }
  if (most == 0) return {};  // no NVLink at all: gpu-p2p's subject
  std::vector<std::string> missing;
  for (int g = 0; g < L.gpus(); ++g)
    for (int h = g + 1; h < L.gpus(); ++h)
      if (L.gpu_gpu(g, h).conn != TopoConn::NvLink)
        missing.push_back(L.gpu_name(g) + "-" + L.gpu_name(h) + " (" + cell_text(L.gpu_gpu(g, h)) + ")");
  if (fewest == most && missing.empty()) return {};

  Finding f;
  f.rule = "nvlink-imbalance";
  std::string lanes;
  std::string short_gpus;
  for (int g = 0; g < L.gpus(); ++g) {
    lanes += (lanes.empty() ? "" : ", ") + L.gpu_name(g) + " " + std::to_string(L.scale_up_lanes(g));
    if (L.scale_up_lanes(g) < most) short_gpus += (short_gpus.empty() ? "" : ", ") + L.gpu_name(g);
  }
  f.evidence.push_back("NVLink lanes per GPU: " + lanes);
  if (fewest < most)
    f.evidence.push_back("slowest GPU " + L.gpu_name(poorest) + ": " + gBps_text(L.scale_up_bandwidth(poorest)) +
                         " of NVLink per direction, against " + gBps_text(L.scale_up_bandwidth(richest)) + " for " +
                         L.gpu_name(richest));
  if (!missing.empty()) {
    std::string pairs;
    for (const std::string& p : missing) pairs += (pairs.empty() ? "" : ", ") + p;
    f.evidence.push_back(std::to_string(missing.size()) + " GPU pairs without NVLink: " + pairs);
  }
  f.severity = static_cast<double>(fewest) <= kCriticalLaneRatio * most ? Severity::Critical : Severity::Warning;
  if (fewest < most)
    f.summary = short_gpus + " " + (short_gpus.find(',') == std::string::npos ? "has" : "have") + " " +
                std::to_string(fewest) + " of the " + std::to_string(most) +
                " NVLink lanes the other GPUs have: every ring through them runs slower";
  else
    f.summary = "partial NVLink mesh: " + std::to_string(missing.size()) + " GPU pairs have no NVLink";
  f.fix = fewest < most ? "restore the missing NVLink lanes of " + short_gpus +
                              " (`nvidia-smi nvlink --status` lists inactive links; reseat or replace the board)"
                        : "complete the NVLink mesh (every GPU pair linked, or an NVSwitch board)";
  Comparison c;
  c.before = one_server(ctx.spec, ctx.spec.server);
  c.after = one_server(ctx.spec, balanced(L, ctx.spec.server, richest));
  c.after_what = "every GPU with " + L.gpu_name(richest) + "'s " + std::to_string(most) + " NVLink lanes" +
                 (missing.empty() ? "" : ", every pair linked");
  f.compare = std::move(c);
  return {std::move(f)};
}

}  // namespace gf
