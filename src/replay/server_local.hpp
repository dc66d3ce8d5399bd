// Which collective instances of a replay stay inside one server, so that replay can time one
// server's instance for every server's copy and split overlapping sets into independent parts.
//
// An instance is server-local when all its GPUs sit on one server and every ordered pair of them
// is joined by a scale-up route (P2P or SHM, routing/router transport): its transfers then cross
// only that server's own links, which no other server's local instance uses. Two local instances
// on different servers therefore cannot slow each other on any network model that shares bandwidth
// per link, and an instance on server s takes what the same instance shifted to server 0 takes,
// when every server is a copy of server 0 (the same internal links, capacities, latencies and none
// down). That is the composed step's own shortcut (training/train_step: server 0's TP groups stand
// for every server's). Both conditions are checked once; where either fails (a fault on one
// server, an NVLink domain joining servers) nothing is local and replay runs everything as given.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "routing/router.hpp"
#include "topology/cluster.hpp"

namespace gf {

class ServerLocality {
 public:
  ServerLocality(const Cluster& cluster, const Router& router);
  // The server an instance on these cluster GPU indices stays inside, or -1.
  int64_t server_of(const std::vector<int64_t>& gpus) const;
  int gpus_per_server() const { return gps_; }
  bool enabled() const { return enabled_; }

 private:
  const Cluster& cluster_;
  const Router& router_;
  int gps_ = 1;
  bool enabled_ = false;
  // Positions on a server -> whether every pair of them has a scale-up route (alike on every
  // server when enabled_).
  mutable std::map<std::vector<int64_t>, bool> scale_up_;
};

}  // namespace gf
