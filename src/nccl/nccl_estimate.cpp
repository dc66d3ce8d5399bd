#include "nccl/nccl_estimate.hpp"

#include <algorithm>
#include <cmath>

#include "model/model_params.hpp"
#include "topology/nic_transport.hpp"

namespace gf {

namespace {

double gbps(Bandwidth b) { return b.bytes_per_second() / 1e9; }

// What the servers' network transport adds to every inter-node step, as the models charge it
// (ModelParams::network_step_latency: the NIC technology's transport term, link_catalog.cpp).
double transport_latency_us(const Communicator& comm) {
  if (comm.nnodes <= 1 || !comm.cluster) return 0.0;
  const Cluster& c = *comm.cluster;
  // NCCL_NET=Socket runs the socket transport on every NIC (model/transfer_cost.cpp, the same rule).
  if (c.server_template().transport.net.socket) return transport_latency(NicTransport::Socket).to_us();
  double us = 0;
  for (int nic : c.nic_locals())
    if (auto id = c.catalog().find(c.server_template().nodes[static_cast<size_t>(nic)].tech))
      us = std::max(us, ModelParams{}.network_step_latency(c.catalog().tech(*id)).to_us());
  return us;
}

}  // namespace

EstimateInput estimate_input(const Communicator& comm, const CollectiveCall& call) {
  EstimateInput in;
  in.nranks = comm.nranks;
  in.nnodes = comm.nnodes;
  in.ppn = comm.ppn;
  in.nvlink = comm.nvlink;
  in.arch = comm.arch;
  in.bw_intra = gbps(comm.intra_bw);
  in.bw_inter = comm.ppn * gbps(comm.inter_bw);
  in.transport_us = transport_latency_us(comm);
  in.kind = call.kind;
  in.bytes = call.bytes;
  return in;
}

std::optional<Time> nccl_estimate(const Communicator& comm, const CollectiveCall& call, const Algorithm& algo,
                                  Protocol p, int channels) {
  return algo.estimate(estimate_input(comm, call), p, channels);
}

}  // namespace gf
