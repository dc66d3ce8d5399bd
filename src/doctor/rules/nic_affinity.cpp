// nic-affinity: a GPU whose nearest NIC is only reachable through a CPU (PHB: its root complex;
// NODE: two host bridges of one socket; SYS: across the inter-socket link), or a server with no NIC.
// Why it matters: NCCL uses GPUDirect RDMA only up to PXB (NVIDIA/nccl src/graph/paths.cc,
// ncclTopoCheckGdr); beyond that every byte sent or received is staged in host memory, two more
// PCIe crossings through the CPU, and for SYS the socket link too. Seed 002 ("GPU Networking 101",
// section 6) lists both "GPUs share a PCIe root with the NIC" and "Wrong NUMA alignment: NIC
// connected to a GPU on another CPU socket" among the common bottlenecks.
#include <string>

#include "doctor/rules/server_checks.hpp"
#include "doctor/rules/server_layout.hpp"

namespace gf {

namespace {

// A GPU joined by NVLink to a GPU whose own NIC is within PXB: NCCL's PXN (PCI x NVLink, NCCL
// 2.12+, paths.cc) sends through that peer, so the GPU still gets GPUDirect RDMA. -1 when none.
int pxn_peer(const ServerLayout& L, int g) {
  for (int h = 0; h < L.gpus(); ++h)
    if (h != g && L.gpu_gpu(g, h).conn == TopoConn::NvLink && L.nearest_distance(h) <= kNcclDirectLimit) return h;
  return -1;
}

}  // namespace

std::vector<Finding> check_nic_affinity(const DoctorContext& ctx) {
  ServerLayout L(ctx.cluster);
  std::vector<Finding> out;
  if (L.nics() == 0) {
    Finding f;
    f.rule = "nic-affinity";
    f.severity = Severity::Warning;
    f.summary = "the server has no NIC: its " + std::to_string(L.gpus()) + " GPUs cannot reach another server";
    f.evidence.push_back("0 NICs for " + std::to_string(L.gpus()) + " GPUs in server '" + L.server().name + "'");
    f.fix = "add a NIC under each GPU's PCIe switch (one RDMA NIC per GPU, as DGX and HGX servers have)";
    out.push_back(std::move(f));
    return out;
  }

  Finding f;
  f.rule = "nic-affinity";
  f.severity = Severity::Info;
  std::vector<int> affected;
  std::string names;
  for (int g = 0; g < L.gpus(); ++g) {
    TopoConn d = L.nearest_distance(g);
    if (d <= kNcclDirectLimit) continue;
    affected.push_back(g);
    names += (names.empty() ? "" : ", ") + L.gpu_name(g);
    int k = L.nearest_nics(g).front();
    const TopoDevice& gd = L.matrix().devices[g];
    const TopoDevice& nd = L.matrix().devices[L.gpus() + k];
    std::string line = L.gpu_name(g) + " on NUMA " + gd.numa_affinity + ": nearest NIC " + L.nic_name(k) + " on NUMA " +
                       nd.numa_affinity + " is " + cell_text(L.gpu_nic(g, k)) + ", beyond PXB: no GPUDirect RDMA";
    int peer = pxn_peer(L, g);
    if (peer >= 0) {
      line += "; NCCL's PXN can send through " + L.gpu_name(peer) + " over NVLink";
    } else {
      Severity s = d == TopoConn::Sys ? Severity::Critical : Severity::Warning;
      if (s > f.severity) f.severity = s;
    }
    f.evidence.push_back(std::move(line));
  }
  if (affected.empty()) return out;

  f.summary = std::to_string(affected.size()) + " of " + std::to_string(L.gpus()) +
              " GPUs have no NIC within a PCIe switch: their scale-out traffic is staged in host memory";
  f.fix = "put an RDMA NIC under the PCIe switch of " + names +
          " (or move the existing NICs there); until then pin each rank to its nearest NIC (NCCL_IB_HCA)";
  std::string tech = fastest_nic_tech(ctx.spec.server, ctx.spec.catalog);
  ServerTemplate fixed = ctx.spec.server;
  for (int g : affected) add_nic_near_gpu(fixed, ctx.spec.catalog, L.gpu_local(g), tech);
  Comparison c;
  c.before = two_servers(ctx.spec, ctx.spec.server);
  c.after = two_servers(ctx.spec, std::move(fixed));
  c.after_what = "one " + tech + " NIC added under the PCIe switch of " + names;
  f.compare = std::move(c);
  out.push_back(std::move(f));
  return out;
}

}  // namespace gf
