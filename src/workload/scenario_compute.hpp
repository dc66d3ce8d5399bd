// A slow GPU in a scenario: `{at: 5ms, degrade: server7/gpu3, compute: 0.8}`, back to full speed
// with `{at: 9ms, up: server7/gpu3}` or `compute: 1` (docs/failures.md, "Slow GPUs in a
// scenario"; issue 21).
//
// A scenario job is collectives only; the time between them is each call's `gap` ("idle time
// after each call, e.g. compute", docs/scenarios.md). Each GPU has a compute speed over time, a
// step function: 1 from the start, then the fraction of the latest `compute:` or `up` event. The
// gap's compute is gap's worth of work at full speed, begun when the job's previous call ends; a
// GPU does it at its speed of the moment, so a gap that straddles an event is split there: the
// part before at the old speed, the rest at the new. Where it ends past the gap's end, that
// GPU's rank starts the next call that much late (engine/job_runner.hpp Job::gap_delay, asked at
// each call's end, when the gap's start is known): at fraction F throughout, gap x (1/F - 1).
// The schedule's own dependencies then decide what the late rank costs, as for `perf
// --straggler`. The job's first call has no compute before it and is not delayed; a job whose
// calls have no gap is unaffected (a training step's compute phases are `train --straggler`).
#pragma once

#include <vector>

#include "collective/communicator.hpp"
#include "engine/job_runner.hpp"
#include "topology/cluster.hpp"
#include "workload/scenario_spec.hpp"

namespace gf {

// Whether `e` is about a GPU's compute speed: a `compute:` degrade, or an `up` naming a GPU.
bool is_compute_event(const EventSpec& e, const Cluster& c);

// Checks each compute event: the component of a `compute:` is a GPU of `c` (InputError at the
// event's `degrade` key with a did-you-mean otherwise); an `up` of a GPU comes after (in time
// order, then as written) a `compute:` of that GPU (InputError at `up`). An `at` after the run
// is plan_events' check (workload/scenario_events.hpp), which covers every event.
void check_compute_events(const std::vector<EventSpec>& events, const Cluster& c);

// When compute of `work` (its length at full speed) begun at `from` ends, on a GPU whose speed
// is `steps` (times ascending, each step's fraction holding until the next; speed 1 before the
// first), minus from + work: the extra time the slow parts cost. Exposed for its test.
struct SpeedStep {
  Time at;
  double fraction = 1;
};
Time compute_overrun(const std::vector<SpeedStep>& steps, Time from, Time work);

// The jobs as run with the slow GPUs: a job one of whose ranks has a compute event, and whose
// calls have a gap, gets a Job::gap_delay from its ranks' speeds; the others are returned as they
// are. `comms[j]` is job j's communicator.
std::vector<Job> jobs_with_slow_gpus(const std::vector<Job>& jobs, const std::vector<const Communicator*>& comms,
                                     const std::vector<EventSpec>& events);

}  // namespace gf
