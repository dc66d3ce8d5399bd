// The analytical model: each transfer costs a closed-form alpha + beta along its route, with no
// contention (the flow model's job). For a transfer of B bytes on legs l with shares s_l:
//   t = max_l [ alpha(l) + s_l B / (bw_l x eff_proto / C) ],   then + R / reduce_rate if it reduces
// where bw_l is the leg's slowest link after its family's efficiency, C the number of channels
// sharing the same links, and alpha(l) = max(NCCL's per-step latency for the leg's link class and
// protocol, the leg's physical latency). The reduction overlaps with arrival as in NCCL's fused
// kernels, so it only counts where it is slower than the wire: t = max(wire, reduce) + alpha.
#pragma once

#include <queue>
#include <vector>

#include "model/analytical/analytical_params.hpp"
#include "model/model.hpp"
#include "topology/cluster.hpp"

namespace gf {

class AnalyticalModel final : public Model {
 public:
  AnalyticalModel(const Cluster& cluster, AnalyticalParams params = {});
  std::string name() const override { return "analytical"; }
  void start(TransferId id, const ModelTransfer& t, Time now) override;
  Time next_event_time() const override;
  void advance_to(Time t, CompletionSink& done) override;

  // The closed-form duration of one transfer (exposed for tests and the tuner).
  Time duration(const ModelTransfer& t) const;
  const AnalyticalParams& params() const { return params_; }

 private:
  struct Pending {
    Time at;
    TransferId id;
    bool operator>(const Pending& o) const { return at != o.at ? at > o.at : id > o.id; }
  };
  const Cluster& c_;
  AnalyticalParams params_;
  std::string arch_;
  std::priority_queue<Pending, std::vector<Pending>, std::greater<>> pending_;
};

// The link class NCCL's latency table would use for a path: NET if it crosses a NIC port, else
// NVLINK if it uses NVLink/xGMI, else PCI.
HopClass hop_class(const Cluster& c, const Path& p);

}  // namespace gf
