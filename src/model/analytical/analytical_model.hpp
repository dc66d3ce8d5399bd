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
#pragma once

#include <queue>
#include <vector>

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

 private:
  struct Pending {
    Time at;
    TransferId id;
    bool operator>(const Pending& o) const { return at != o.at ? at > o.at : id > o.id; }
  };
  struct InFlight {
    std::vector<std::pair<LinkId, double>> loads;  // (link, share) this transfer adds
  };
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
};

}  // namespace gf
