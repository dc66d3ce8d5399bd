// A slow GPU in a scenario: `{at: 0, degrade: server7/gpu3, compute: 0.8}` (docs/failures.md,
// "Slow GPUs in a scenario"; issue 21).
//
// A scenario job is collectives only; the time between them is each call's `gap` ("idle time
// after each call, e.g. compute", docs/scenarios.md). A GPU at compute fraction F takes gap / F
// over that compute, so its rank starts the job's next call gap x (1/F - 1) after the others
// (engine/job_runner.hpp JobCall::rank_delay): the schedule's own dependencies then decide what
// the late rank costs, as for `perf --straggler`. The job's first call has no compute before it
// and is not delayed. With no gap there is nothing to stretch: a job whose calls have no gap is
// unaffected (a training step's compute phases are `train --straggler`).
//
// The delays differ between the first repetition's first call and the later ones (the last
// call's gap comes before those), so a job with a slow GPU is run unrolled: its calls repeated
// `repeat` times in one list, each with its own delays, then folded back to [call][repetition].
#pragma once

#include <vector>

#include "collective/communicator.hpp"
#include "engine/job_runner.hpp"
#include "topology/cluster.hpp"
#include "workload/scenario_spec.hpp"

namespace gf {

// Checks each `compute:` event: the component is a GPU of `c` (InputError at the event's
// `degrade` key with a did-you-mean otherwise) and `at` is 0 (a job's delays are fixed before the
// run, so a GPU slows from the start: InputError at `at`).
void check_compute_events(const std::vector<EventSpec>& events, const Cluster& c);

// The jobs as run with the slow GPUs. A job none of whose ranks is slow, or whose calls have no
// gap, is returned as it is; the others unrolled (above), their delays held in `delays`, which
// must outlive the returned jobs. `comms[j]` is job j's communicator.
std::vector<Job> jobs_with_slow_gpus(const std::vector<Job>& jobs, const std::vector<const Communicator*>& comms,
                                     const std::vector<EventSpec>& events,
                                     std::vector<std::vector<Time>>& delays);

// Folds an unrolled job's run back into [call][repetition] spans, and `finish` to the last
// repetition's, so the report reads as for the job as written. `plain[j]` is job j as written.
void fold_unrolled(JobsRun& run, const std::vector<Job>& plain, const std::vector<Job>& ran);

}  // namespace gf
