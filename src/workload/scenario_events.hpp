// A scenario's `events:` (docs/scenarios.md, docs/failures.md "Events during a run"): components
// down, up or degraded at given times, turned into the capacity changes the flow model applies
// during the run (model/link_events.hpp), and each job's fate read back from the stalls the run
// recorded: unaffected, continues degraded, stalls then continues, or aborts.
//
// What a `down` does to a link's capacity over time (the failure_timeline constants, each cited
// in workload/failure_timeline.hpp):
// - From `at`, 0: every transfer routed over it stalls (its packets are lost).
// - A NIC's cable has no other path. Classic NCCL: the transport gives up NCCL_IB_RETRY_CNT ACK
//   timeouts after `at` (30.1 s at the defaults) and NCCL aborts the communicator, unless an `up`
//   comes first, when the first retry after it succeeds. `nccl_on_failure: resilient`: the
//   connections move to another NIC after about 500 ms.
// - Any other link: the fabric reroutes after its technology's reconvergence time (InfiniBand's
//   subnet manager 10 s, adaptive routing 1 ms, Ethernet 300 ms, EFA 1 ms), or the link comes back
//   `up`, whichever is first; the stalled connections resume at the first ACK-timeout retry after
//   that (4.29 s apart at NCCL_IB_TIMEOUT=20), or abort if none is left.
// - At that resume (or abort) instant the link's capacity comes back. Stalled transfers are not
//   moved to the new routes mid-run: the model carries them on at the link's former capacity, so
//   the time after a resume is the healthy run's; the degraded steady state after a reroute is
//   what `perf --fail` gives. Every transfer on the link resumes at that one instant (the retry
//   clock of those in flight when it went down).
// `degrade` with `bandwidth:` changes the capacity from `at` on (never a stall); `up` also ends a
// degrade. One cable of a bundle (`leaf0-spine0#2`) down takes one lane's share away, no stall.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/link_events.hpp"
#include "routing/routing_policy.hpp"
#include "topology/cluster.hpp"
#include "workload/failure_timeline.hpp"
#include "workload/scenario_spec.hpp"

namespace gf {

// A stretch during which a link is down under the jobs.
struct DownWindow {
  std::string component;
  Time from, until;     // until: when the stalled transfers resume, or NCCL aborts
  bool aborts = false;
  std::string why;      // what ends it, for the report
};

struct EventPlan {
  std::vector<LinkChange> changes;
  std::vector<DownWindow> windows;
  std::vector<std::vector<int>> windows_of_link;  // by link id: indices into windows
  std::vector<std::string> lines;                 // per event, what it does, for the report
};

// Resolves every event against `c` (built, healthy). Throws InputError at the event's file:line
// and key for a component that does not exist (with did-you-mean), a GPU given `bandwidth:` or a
// link given `compute:`, and an event later than `run_end` (the run without events ends then).
EventPlan plan_events(const std::vector<EventSpec>& events, const Cluster& c, const FailureResponse& response,
                      Time run_end);

// What the events did to one job.
struct JobEventOutcome {
  enum class Kind { Unaffected, Degraded, Stalled, Aborted } kind = Kind::Unaffected;
  Time baseline_end;       // the job's end in the run without events
  Time first_stall;        // Stalled, Aborted: when its first transfer stalled
  Time stall;              // Stalled: summed time from each window's first stall to its resume
  Time abort_at;           // Aborted: when NCCL aborts the communicator
  std::string cause;       // the component (Stalled, Aborted)
  std::string text() const;
};

// Per job, from the run's stalls. `offsets`: each job's first global transfer id, in job order
// (engine/job_runner.hpp: job j owns [offset_j, offset_j + its largest schedule)).
std::vector<JobEventOutcome> job_outcomes(const EventPlan& plan, const std::vector<LinkStall>& stalls,
                                          const std::vector<int32_t>& offsets, const std::vector<Time>& ends,
                                          const std::vector<Time>& baseline_ends, bool degraded_any);

}  // namespace gf
