#include "nccl/nccl_estimate.hpp"

#include <algorithm>
#include <cmath>

#include "collective/algorithms/steady_state.hpp"
#include "collective/nccl_constants.hpp"
#include "model/model_params.hpp"

namespace gf {

namespace {

int arch_row(const std::string& arch) {
  return arch == "volta" ? 0 : arch == "ampere" ? 1 : arch == "blackwell" ? 3 : 2;  // else Hopper's, as nccl_constants
}
int node_col(int nnodes) { return nnodes <= 1 ? 0 : nnodes == 2 ? 1 : 2; }

// perChMaxTreeLL128Bws and perChMaxNVLSTreeBws (validation README section 3), GB/s per channel.
double tree_ll128_per_channel(const std::string& arch, int nnodes) {
  static const double k[4][3] = {{20, 20, 20}, {20, 20, 20}, {36.7, 36.7, 29.0}, {55.6, 31.67, 20.0}};
  return k[arch_row(arch)][node_col(nnodes)];
}
double nvlstree_per_channel(const std::string& arch, int nnodes) {
  static const double k[4][3] = {{26.5, 18.5, 10.0}, {24.0, 23.6, 17.8}, {0.0, 57.7, 45.5}, {0.0, 96.0, 80.0}};
  return k[arch_row(arch)][node_col(nnodes)];
}

// treeCorrectionFactor[proto][log2(bytes / 64)] for 64 B .. 256 MiB (section 4).
double tree_correction(Protocol p, Bytes bytes) {
  static const double k[3][24] = {
      {1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0, 1.0, 1.0, 1.0, 1.0},
      {1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .6, .6, .6, .8, .9, .9, .9, .9, 1.0, 1.0, 1.0},
      {.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9, .9}};
  const double units = static_cast<double>(bytes.count()) / 64.0;
  if (units < 1) return 1.0;
  const int i = static_cast<int>(std::log2(units));
  return i < 24 ? k[static_cast<size_t>(p)][i] : 1.0;
}

double gbps(Bandwidth b) { return b.bytes_per_second() / 1e9; }

// What the servers' network transport adds to every inter-node step, as the models charge it
// (ModelParams::network_step_latency: EFA's plugin latency; RDMA NICs add nothing).
double transport_latency_us(const Communicator& comm) {
  if (comm.nnodes <= 1 || !comm.cluster) return 0.0;
  const Cluster& c = *comm.cluster;
  double us = 0;
  for (int nic : c.nic_locals())
    if (auto id = c.catalog().find(c.server_template().nodes[static_cast<size_t>(nic)].tech))
      us = std::max(us, ModelParams{}.network_step_latency(c.catalog().tech(*id).family).to_us());
  return us;
}

}  // namespace

std::optional<Time> nccl_estimate(const Communicator& comm, const CollectiveCall& call, const std::string& algo,
                                  Protocol p, int channels) {
  const int n = comm.nranks, nodes = comm.nnodes, ppn = comm.ppn, nch = std::max(1, channels);
  const bool ar = call.kind == CollectiveKind::AllReduce;
  const std::array<double, 3> hw = nccl_hw_latency_us(algo, p);
  const double intra_lat = comm.nvlink ? hw[0] : hw[1], inter_lat = hw[2] + transport_latency_us(comm);
  const double base = nccl_base_latency(algo, p).to_us();
  const double log2_nodes = std::log2(static_cast<double>(std::max(1, nodes)));
  const double bw_intra = gbps(comm.intra_bw), bw_inter = ppn * gbps(comm.inter_bw);
  const double bus = nodes <= 1 ? bw_intra : std::min(bw_intra, bw_inter);
  const int nsteps = ar ? 2 * (n - 1) : (call.kind == CollectiveKind::AllGather || call.kind == CollectiveKind::ReduceScatter) ? n - 1 : n;
  const double ring_factor = static_cast<double>(n) / std::max(1, nsteps);  // busBw -> algBw
  double lat = 0, alg_bw = 0;
  if (algo == "ring") {
    if (!(ar || call.kind == CollectiveKind::AllGather || call.kind == CollectiveKind::ReduceScatter)) return std::nullopt;
    // NCCL_NET_OVERHEAD 1 us (x86 Intel default), tripled for Simple, bounds an intra step from below.
    const double net_overhead = nodes > 1 ? (p == Protocol::Simple ? 3.0 : 1.0) : 0.0;
    const int inter_steps = nodes > 1 ? (ar ? 2 * (nodes - 1) : nodes - 1) : 0;
    lat = (nsteps - inter_steps) * std::max(intra_lat, net_overhead) + inter_steps * inter_lat;
    if (p == Protocol::Simple && nodes > 1 && ar) lat *= 1.4;  // NCCL's "plateau effect"
    lat += base;
    double b = bus;
    if (p == Protocol::LL) b = std::min(nccl_ll_max_bw(comm.arch, nodes), 0.5 * bus);
    if (p == Protocol::LL128) b = std::min(0.92 * bus, nch * nccl_ring_ll128_per_channel_bw(comm.arch));
    alg_bw = b * ring_factor;
  } else if (algo == "tree") {
    if (!ar) return std::nullopt;
    lat = base + 2 * ((ppn - 1) * intra_lat + log2_nodes * inter_lat);
    double b = std::min(0.92 * bus, nch * nccl_tree_per_channel_bw(comm.arch, nodes));
    if (p == Protocol::LL) b = std::min(bus / 3.8, nccl_ll_max_bw(comm.arch, nodes));
    if (p == Protocol::LL128)
      b = std::min(bus * (nodes <= 1 ? 7.0 / 9.0 : 120.0 / 128.0), nch * tree_ll128_per_channel(comm.arch, nodes));
    // tree.cpp sends all of a server's traffic through its chain head: NCCL's TREE pattern, x0.85.
    alg_bw = b * 0.85 * 0.5 * tree_correction(p, call.bytes);
  } else if (algo == "nvls" || algo == "nvlstree") {
    if (p != Protocol::Simple) return std::nullopt;
    const double eff = nccl_nvls_efficiency(comm.arch) * (nch - 1) / nch;
    const double intra = bw_intra * eff * (ar ? 2.0 : static_cast<double>(ppn - 1) / ppn);
    double b = intra;
    if (nodes > 1) b = std::min(b, bw_inter * (algo == "nvlstree" && nodes <= 2 ? 2.0 : 1.0));
    if (algo == "nvlstree") {
      b = std::min(b, nch * nvlstree_per_channel(comm.arch, nodes));
      lat = base + intra_lat + 2 * log2_nodes * inter_lat;
    } else {
      lat = intra_lat + (nodes > 1 ? inter_lat : 0);
    }
    alg_bw = b * ring_factor;
  } else if (algo == "collnet_direct" || algo == "collnet_chain") {
    if (!ar || p != Protocol::Simple) return std::nullopt;
    // Base busBw is bwIntra with CollNet; x0.85 on Hopper and later for CollNetDirect. (NCCL's
    // GPU-per-NIC factor for CollNetDirect is left out: one NIC per GPU makes it 1 on DGX servers.)
    double b = bw_intra;
    if (algo == "collnet_direct") {
      if (comm.arch == "hopper" || comm.arch == "blackwell") b *= 0.85;
      lat = base + 2 * (std::min(1, ppn - 1) * intra_lat + (ppn - 1) * 0.4) + inter_lat;
    } else {
      lat = base + 2 * (ppn - 1) * intra_lat + inter_lat;
    }
    alg_bw = b * 0.5;
  } else {
    return std::nullopt;
  }
  if (alg_bw <= 0) return std::nullopt;
  const double us = lat + static_cast<double>(call.bytes.count()) / (1000.0 * alg_bw);
  return Time::ps(static_cast<int64_t>(std::llround(us * 1e6)));
}

int64_t step_schedule_transfers(const Communicator& comm, const CollectiveCall& call, const std::string& algo,
                                int channels) {
  if (algo == "ring") return ring_step_transfers(comm, call, channels);
  if (algo == "tree") return tree_step_transfers(comm, call, channels);
  if (algo == "nvlstree") return nvlstree_step_transfers(comm, call, channels);
  if (algo == "collnet_direct") return collnet_direct_step_transfers(comm, call, channels);
  if (algo == "collnet_chain") return collnet_chain_step_transfers(comm, call, channels);
  return -1;
}

}  // namespace gf
