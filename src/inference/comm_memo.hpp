// The collective timings of one serving instance, kept across run_inference calls: continuous
// batching prices an iteration at each batch size it meets (inference/batching.hpp), and every
// such call used to time its collectives, and route its EP group's transfers, afresh.
//
// Reuse is exact. A call's time is a function of the cluster, the router, the network model, the
// groups it runs on and the call's own parameters: each timing builds a fresh Model
// (time_serving_allreduce, time_ep, time_groups), so nothing carries from one call to the next
// except the EP group's communicator and routes, which depend only on the group and the transfers'
// endpoints (EpShared, inference/moe_dispatch.hpp). The groups follow from the layout's TP, PP
// and EP and not from the batch, prompt or output; so a memo is bound to the instance it was first
// used for (everything but those three) and refuses any other, and within it a key holds every
// parameter that still varies: the bytes (or tokens) of the call, its kernel or algorithm, and
// for EP whether it is the dispatch or the combine.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <utility>

#include "inference/infer_step.hpp"
#include "inference/moe_dispatch.hpp"
#include "inference/serving_allreduce.hpp"
#include "training/group_collectives.hpp"

namespace gf {

struct InferCommMemo {
  std::map<std::pair<double, int>, ServingArTiming> allreduce;  // (bytes, ServingAllReduce)
  std::map<std::tuple<double, bool, int>, EpTiming> ep;         // (tokens, combine, EpKernel)
  std::map<double, GroupTiming> pp_send;                        // bytes
  std::map<double, GroupTiming> kv_transfer;                    // bytes
  EpShared ep_shared;  // the EP group's communicator and routes

  // Binds the memo to this instance on first use; throws std::logic_error when it was bound to
  // another (a different cluster, router, network model, model or layout beyond batch, prompt and
  // output), where its timings would not hold.
  void bind(const Cluster& cluster, const Router& router, const ModelShape& m, const InferLayout& l,
            const InferOptions& o);

 private:
  using Instance = std::tuple<const Cluster*, const Router*, std::string, std::string, int64_t, int64_t, int64_t,
                              int64_t, int64_t, int64_t, int64_t, int, int, int64_t, int64_t>;
  bool bound_ = false;
  Instance instance_{};
};

}  // namespace gf
