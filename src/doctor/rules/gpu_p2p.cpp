// gpu-p2p: GPU pairs without NVLink that can only reach each other through a CPU (PHB, NODE) or
// across the inter-socket link (SYS).
// Why it matters: NCCL uses CUDA peer-to-peer only up to PXB (NVIDIA/nccl src/graph/paths.cc,
// ncclTopoCheckP2p: `p2pLevel = PATH_PXB`); other pairs go through shared host memory, and SYS pairs
// cross the socket link, far slower than a x16 slot (seed 002, "GPU Networking 101", sections 1.1
// and 6: "which GPU is plugged into which PCIe root complex" and "Wrong NUMA alignment"). The issue's
// example is the 8x RTX 4090 box on CPU root ports: every pair SYS.
#include <map>
#include <string>

#include "doctor/rules/server_checks.hpp"
#include "doctor/rules/server_layout.hpp"

namespace gf {

namespace {

// Share of GPU pairs without peer-to-peer at which the finding is critical: from half the pairs
// on, every ring order NCCL can choose has hops through the CPUs, so all-reduce runs at their speed.
constexpr double kCriticalPairShare = 0.5;

// Lanes a PCIe switch has for GPUs under the after-fix layout: a 144-lane switch (Broadcom
// PEX89144) holds 8 x16 GPUs plus a x16 uplink, so a fix with one switch is modelled up to 8 GPUs.
constexpr int kGpusPerSwitchFix = 8;

// The slowest link between sockets or host bridges, for the evidence of SYS/NODE pairs.
std::string socket_link_text(const ServerLayout& L) {
  int best = -1;
  for (size_t i = 0; i < L.server().links.size(); ++i) {
    auto id = L.catalog().find(L.server().links[i].tech);
    if (!id || L.catalog().tech(*id).family != LinkFamily::InterSocket) continue;
    if (best < 0 || L.link_bandwidth(static_cast<int>(i)) < L.link_bandwidth(best)) best = static_cast<int>(i);
  }
  if (best < 0) return "";
  const ServerLink& l = L.server().links[best];
  return "slowest CPU link on those paths: " + L.node_name(l.a) + "-" + L.node_name(l.b) + " " + l.tech + ", " +
         gBps_text(L.link_bandwidth(best)) + " per direction";
}

}  // namespace

std::vector<Finding> check_gpu_p2p(const DoctorContext& ctx) {
  ServerLayout L(ctx.cluster);
  const int n = L.gpus();
  if (n < 2) return {};
  std::map<TopoConn, int> pairs;  // class -> pairs without P2P
  int bad = 0;
  Finding f;
  f.rule = "gpu-p2p";
  for (int g = 0; g < n; ++g) {
    std::map<TopoConn, std::string> far;  // class -> peers, for this GPU's line
    for (int h = 0; h < n; ++h) {
      if (h == g) continue;
      TopoConn c = L.gpu_gpu(g, h).conn;
      if (c == TopoConn::NvLink || c <= kNcclDirectLimit) continue;
      std::string& s = far[c];
      s += (s.empty() ? "" : ", ") + L.gpu_name(h);
      if (h > g) ++pairs[c], ++bad;
    }
    std::string line;
    for (const auto& [c, peers] : far) line += (line.empty() ? "" : "; ") + cell_text({c, 0, {}}) + " to " + peers;
    if (!line.empty()) f.evidence.push_back(L.gpu_name(g) + ": " + line);
  }
  if (bad == 0) return {};

  const int total = n * (n - 1) / 2;
  std::string counts;
  for (const auto& [c, k] : pairs) counts += (counts.empty() ? "" : ", ") + std::to_string(k) + " " + cell_text({c, 0, {}});
  f.evidence.insert(f.evidence.begin(), std::to_string(bad) + " of " + std::to_string(total) +
                                            " GPU pairs have no NVLink and no shared PCIe switch (" + counts + ")");
  if (pairs.count(TopoConn::Sys) || pairs.count(TopoConn::Node))
    if (std::string s = socket_link_text(L); !s.empty()) f.evidence.push_back(s);
  f.severity = static_cast<double>(bad) >= kCriticalPairShare * total ? Severity::Critical : Severity::Warning;
  f.summary = std::to_string(bad) + " of " + std::to_string(total) +
              " GPU pairs have no peer-to-peer path (beyond PXB, no NVLink): their traffic goes through the CPUs";
  f.fix = "join the GPUs with NVLink (bridges or an NVSwitch board), or seat them under shared PCIe switches on one "
          "socket so every pair is PIX/PXB";

  // Modelled fix: every GPU moved under one PCIe switch on the root complex of the first GPU.
  PcieTree tree = L.tree();
  bool movable = n <= kGpusPerSwitchFix;
  for (int g = 0; g < n && movable; ++g) movable = tree.parent_link[L.gpu_local(g)] >= 0;
  if (movable) {
    ServerTemplate fixed = ctx.spec.server;
    int root = L.gpu_local(0);
    while (tree.parent[root] >= 0) root = tree.parent[root];
    const std::string pcie = fixed.links[tree.parent_link[L.gpu_local(0)]].tech;
    fixed.nodes.push_back({"pcie_p2p", NodeKind::PcieSwitch, fixed.nodes[root].numa, -1, "", "", ""});
    const int sw = static_cast<int>(fixed.nodes.size() - 1);
    for (int g = 0; g < n; ++g) {
      ServerLink& l = fixed.links[tree.parent_link[L.gpu_local(g)]];
      l = {L.gpu_local(g), sw, l.tech, 1};
    }
    fixed.links.push_back({sw, root, pcie, 1});
    Comparison c;
    c.before = one_server(ctx.spec, ctx.spec.server);
    c.after = one_server(ctx.spec, std::move(fixed));
    c.after_what = "all " + std::to_string(n) + " GPUs under one PCIe switch (pcie_p2p) on " + L.node_name(root);
    f.compare = std::move(c);
  }
  return {std::move(f)};
}

}  // namespace gf
