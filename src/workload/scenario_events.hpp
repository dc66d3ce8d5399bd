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
// - When the fabric reroutes (a link that is not a NIC's, not up again first, not aborted):
//   transfers that start after the reconvergence take the routes around it, and at the resume
//   instant the stalled ones move what they have left onto such routes; the link stays down (a
//   later `up` does not bring it back: the fabric keeps its new routes). When an in-flight leg
//   ends at a switch, the link's capacity comes back at the resume instead, and the stalled
//   transfers carry on over it. Every transfer on the link resumes at that one instant (the
//   retry clock of those in flight when it went down).
// - A down that leaves GPUs no route (with every link down at that instant) is a NIC's cable
//   writ large: no reconvergence helps, so NCCL aborts when the transport gives up unless an
//   `up` comes first (then the first retry after it resumes the stalled transfers).
// `degrade` with `bandwidth:` changes the capacity from `at` on (never a stall); `up` also ends a
// degrade. One cable of a bundle (`leaf0-spine0#2`) down takes one lane's share away, no stall.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/link_events.hpp"
#include "routing/router.hpp"
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
  // A later down that left GPUs no route before this one's resume (a reroute window): when, the
  // GPUs cut off then, and when NCCL aborts a job with a transfer stalled here between one of them
  // and a GPU still reached (this window's retry clock: from + the transport's give-up time).
  Time cut_at = Time::infinity();
  std::vector<NodeId> cut_off;
  Time cut_abort = Time::infinity();
};

struct EventPlan {
  std::vector<LinkChange> changes;
  // Down links the fabric reroutes around (not a NIC's cable, not up again or aborted first):
  // new transfers go around them from the reconvergence, stalled ones move at their resume, and
  // the links stay down (model/link_events.hpp).
  std::vector<LinkReroute> reroutes;
  std::vector<DownWindow> windows;
  std::vector<std::vector<int>> windows_of_link;  // by link id: indices into windows
  std::vector<std::string> lines;                 // per event, what it does, for the report
};

// Resolves every event against `c` (built, healthy). Throws InputError at the event's file:line
// and key for a component that does not exist (with did-you-mean), a GPU given `bandwidth:`, and
// an event later than `run_end` (the run without events ends then). `compute:` events are
// workload/scenario_compute.hpp's (checked there); here they only get their report line.
EventPlan plan_events(const std::vector<EventSpec>& events, const Cluster& c, const FailureResponse& response,
                      Time run_end);

// The fabric's routes around the rerouted links: a Router on a copy of the cluster with them
// taken down. A leg between two GPUs takes the route the Router gives it there (ECMP hashed by
// the leg's links); a leg ending at a switch (an in-network reduction) has none.
class RouterAround final : public RouteAround {
 public:
  explicit RouterAround(const Cluster& c);
  ~RouterAround() override;
  void avoid(const std::vector<LinkId>& links) override;
  Route around(const Path& p) override;

 private:
  std::unique_ptr<Cluster> cluster_;
  std::unique_ptr<Router> router_;
};

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
// (engine/job_runner.hpp: job j owns [offset_j, offset_j + its largest schedule)). `c` names the
// stalled legs' end GPUs (a window's cut_off).
std::vector<JobEventOutcome> job_outcomes(const Cluster& c, const EventPlan& plan, const std::vector<LinkStall>& stalls,
                                          const std::vector<int32_t>& offsets, const std::vector<Time>& ends,
                                          const std::vector<Time>& baseline_ends, bool degraded_any);

}  // namespace gf
