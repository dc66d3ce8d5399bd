// A closed-form (alpha-beta) price for a parallel group's collective, for ranking many training
// layouts quickly (training/search). Each distinct group shape is measured once on the analytical
// network model at two sizes, on at most kReferenceRanks of its ranks; a call of b bytes on n ranks
// then costs
//     t = alpha x log2(n) / log2(n_ref) + beta x b x f(n) / f(n_ref)
// with f the share of the buffer each rank moves in a ring (nccl-tests' bus-bandwidth factor:
// all-reduce 2(n-1)/n, reduce-scatter and all-gather (n-1)/n, send/recv 1; Thakur et al. 2005)
// and the latency term grown as a tree's depth (NCCL's choice for small calls on many ranks). All
// groups of a kind are assumed not to contend. It is an estimate for pruning: the layouts it ranks best are run again on the
// network model the user chose.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "collective/collective.hpp"
#include "routing/router.hpp"
#include "topology/cluster.hpp"
#include "training/group_collectives.hpp"

namespace gf {

class ClosedFormNetwork {
 public:
  static constexpr size_t kReferenceRanks = 16;
  ClosedFormNetwork(const Cluster& cluster, const Router& router) : cluster_(cluster), router_(router) {}
  GroupTiming time(const std::vector<std::vector<int64_t>>& groups, CollectiveKind kind, Bytes bytes,
                   const std::string& flag);
  size_t measurements() const { return measurements_; }

 private:
  struct Fit {
    double alpha = 0, beta = 0;  // seconds; seconds per byte, on the reference group
    size_t ranks = 0;
    std::string algorithm;
  };
  const Fit& fit(const std::vector<int64_t>& group, CollectiveKind kind, const std::string& flag);
  const Cluster& cluster_;
  const Router& router_;
  std::map<std::tuple<int, std::vector<int64_t>>, Fit> fits_;
  size_t measurements_ = 0;
};

}  // namespace gf
