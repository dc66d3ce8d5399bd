#include "workload/failure_timeline.hpp"

#include <fmt/format.h>

#include <cmath>

namespace gf {

namespace {

// Constants of the header's comment, each with its source there.
constexpr double kAckUnitUs = 4.096;        // InfiniBand's local ACK timeout unit
constexpr double kSubnetManagerS = 10;      // SM recompute at scale: the low end of 10-20 s
constexpr double kAdaptiveRerouteMs = 1;    // switch-local re-route: "sub-millisecond", taken as 1 ms
constexpr double kEthernetBfdMs = 300;      // BFD: 3 x 100 ms
constexpr double kSrdRerouteMs = 1;         // SRD's own resend on another path
constexpr double kResiliencyDelayMs = 500;  // NCCL IB resiliency's initial delay

std::string us_text(Time t) {
  const double s = t.to_s();
  if (s >= 1) return fmt::format("{:.3g} s", s);
  if (s >= 1e-3) return fmt::format("{:.3g} ms", s * 1e3);
  return fmt::format("{:.3g} us", s * 1e6);
}

// A whole server or an NVSwitch chip down (topology/whole_faults.hpp): no reroute brings its
// transfers back, and NCCL's communicator fails (NVIDIA/nccl issue #998).
FailureTimeline whole_timeline(const AppliedFault& f, const FailureResponse& r) {
  FailureTimeline t;
  t.component = f.component;
  t.outcome = FailureTimeline::Outcome::Aborts;
  if (f.scope == AppliedFault::Scope::Server) {
    const Time give_up = r.give_up();
    t.stall = give_up;
    t.events.push_back({Time::zero(), "server down: its GPUs stop, and every connection to them loses its packets "
                                      "and retries after its ACK timeout; no other NIC of the server is left, so "
                                      "InfiniBand resiliency cannot move them"});
    t.events.push_back({give_up, fmt::format("the transport gives up (NCCL_IB_RETRY_CNT={}) and NCCL aborts the "
                                             "communicator; the job restarts from its checkpoint on a spare server, or "
                                             "on the servers left (--without-failed-servers: the table's run)",
                                             r.retry_cnt)});
    return t;
  }
  t.events.push_back({Time::zero(), "NVSwitch chip down: a fatal NVLink error for the GPUs on it, which no transport "
                                    "retries; their kernels fail and NCCL's communicator with them, and the job "
                                    "restarts from its checkpoint. The table is the run after a restart with the "
                                    "chip's links out (whether the system's Fabric Manager allows that is not "
                                    "modelled)"});
  return t;
}

}  // namespace

Time FailureResponse::ack_timeout() const { return Time::us(kAckUnitUs * std::ldexp(1.0, ib_timeout)); }
Time resiliency_delay() { return Time::ms(kResiliencyDelayMs); }

Time FailureResponse::give_up() const { return ack_timeout() * retry_cnt; }

Time reconvergence_time(LinkFamily family, RoutingPolicy routing) {
  switch (family) {
    case LinkFamily::InfiniBand:
      return routing == RoutingPolicy::Adaptive ? Time::ms(kAdaptiveRerouteMs) : Time::s(kSubnetManagerS);
    case LinkFamily::Efa:
      return Time::ms(kSrdRerouteMs);
    default:
      return Time::ms(kEthernetBfdMs);
  }
}

std::optional<NcclOnFailure> parse_nccl_on_failure(const std::string& s) {
  if (s == "abort") return NcclOnFailure::Abort;
  if (s == "resilient") return NcclOnFailure::Resilient;
  return std::nullopt;
}

FailureTimeline failure_timeline(const Cluster& c, const AppliedFault& f, const FailureResponse& r) {
  FailureTimeline t;
  t.component = f.component;
  if (f.scope != AppliedFault::Scope::Links && f.down) return whole_timeline(f, r);
  bool down = false, nic = false;
  LinkFamily family = LinkFamily::InfiniBand;
  for (LinkId l : f.links) {
    down = down || c.is_down(l);
    const Link& link = c.link(l);
    family = c.catalog().tech(link.tech).family;
    for (NodeId n : {link.src, link.dst}) nic = nic || c.node(n).kind == NodeKind::Nic;
  }
  if (!down) {
    t.events.push_back({Time::zero(), "degraded: nothing stalls; the job runs at the failed state's time"});
    return t;
  }
  const Time ack = r.ack_timeout(), give_up = r.give_up();
  t.events.push_back({Time::zero(), fmt::format("down: transfers routed over it lose their packets and stall; each "
                                                "connection resends after its ACK timeout ({}, NCCL_IB_TIMEOUT={})",
                                                us_text(ack), r.ib_timeout)});
  if (nic) {
    if (r.nccl == NcclOnFailure::Resilient) {
      t.stall = Time::ms(kResiliencyDelayMs);
      t.events.push_back({t.stall,
                          "NCCL's InfiniBand resiliency moves the port's connections to another NIC; the "
                          "job continues at the failed state's time"});
      return t;
    }
    t.stall = give_up;
    t.outcome = FailureTimeline::Outcome::Aborts;
    t.events.push_back({give_up, fmt::format("a NIC on it has no other path: the transport gives up after "
                                             "NCCL_IB_RETRY_CNT={} retries and NCCL aborts the communicator; the job "
                                             "restarts from its checkpoint (--nccl-on-failure resilient: moves to "
                                             "another NIC instead)",
                                             r.retry_cnt)});
    return t;
  }
  const Time rc = r.reconverge.value_or(reconvergence_time(family, r.routing));
  t.events.push_back(
      {rc, fmt::format(
               "the fabric has rerouted around it ({}{})", r.reconverge ? "as given" : to_string(family),
               r.reconverge ? ""
               : family == LinkFamily::InfiniBand
                   ? (r.routing == RoutingPolicy::Adaptive ? ": switch-local adaptive re-route" : ": subnet manager")
                   : (family == LinkFamily::Efa ? ": SRD" : ": ECMP repair, BFD"))});
  // Retries fall at ack, 2 ack, ...: the first at or after the reroute carries on.
  const auto tries = static_cast<int64_t>(std::ceil(rc.to_s() / ack.to_s()));
  if (tries > r.retry_cnt) {
    t.stall = give_up;
    t.outcome = FailureTimeline::Outcome::Aborts;
    t.events.push_back({give_up, fmt::format("the transport gave up first (NCCL_IB_RETRY_CNT={}): NCCL aborts the "
                                             "communicator; the job restarts from its checkpoint",
                                             r.retry_cnt)});
    return t;
  }
  t.stall = ack * std::max<int64_t>(tries, 1);
  t.events.push_back({t.stall, fmt::format("retry {} succeeds on the new route: the job continues at the failed "
                                           "state's time",
                                           std::max<int64_t>(tries, 1))});
  return t;
}

}  // namespace gf
