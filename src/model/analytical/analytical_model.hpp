// The analytical model: each transfer costs a closed-form alpha + beta along its route. It does
// not share bandwidth dynamically (the flow model's job); instead each transfer, when it starts,
// is charged for the load on its links at that instant, and keeps that rate until it ends:
//
//   load_k  = sum, over transfers in flight on link k (this one and those starting with it), of
//             the share of their bytes crossing k
//   wire    = max over links k of the transfer's legs:  B x load_k / cap_k
//   cap_k   = catalog bandwidth x efficiency(link technology, GPU arch) x protocol efficiency
//   t       = max(wire, R / reduce_rate) + alpha,   alpha = max_l max(NCCL step latency, physical)
//
// So C channels running the same ring step over one link each get 1/C of it, and a GPU sending to
// n-1 peers at once (all-to-all, NVLS) pays for the whole volume on its port — the volume terms
// of the closed forms — while no transfer is ever slowed after it starts. docs/models.md has the
// derivation and the constants' sources.
//
// A slow GPU (set_gpu_compute, `perf --degrade server1/gpu3=0.5`) has one rate, fraction F of its
// full one, for every transfer reducing on it (the flow model's shared reduction resource,
// FlowModel::set_gpu_compute). Here the transfers take turns at it, in the order they start: each
// books R / (F reduce_rate) on the GPU's clock from its start or the end of the bookings before
// it, whichever is later, and its reduction ends with its booking:
//
//   reduce  = max(busy_g, now) + R / (F reduce_rate) - now,   busy_g = that end
//
// So whenever work is queued the GPU reduces at F x its rate, as under the flow model's sharing,
// and C transfers starting together end C turns apart instead of together. (Charging each with
// the count in flight when it starts, as a link's load is charged, over-charges a ring whose
// channels reach the slow GPU at staggered instants: 7.29 ms against the flow model's 6.07 ms on
// one DGX H100 at 1 GiB, above the 6.79 ms that every step at F R gives.) A GPU at full speed
// keeps only each transfer's own bound, as in the flow model.
#pragma once

#include <queue>
#include <vector>

#include "model/gpu_compute.hpp"
#include "model/model.hpp"
#include "model/transfer_cost.hpp"
#include "topology/cluster.hpp"

namespace gf {

class AnalyticalModel final : public Model {
 public:
  AnalyticalModel(const Cluster& cluster, ModelParams params = {});
  std::string name() const override { return "analytical"; }
  void start(TransferId id, const ModelTransfer& t, Time now) override;
  Time next_event_time() const override;
  void advance_to(Time t, CompletionSink& done) override;
  const std::vector<double>& carried_bytes() const override { return carried_; }
  double link_load(LinkId l) const override;

  // The duration of a transfer alone on an idle network (exposed for tests and the tuner).
  Time duration(const ModelTransfer& t) const;
  const ModelParams& params() const { return cost_.params(); }
  // A slow GPU: from now on `gpu` reduces at `fraction` (0, 1] of its full rate, taken in turns by
  // the transfers reducing on it (the class comment). Throws std::invalid_argument for a fraction
  // outside (0, 1] or a node that is not a GPU. Call before the first start().
  void set_gpu_compute(NodeId gpu, double fraction);

 private:
  struct Pending {
    Time at;
    TransferId id;
    bool operator>(const Pending& o) const { return at != o.at ? at > o.at : id > o.id; }
  };
  struct InFlight {
    std::vector<std::pair<LinkId, double>> loads;  // (link, share) this transfer adds
  };
  // The slow GPU transfer t reduces on (its legs' last node), kNoNode when it reduces nothing or
  // on a GPU at full speed.
  NodeId slow_reducer(const ModelTransfer& t) const;
  // Times every transfer started at the current instant, once all of them are known.
  void settle() const;

  TransferCost cost_;
  // Timing is settled lazily (all starts of one instant see each other), hence mutable.
  mutable std::vector<double> load_;                      // per link, sum of shares in flight
  mutable std::vector<double> carried_;                   // per link, wire bytes so far
  mutable std::vector<std::pair<TransferId, ModelTransfer>> unsettled_;
  mutable std::vector<InFlight> in_flight_;               // by TransferId
  mutable std::priority_queue<Pending, std::vector<Pending>, std::greater<>> pending_;
  Time now_ = Time::zero();
  // Slow GPUs (set_gpu_compute) and their reductions' turns, booked as transfers settle.
  mutable SlowGpus slow_gpus_;
};

}  // namespace gf
