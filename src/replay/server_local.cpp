#include "replay/server_local.hpp"

#include <tuple>

namespace gf {

namespace {

// Every server's internal links (both ends on the server), in link order, as server 0's: the
// same local ends, technology, lanes, capacity, latency and state.
bool servers_alike(const Cluster& c) {
  const int64_t nps = c.nodes_per_server();
  const int64_t server_nodes = c.servers() * nps;
  using Sig = std::tuple<int64_t, int64_t, TechId, uint16_t, double, int64_t, bool>;
  std::vector<std::vector<Sig>> per(static_cast<size_t>(c.servers()));
  for (size_t i = 0; i < c.links().size(); ++i) {
    const Link& k = c.links()[i];
    const int64_t a = static_cast<int64_t>(k.src), b = static_cast<int64_t>(k.dst);
    if (a >= server_nodes || b >= server_nodes || a / nps != b / nps) continue;
    per[static_cast<size_t>(a / nps)].emplace_back(a % nps, b % nps, k.tech, k.lanes, k.bandwidth.bytes_per_second(),
                                                    k.latency.picoseconds(), c.is_down(static_cast<LinkId>(i)));
  }
  for (const auto& s : per)
    if (s != per.front()) return false;
  return true;
}

}  // namespace

ServerLocality::ServerLocality(const Cluster& cluster, const Router& router)
    : cluster_(cluster), router_(router), gps_(cluster.gpus_per_server()) {
  if (gps_ < 1) return;
  // An NVLink domain joining servers (NVL72) gives GPUs of different servers a scale-up route
  // through shared domain switches: then nothing is treated as local.
  if (cluster.servers() > 1 && router.transport(cluster.gpu(0), cluster.gpu(gps_)) != Transport::Net) return;
  enabled_ = servers_alike(cluster);
}

int64_t ServerLocality::server_of(const std::vector<int64_t>& gpus) const {
  if (!enabled_ || gpus.empty()) return -1;
  const int64_t s = gpus.front() / gps_;
  std::vector<int64_t> local;
  local.reserve(gpus.size());
  for (int64_t g : gpus) {
    if (g / gps_ != s) return -1;
    local.push_back(g % gps_);
  }
  auto it = scale_up_.find(local);
  if (it == scale_up_.end()) {
    bool up = true;
    for (int64_t a : local)
      for (int64_t b : local)
        if (a != b && router_.transport(cluster_.gpu(a), cluster_.gpu(b)) == Transport::Net) up = false;
    it = scale_up_.emplace(std::move(local), up).first;
  }
  return it->second ? s : -1;
}

}  // namespace gf
