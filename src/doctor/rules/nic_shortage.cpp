// nic-shortage: fewer NICs than GPUs, or NIC bandwidth per GPU far below the GPU's NVLink share.
// Why it matters: once a collective spans servers, each GPU's share of the server's NIC bandwidth
// caps its busbw; NVLink cannot help across servers. Seed 003 ("GPU Cluster Networking": network
// bandwidth must keep up with GPU-to-GPU rates, 400-900 GB/s per node) and seed 002 ("GPU
// Networking 101", section 2.2: "each node may have 1 or 2 NICs"; section 6: NICs misaligned with
// GPUs). DGX/HGX servers give every GPU its own 400 Gb/s NIC (NVIDIA DGX H100 User Guide).
#include <algorithm>
#include <sstream>

#include "doctor/rules/server_checks.hpp"
#include "doctor/rules/server_layout.hpp"

namespace gf {

namespace {

// NVLink per GPU / NIC bandwidth per GPU above which the NIC share is called far below the NVLink
// share. Reference designs: DGX H100 450 / 50 GB/s = 9, DGX A100 300 / 25 = 12, GB200 NVL72
// 900 / 50 = 18 (datasheets, per direction); above 20 a GPU has less scale-out per NVLink byte than
// any of them.
constexpr double kMaxScaleUpToNicRatio = 20;
// GPUs per NIC at or above which the shortage is critical: a quarter of a NIC per GPU or less.
constexpr int kCriticalGpusPerNic = 4;

std::string number(double v) {
  std::ostringstream os;
  os.precision(3);
  os << v;
  return os.str();
}

// The slowest NIC technology of the NICs' family that brings the ratio down to the limit (or the
// fastest of the family when none does); "" when that is no faster than `current`.
std::string faster_nic(const LinkCatalog& cat, const std::string& current, Bandwidth needed) {
  auto cur = cat.find(current);
  if (!cur) return "";
  const LinkTech& now = cat.tech(*cur);
  const LinkTech* pick = nullptr;
  for (const LinkTech& t : cat.techs()) {
    if (t.family != now.family || t.rdma != now.rdma || !(t.per_lane > now.per_lane)) continue;
    bool enough = t.per_lane >= needed;
    bool pick_enough = pick && pick->per_lane >= needed;
    if (!pick || (enough && (!pick_enough || t.per_lane < pick->per_lane)) ||
        (!enough && !pick_enough && t.per_lane > pick->per_lane))
      pick = &t;
  }
  return pick ? pick->name : "";
}

}  // namespace

std::vector<Finding> check_nic_shortage(const DoctorContext& ctx) {
  ServerLayout L(ctx.cluster);
  const int gpus = L.gpus(), nics = L.nics();
  if (nics == 0 || gpus == 0) return {};  // no NIC at all: nic-affinity reports it
  Bandwidth total;
  for (int k = 0; k < nics; ++k) total = total + L.nic_bandwidth(k);
  const Bandwidth per_gpu = total / gpus;
  Bandwidth nvlink;
  for (int g = 0; g < gpus; ++g) nvlink = std::max(nvlink, L.scale_up_bandwidth(g));
  const double ratio = per_gpu.bytes_per_second() > 0 ? nvlink / per_gpu : 0;
  const bool few = nics < gpus;
  const bool thin = ratio > kMaxScaleUpToNicRatio;
  if (!few && !thin) return {};

  Finding f;
  f.rule = "nic-shortage";
  f.severity = gpus >= kCriticalGpusPerNic * nics ? Severity::Critical : Severity::Warning;
  f.evidence.push_back(std::to_string(nics) + " NICs for " + std::to_string(gpus) + " GPUs: " + gBps_text(total) +
                       " of scale-out per server, " + gBps_text(per_gpu) + " per GPU");
  if (nvlink.bytes_per_second() > 0)
    f.evidence.push_back("NVLink per GPU " + gBps_text(nvlink) + " = " + number(ratio) +
                         "x the NIC share (DGX H100: 9x, GB200 NVL72: 18x)");
  // The per-GPU figure is each GPU's share of the server's NIC bandwidth, per direction: what a GPU
  // can send off the server. It is not nccl-tests busbw, which the predicted line gives.
  f.summary = few ? std::to_string(gpus) + " GPUs share " + std::to_string(nics) + " NICs: each GPU's share of NIC bandwidth is " +
                        gBps_text(per_gpu) + " per direction"
                  : "NIC bandwidth per GPU (" + gBps_text(per_gpu) + ") is " + number(ratio) +
                        "x below the NVLink share: scale-out caps every multi-server collective";

  std::string tech = fastest_nic_tech(ctx.spec.server, ctx.spec.catalog);
  ServerTemplate fixed = ctx.spec.server;
  std::string after_what;
  if (few) {
    // One NIC per GPU. GPUs whose nearest NIC gives GPUDirect RDMA (within PXB) keep it first, so a
    // GPU that already has a NIC under its own switch is never told to get one (and this fix names
    // only GPUs that nic-affinity also lists); then the other GPUs, closest first, keep a NIC
    // still free; the GPUs left over get their own.
    std::vector<char> taken(nics, 0), served(gpus, 0);
    auto claim = [&](int g, bool direct_only) {
      if (direct_only && L.nearest_distance(g) > kNcclDirectLimit) return;
      for (int k : L.nearest_nics(g))
        if (!taken[k]) {
          taken[k] = served[g] = 1;
          return;
        }
    };
    for (int g = 0; g < gpus; ++g) claim(g, true);
    for (int g = 0; g < gpus; ++g) {
      if (served[g]) continue;
      // The closest NIC still free, whatever its distance.
      int best = -1;
      for (int k = 0; k < nics; ++k)
        if (!taken[k] && (best < 0 || L.rdma_distance(g, k) < L.rdma_distance(g, best))) best = k;
      if (best >= 0) taken[best] = served[g] = 1;
    }
    std::string added;
    for (int g = 0; g < gpus; ++g) {
      if (served[g]) continue;
      add_nic_near_gpu(fixed, ctx.spec.catalog, L.gpu_local(g), tech);
      added += (added.empty() ? "" : ", ") + L.gpu_name(g);
    }
    f.fix = "one NIC per GPU, on the GPU's own PCIe switch (add NICs for " + added + ")";
    after_what = "one " + tech + " NIC added under the PCIe switch of " + added;
  } else {
    std::string faster = faster_nic(ctx.spec.catalog, tech, nvlink / kMaxScaleUpToNicRatio);
    f.fix = faster.empty() ? "faster NICs, or more NIC ports per GPU" : "faster NICs (" + faster + ") or more NIC ports per GPU";
    if (!faster.empty()) {
      for (ServerNode& n : fixed.nodes)
        if (n.compute_nic()) n.tech = faster;
      after_what = "every NIC " + faster;
    }
  }
  if (!after_what.empty()) {
    Comparison c;
    c.before = two_servers(ctx.spec, ctx.spec.server);
    c.after = two_servers(ctx.spec, std::move(fixed));
    c.after_what = after_what;
    f.compare = std::move(c);
  }
  return {std::move(f)};
}

}  // namespace gf
