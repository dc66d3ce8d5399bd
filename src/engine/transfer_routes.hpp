// What a model is handed for one transfer of a schedule: its ModelTransfer fields (bytes,
// reduction, protocol, latencies) and its legs (the route between the two ranks' GPUs, or a
// group's links to where it reduces in the network). The executors share these; a model never
// sees a schedule.
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>

#include "core/hash.hpp"

#include "collective/communicator.hpp"
#include "collective/schedule.hpp"
#include "model/model.hpp"
#include "routing/link_load.hpp"
#include "routing/router.hpp"
#include "routing/routing_policy.hpp"

namespace gf {

// Everything a model needs about transfer `id` except its route.
ModelTransfer transfer_fields(const Schedule& s, TransferId id, const Communicator& comm);

// The legs of transfer `id`. Channel k of a GPU with several NICs takes its (k / ranks-per-server)-th
// NIC in turn (a schedule with Schedule::pxn() relays a send to another server through the GPU on
// the receiver's rail first, Router::pxn_route); the fabric path is chosen by `policy` (Router::route), its hash keyed on (seed,
// source rank, destination rank, channel); `load` is what adaptive routing reads. Throws
// std::runtime_error naming the transfer when no route exists.
Route transfer_legs(const Schedule& s, TransferId id, const Communicator& comm, const Router& router, uint64_t seed,
                    RoutingPolicy policy = RoutingPolicy::Ecmp, const LinkLoad* load = nullptr);

// Transfers of one schedule repeat the same (source, destination, channel) many times (a ring
// visits each edge 2(n-1) times) and a repeated call repeats all of them: each is routed once and
// the route shared (ModelTransfer holds it by shared_ptr, so starting a transfer copies no legs).
class RouteCache {
 public:
  // Adaptive routes depend on the load when a transfer starts and are never cached; a cache asked
  // for one routes as if the fabric were idle (which is ECMP).
  RouteCache(const Schedule& s, const Communicator& comm, const Router& router, uint64_t seed,
             RoutingPolicy policy = RoutingPolicy::Ecmp)
      : s_(&s), comm_(&comm), router_(&router), seed_(seed), policy_(policy), groups_(s.groups()), pxn_(s.pxn()),
        channels_(s.channels()) {}
  ModelTransfer get(TransferId id);
  // The shared route alone.
  const std::shared_ptr<const Route>& route(TransferId id);
  // Serve the transfers of `s` from now on, keeping the routes found so far when they hold for it:
  // a route depends on a transfer's (source, destination, channel) and, beyond those, only on the
  // schedule's rank groups and PXN (transfer_legs), so the protocols of one algorithm, which build
  // the same pattern, share every route. A schedule that differs in those starts afresh, and so
  // does one with another channel count: channel c + C is the second tree's copy of channel c.
  void use(const Schedule& s);
  uint64_t seed() const { return seed_; }
  RoutingPolicy policy() const { return policy_; }
  const Communicator* comm() const { return comm_; }
  const Router* router() const { return router_; }

 private:
  const Schedule* s_;
  const Communicator* comm_;
  const Router* router_;
  uint64_t seed_;
  RoutingPolicy policy_;
  std::vector<RankGroup> groups_;  // what the cached routes assume of the schedule (see use())
  bool pxn_;
  int channels_;
  // The key packs (src, dst, channel) in bit fields; std::hash of an integer is the identity and
  // libstdc++ takes it modulo a prime bucket count, so ring neighbours (r, r+1) all landed in one
  // bucket (2^16 = 1 mod 257). Mixing the bits first spreads them.
  struct KeyHash {
    size_t operator()(uint64_t k) const { return static_cast<size_t>(mix_hash(k, 0x9e3779b97f4a7c15ull)); }
  };
  std::unordered_map<uint64_t, std::shared_ptr<const Route>, KeyHash> cache_;
};

}  // namespace gf
