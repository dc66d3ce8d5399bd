// A look at a run while it goes, for a progress line (gpufabric's `perf`, `run`, `train`): the
// simulated time reached, the model events processed and the share of the run's transfers
// finished. Called from the engine's event loop every `every` events; never for results, and a
// run with a tick is the same run, event for event, as one without.
#pragma once

#include <cstddef>
#include <functional>
#include <span>

#include "core/units.hpp"
#include "engine/executor.hpp"
#include "engine/job_runner.hpp"

namespace gf {

struct RunTick {
  // (simulated time reached, events so far, transfers finished / transfers the run will finish)
  std::function<void(Time now, size_t events, double done)> fn;
  size_t every = 1 << 14;
};

// run_jobs (job_runner.hpp), telling `tick` how far it has got every tick.every events.
JobsRun run_jobs(std::span<const Job> jobs, const Router& router, Model& model, const RunTick& tick);

// run_schedule (engine/executor.hpp), the same way.
ScheduleRun run_schedule(const Schedule& s, const Communicator& comm, const Router& router, Model& model,
                         uint64_t seed, RoutingPolicy policy, RouteCache* routes, const RunTick& tick);

}  // namespace gf
