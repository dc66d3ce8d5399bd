// A slow GPU's compute fraction as every network model takes it (`perf --degrade serverS/gpuK=F`,
// a scenario's `compute:` event): one check, so the flow, analytical and packet models refuse the
// same inputs with the same words; and the clock the analytical and packet models book a slow
// GPU's reductions on.
#pragma once

#include <vector>

#include "core/units.hpp"
#include "topology/cluster.hpp"

namespace gf {

// Throws std::invalid_argument unless `fraction` is in (0, 1] and `gpu` names a GPU of `cluster`.
void check_gpu_compute(const Cluster& cluster, NodeId gpu, double fraction);

// The slow GPUs of one model, by node: the fraction of speed each keeps and when the reductions
// booked on it end. A slow GPU reduces one thing at a time at its one rate, so transfers reducing
// on it take turns (a clock per GPU) rather than each getting the fraction alone.
class SlowGpus {
 public:
  // check_gpu_compute, then `gpu` keeps `fraction` of its speed from now on.
  void set(const Cluster& cluster, NodeId gpu, double fraction);
  // Whether any GPU was ever made slow (the models skip all bookkeeping while none is).
  bool any() const { return !kept_.empty(); }
  // The fraction `gpu` keeps (1: full speed).
  double kept(NodeId gpu) const { return kept_.empty() ? 1.0 : kept_[static_cast<size_t>(gpu)]; }
  // Books `work` (already slowed) on `gpu`, starting when its earlier bookings end or at `now`,
  // whichever is later; returns when this one ends.
  Time book(NodeId gpu, Time now, Time work);

 private:
  std::vector<double> kept_;  // empty while no GPU is slow
  std::vector<Time> busy_;
};

}  // namespace gf
