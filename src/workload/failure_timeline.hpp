// What a job lives through when a component fails under it, before `perf --fail` shows the state
// it runs at afterwards: how long its transfers stall, whether the fabric's rerouting or NCCL
// brings them back, or NCCL aborts, and when (docs/failures.md, "Stall, abort or continue").
//
// Not a simulation of the transient: a timeline from cited constants. The pieces:
// - A packet sent into a dead link is lost; a reliable connection (InfiniBand RC, RoCE) resends it
//   only after its ACK timeout, 4.096 us x 2^NCCL_IB_TIMEOUT (4.3 s at NCCL's default 20), and
//   gives up after NCCL_IB_RETRY_CNT (7) retries (NCCL's environment-variable documentation), so a
//   stalled transfer resumes at the first retry after the fabric has rerouted, not the moment it
//   has.
// - The fabric reroutes: InfiniBand's subnet manager recomputes routes in seconds (up to 10-20 s
//   on very large fabrics, Mellanox SHIELD announcement, 2017), switch-local re-route under
//   adaptive routing in under a millisecond (same source); an Ethernet fabric's switches drop a
//   dead next hop from their ECMP groups on loss of signal and tell the others by BGP (RFC 7938,
//   section 7), a failure without loss of signal found by BFD after its detect multiplier x
//   interval (RFC 5880, section 6.8.4; 3 x 100 ms assumed); EFA's SRD resends on other paths
//   itself (Shalev et al., IEEE Micro 2020).
// - A NIC's own cable has no other path: classic NCCL fails the communicator when its transport
//   gives up (NVIDIA/nccl issue #998); with InfiniBand resiliency (recent NCCL, issues #2157 and
//   #2323) the port's connections move to another NIC after an initial delay of about 500 ms.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/units.hpp"
#include "routing/routing_policy.hpp"
#include "topology/cluster.hpp"
#include "topology/faults.hpp"

namespace gf {

enum class NcclOnFailure { Abort, Resilient };

struct FailureResponse {
  NcclOnFailure nccl = NcclOnFailure::Abort;  // classic NCCL, or with InfiniBand resiliency
  int ib_timeout = 20;                        // NCCL_IB_TIMEOUT (NCCL >= 2.23 default)
  int retry_cnt = 7;                          // NCCL_IB_RETRY_CNT
  std::optional<Time> reconverge;             // the fabric's rerouting time, when the user knows it
  RoutingPolicy routing = RoutingPolicy::Ecmp;
  Time ack_timeout() const;  // 4.096 us x 2^ib_timeout
  Time give_up() const;      // retry_cnt x ack_timeout
};

struct TimelineEvent {
  Time at;
  std::string what;
};

struct FailureTimeline {
  std::string component;
  std::vector<TimelineEvent> events;
  enum class Outcome { Continues, Aborts } outcome = Outcome::Continues;
  Time stall;  // how long its transfers wait before running at the failed state (or until abort)
};

// The fabric's rerouting time around a failed link of `family` (the constants above).
Time reconvergence_time(LinkFamily family, RoutingPolicy routing);

// NCCL's InfiniBand resiliency: the delay before a failed port's connections move (500 ms).
Time resiliency_delay();

// The timeline of one applied fault on `c` (the cluster it was applied to).
FailureTimeline failure_timeline(const Cluster& c, const AppliedFault& f, const FailureResponse& r);

// "abort" | "resilient"; nullopt for anything else.
std::optional<NcclOnFailure> parse_nccl_on_failure(const std::string& s);

}  // namespace gf
