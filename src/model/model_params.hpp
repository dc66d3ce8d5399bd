// Link and protocol constants every model shares (the analytical and flow models read the same
// ones, so they differ only in how they share bandwidth), each with its source. Defaults come
// from NVIDIA NCCL's own cost model (src/graph/tuning.cc and topo.h at NCCL 2.30.7, as listed in
// ../shared/validation/README.md); the one fitted constant says so. docs/models.md has the equations.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "core/protocol.hpp"
#include "core/units.hpp"
#include "topology/link_tech.hpp"

namespace gf {

// The three link classes NCCL's latency table distinguishes.
enum class HopClass : uint8_t { NvLink = 0, Pci = 1, Net = 2 };

struct ModelParams {
  // Fraction of the catalog bandwidth each protocol delivers: LL carries 4 data bytes per 8-byte
  // line; LL128 is capped at 0.92 of Simple in NCCL's tuning (tuning.cc, "Ring/LL128 = 0.92 x busBw").
  std::array<double, kProtocols> protocol_efficiency = {0.5, 0.92, 1.0};

  // Simple-protocol fraction of a link's catalog bandwidth NCCL reaches, per link family.
  // NVLink: NCCL's per-link figure over the datasheet's per-link rate: sm90 20.6/25 = 0.824, sm100
  // 40.1/50 = 0.802, sm80/sm70 20/25 = 0.80 (topo.h). PCIe: NCCL's Gen4 x16 24 GB/s over 31.5 = 0.762.
  // Network: see net_efficiency.
  double nvlink_efficiency(const std::string& arch) const;
  double pcie_efficiency = 24.0 / 31.5;
  // The catalog's inter-socket figures are NCCL's own effective P2P bandwidths through the CPUs
  // (topo.h: AMD_BW 16, SKL_QPI_BW 10, SRP_QPI_BW 22 GB/s), already what GPU traffic reaches, so
  // they are not discounted again (they were, by pcie_efficiency: an 8x RTX 4090 ring across two
  // EPYC sockets came out at 16 x 0.76 = 12.2 GB/s busbw against 14.9 measured with P2P off and
  // 20.6 with P2P on, set 4).
  double inter_socket_efficiency = 1.0;
  double xgmi_efficiency = 0.80;  // estimate: as NVLink of the same era (no NCCL figure for xGMI)
  // ESTIMATE, not fitted: the fraction of NIC line rate NCCL's Simple protocol reaches across
  // servers (NCCL's own model assumes the full NIC speed; we allow for headers and flow control).
  // It was set before comparing with ../shared/validation, so every data set there is held out.
  double net_efficiency = 0.92;
  // ESTIMATE, not fitted: the fraction of line rate NCCL's socket transport (net_socket.cc; no
  // RDMA, so every byte is staged through host memory and the kernel's TCP stack, spread over
  // NCCL_SOCKET_NTHREADS x NCCL_NSOCKS_PERTHREAD sockets) reaches on a network link without RDMA
  // (catalog `rdma: false`, e.g. eth-400g-tcp). 0.30 makes a TCP link 0.92 / 0.30 = 3.1x slower
  // than its RoCE twin, the low end of the "RDMA fallback to TCP: 3-10x slower" of
  // ../shared/seeds/002 (bottleneck 4). No measured nccl-tests table over TCP is in ../shared.
  double tcp_efficiency = 0.30;

  // Latency a network transport adds to every step that crosses it, on top of NCCL's per-step
  // NET figure (NCCL adds its net plugin's reported latency the same way, as graph latencyInter):
  // the link technology's own term, each with its citation (LinkTech::transport_latency,
  // topology/link_catalog.cpp default_transport: EFA 23 us from aws-ofi-nccl's tuner, IB and RoCE
  // verbs nothing).
  Time network_step_latency(const LinkTech& tech) const;

  // The fraction of a link's catalog bandwidth NCCL's Simple protocol reaches on it: by family,
  // and for a network link by whether it is GPU-direct (tech.rdma: RDMA, or TCPXO's offload) or
  // host-staged TCP (tcp_efficiency).
  double efficiency(const LinkTech& tech, const std::string& arch) const;

  // Flow model: a flow due to finish within this fraction of its lifetime after an instant the
  // model is already at finishes at that instant instead (FlowModel::pull_near_completions). Exact
  // max-min ends the flows of a large all-to-all at thousands of distinct picoseconds a few ns
  // apart, and re-solves the whole connected problem at each; this merges them. 0 is exact.
  double flow_completion_tolerance = 1e-3;
};

}  // namespace gf
