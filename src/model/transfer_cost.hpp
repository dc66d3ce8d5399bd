// What every model charges a transfer regardless of how it shares bandwidth: the fixed latency
// (alpha), the usable capacity of a link, the wire bytes a leg puts on its links and the time the
// receiving GPU needs to reduce. The analytical and flow models both use these, so on an idle
// network they agree by construction and differ only in contention.
#pragma once

#include <optional>

#include "model/gdr_receive.hpp"
#include "model/model.hpp"
#include "model/model_params.hpp"
#include "topology/cluster.hpp"

namespace gf {

// The link class NCCL's latency table would use for a path: NET if it crosses a NIC port, else
// NVLINK if it uses NVLink/xGMI, else PCI.
HopClass hop_class(const Cluster& c, const Path& p);

class TransferCost {
 public:
  TransferCost(const Cluster& c, ModelParams params);

  // Bytes per second link l delivers to Simple-protocol payload: catalog bandwidth x the link
  // family's efficiency for this cluster's GPU architecture.
  double capacity(LinkId l) const { return capacity_[static_cast<size_t>(l)]; }
  // Wire bytes per payload byte: 1 / (protocol efficiency x the transfer's own efficiency, x its
  // scale_up_efficiency when every leg stays inside the NVLink/xGMI domain).
  double inflation(const ModelTransfer& t) const;
  // alpha = steps x max over legs of: on a network leg, NCCL's NET step latency + its transport's
  // own latency (ModelParams::network_step_latency; twice on a step NCCL flushes,
  // model/gdr_flush.hpp) + the leg's physical (wire and switch) latency; on any other leg,
  // max(NCCL step latency of its class, its physical latency).
  Time alpha(const ModelTransfer& t) const;
  // Seconds the receiving GPU needs to reduce what arrives (0 for a copy).
  static double reduce_seconds(const ModelTransfer& t);

  const ModelParams& params() const { return params_; }
  const Cluster& cluster() const { return c_; }

 private:
  bool inside_scale_up(const ModelTransfer& t) const;

  const Cluster& c_;
  ModelParams params_;
  std::vector<double> capacity_;  // by LinkId
  // Set when the servers' GPUs flush GPUDirect RDMA receives (arch_flushes_gdr, decided once here,
  // not per link): which network receives land in GPU memory.
  std::optional<GdrReceive> gdr_receive_;
};

// Seconds to integer picoseconds, rounded to nearest.
Time seconds_to_time(double s);

}  // namespace gf
