// Which links carried a failure's cost, from a run's own routes: each link's busy time (the
// payload its transfers put on it over its bandwidth) in the failed run against the healthy one.
// `gpufabric perf --fail/--degrade` prints the links whose busy time grew most (docs/failures.md).
#pragma once

#include <string>
#include <vector>

#include "collective/communicator.hpp"
#include "collective/schedule.hpp"
#include "routing/router.hpp"
#include "routing/routing_policy.hpp"

namespace gf {

// Per LinkId: seconds the link needs at its bandwidth for the payload the schedule's transfers
// route over it (each leg its share), routed as the run routes them (adaptive routes as if idle).
std::vector<double> link_busy_seconds(const Schedule& s, const Communicator& comm, const Router& router, uint64_t seed,
                                      RoutingPolicy policy);

struct LinkCost {
  LinkId link = 0;
  std::string from, to;  // as topo names them
  double busy_s = 0, baseline_busy_s = 0;
  // One cable of a bundle (topology/bundle.hpp): cable `cable` (1-based) of `cables`; a single
  // link is cable 1 of 1. `lanes`: the cable's lanes (Link::lanes).
  int cable = 1, cables = 1, lanes = 1;
};

// The `k` links whose busy time grew most from `baseline` to `failed` (indexed by the same link
// ids: failures never renumber links), largest growth first, ties by link id; only links that
// grew. Names come from `c`.
std::vector<LinkCost> links_that_carried_the_cost(const Cluster& c, const std::vector<double>& failed,
                                                  const std::vector<double>& baseline, size_t k);

}  // namespace gf
