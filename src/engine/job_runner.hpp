// Several jobs on one fabric: each job is a sequence of collective calls (a Schedule on its
// Communicator), repeated, starting at a given time; a call starts when the job's previous call
// has ended, plus an optional gap. Every job's transfers go to one Model, so jobs whose routes
// share links slow each other down exactly as the model shares bandwidth.
//
// Timeline of one call instance: its root transfers start at the instance's start time S; each
// other transfer starts when its dependencies have finished; the instance ends at E = (last
// completion) + the schedule's base latency (NCCL's fixed per-call cost, paid once, as
// run_schedule charges it). The job's next call starts at E + gap.
//
// Transfer ids are global: job j owns the id range [offset_j, offset_j + largest schedule of j),
// offsets in job order. A job runs one call at a time, so its successive call instances reuse
// that range (a model only needs an id to be unique among transfers in flight).
//
// Deterministic tie-breaking at one instant: the model reports completions in (time, id) order;
// then calls whose start time has come begin, in job order; then every transfer made ready at that
// instant (by a completion or by a call beginning) starts, in increasing global id. Same input,
// same seed: bit-identical times.
//
// Routes are computed once per (job, call) before the run, and shared by all of the call's
// repetitions and by every transfer repeating one (source, destination, channel). Under adaptive
// routing a transfer's route depends on the links' load when it starts (Model::link_load), so it
// is routed again at each start, not cached (the ECMP routes computed first still prove that every
// transfer has a route). A transfer with
// no route is reported before anything runs; a run the model cannot finish (a transfer whose route
// crosses a zero-capacity link) is reported, naming the job, call and transfer, instead of hanging.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "collective/communicator.hpp"
#include "collective/schedule.hpp"
#include "model/model.hpp"
#include "routing/router.hpp"
#include "routing/routing_policy.hpp"

namespace gf {

class RouteCache;

struct JobCall {
  const Schedule* schedule = nullptr;
  const Communicator* comm = nullptr;
  Time gap = Time::zero();  // idle time after this call before the job's next call
  std::string label;        // for messages, e.g. "all_reduce 1 GiB"
  // Routes shared with other runs of the same pattern (engine/transfer_routes.hpp RouteCache::use;
  // the tuner's protocols of one algorithm); made for this call's communicator, router, seed and
  // routing policy. Null: the call routes its own transfers.
  RouteCache* routes = nullptr;
  // Per rank of `comm` (empty: none): how long after the call instance begins that rank's kernel
  // starts, a straggler or launch jitter (workload/noise.hpp). A transfer starts no earlier than
  // its source's delay after the instance begins (a group source: its latest member's); data may
  // still arrive at a late rank before it starts, as NCCL's receive buffers are posted at
  // connection setup. The instance's start stays the reference its duration is measured from.
  std::span<const Time> rank_delay{};
};

struct Job {
  std::string name;         // for messages
  std::vector<JobCall> calls;  // run in order, `repeat` times
  Time start = Time::zero();
  int repeat = 1;
  uint64_t seed = 0;        // ECMP flow-key seed of this job's transfers
  RoutingPolicy routing = RoutingPolicy::Ecmp;
  // Optional: each rank's delay for a call instance that follows a gap, from when the gap began
  // (the previous instance's end) and its length; it takes the place of that call's rank_delay
  // (a GPU whose compute speed changes during the run stretches the part of the gap it computes
  // slowly: workload/scenario_compute.hpp). Fills one delay per rank of the next call's
  // communicator. Not asked for the job's first call instance, nor after a zero gap.
  std::function<void(Time gap_from, Time gap, std::vector<Time>& delay)> gap_delay;
};

struct CallSpan {
  Time start, end;
  Time duration() const { return end - start; }
};

struct JobRun {
  std::vector<std::vector<CallSpan>> calls;  // [call][repetition]
  std::vector<std::vector<Time>> finish;     // [call][transfer]: absolute finish time, last repetition
  Time end;                                  // end of the job's last call
};

struct JobsRun {
  std::vector<JobRun> jobs;
  Time makespan;      // the latest job end (time 0 is the scenario's start)
  size_t events = 0;  // model advances processed
};

// Throws std::invalid_argument for a job with no calls, a call without a schedule or
// communicator, or repeat < 1; std::runtime_error (naming job, call and transfer) for a transfer
// with no route or a run the model cannot finish.
JobsRun run_jobs(std::span<const Job> jobs, const Router& router, Model& model);

}  // namespace gf
