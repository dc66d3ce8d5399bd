#include "model/gpu_compute.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace gf {

void check_gpu_compute(const Cluster& cluster, NodeId gpu, double fraction) {
  if (!(fraction > 0 && fraction <= 1)) throw std::invalid_argument("a GPU's compute fraction must be in (0, 1]");
  const size_t nodes = cluster.nodes().size();
  if (gpu < 0 || static_cast<size_t>(gpu) >= nodes || cluster.node(gpu).kind != NodeKind::Gpu)
    throw std::invalid_argument("set_gpu_compute: node " + std::to_string(gpu) + " is not a GPU");
}

}  // namespace gf

namespace gf {

void SlowGpus::set(const Cluster& cluster, NodeId gpu, double fraction) {
  check_gpu_compute(cluster, gpu, fraction);
  if (kept_.empty()) {
    kept_.assign(cluster.nodes().size(), 1.0);
    busy_.assign(cluster.nodes().size(), Time::zero());
  }
  kept_[static_cast<size_t>(gpu)] = fraction;
}

Time SlowGpus::book(NodeId gpu, Time now, Time work) {
  Time& busy = busy_[static_cast<size_t>(gpu)];
  busy = std::max(busy, now) + work;
  return busy;
}

}  // namespace gf
