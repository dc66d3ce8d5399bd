// Runs one Schedule on a Model: resolves each transfer's ranks to GPUs and routes, starts every
// transfer when its dependencies have finished, and advances the model event by event. The
// executor knows schedules and models; models never see a schedule, algorithms never see a model.
//
// run_schedule is the one-job, one-call case of run_jobs (engine/job_runner.hpp), which runs
// several jobs' calls on one model; the tie-breaking rules are stated there. Time is integer
// picoseconds; completions at the same time are handled in transfer-id order, and the transfers
// they release start in id order, so a run is reproducible bit for bit.
#pragma once

#include <span>
#include <vector>

#include "collective/communicator.hpp"
#include "collective/schedule.hpp"
#include "model/model.hpp"
#include "routing/router.hpp"
#include "routing/routing_policy.hpp"

namespace gf {

class RouteCache;

struct ScheduleRun {
  Time duration;             // base latency + last completion
  std::vector<Time> finish;  // per transfer
  size_t events = 0;         // model advances processed
  // The model's Model::port_timelines() after the run, when the caller asked for them
  // (SweepOptions::port_timelines, for the trace's queue counters); empty otherwise.
  std::vector<PortTimeline> ports;
};

// Throws std::runtime_error naming the transfer when a route does not exist or the model stops
// before every transfer has finished (a run that cannot finish never hangs).
// `policy` picks fabric paths (routing/routing_policy.hpp): the per-flow ECMP hash, even spraying,
// or the least-loaded next hop as each transfer starts.
// `routes`, when given, serves and keeps the routes (RouteCache::use): runs of one pattern share them.
// `rank_delay`, when given, delays each rank's start (JobCall::rank_delay); the duration still
// counts from time 0.
ScheduleRun run_schedule(const Schedule& s, const Communicator& comm, const Router& router, Model& model,
                         uint64_t seed = 0, RoutingPolicy policy = RoutingPolicy::Ecmp, RouteCache* routes = nullptr,
                         std::span<const Time> rank_delay = {});

// The ModelTransfer for transfer `id` (routes, reduction rate); exposed for tests.
ModelTransfer to_model_transfer(const Schedule& s, TransferId id, const Communicator& comm, const Router& router,
                                uint64_t seed);

}  // namespace gf
