// DCQCN's end points, per Zhu et al., "Congestion Control for Large-Scale RDMA Deployments",
// SIGCOMM 2015, section 3.1 (the switch side, ECN marking, is ecn_marker.hpp). Pure state
// machines: the engine passes time in and asks when the next timer is due; neither knows queues or
// events.
//
// Reaction point (the sending NIC, one per flow), current rate R_C, target rate R_T, alpha:
//   on CNP:      R_T = R_C;  R_C = R_C (1 - alpha/2);  alpha = (1 - g) alpha + g;
//                the rate timer, the byte counter and both stage counts restart.
//   no CNP for a whole alpha period (55 us): alpha = (1 - g) alpha. Computed when needed as
//                alpha x (1 - g)^k, k = whole periods since the last CNP: it needs no event.
//   increase events: the rate timer fires every T (T count += 1) and the byte counter every B
//                bytes sent (BC count += 1); after each, with F = fast_recovery_steps:
//                max(T, BC) <= F: fast recovery    R_C = (R_T + R_C) / 2
//                min(T, BC) >  F: hyper increase   R_T += i R_HAI, i = min(T, BC) - F;  R_C = (R_T + R_C) / 2
//                otherwise:       additive increase R_T += R_AI;  R_C = (R_T + R_C) / 2
//   R_T and R_C never exceed the line rate; R_C never falls below the minimum rate. Once R_C is
//   back at line rate the flow is unlimited and its timer stops (next_timer() is infinity).
//
// Notification point (the receiving NIC, one per flow): a CNP for a marked packet only when none
// was sent for the flow in the last cnp_interval (50 us).
#pragma once

#include <cstdint>

#include "core/units.hpp"

namespace gf {

// The DCQCN reaction and notification points. Zhu et al., "Congestion Control for Large-Scale RDMA
// Deployments", SIGCOMM 2015, section 5's parameters unless marked.
struct DcqcnParams {
  double g = 1.0 / 256;                          // alpha gain
  double initial_alpha = 1.0;                    // alpha before the first CNP (paper: 1)
  Time alpha_timer = Time::us(55);               // alpha decays by (1-g) per period without CNP
  Time rate_timer = Time::us(55);                // rate increase timer T
  Bytes byte_counter = Bytes::mib(10);           // rate increase every B bytes sent (10 MB)
  int fast_recovery_steps = 5;                   // F
  Bandwidth rate_ai = Bandwidth::gbps(0.04);     // additive increase R_AI, 40 Mb/s
  // Hyper increase R_HAI: an estimate, 10 x R_AI, the ratio of NVIDIA ConnectX's rpg_ai_rate and
  // rpg_hai_rate defaults (5 and 50 Mb/s).
  Bandwidth rate_hai = Bandwidth::gbps(0.4);
  Time cnp_interval = Time::us(50);              // NP: at most one CNP per flow per interval (0: every mark)
  // Floor of the current rate: an estimate, 100 Mb/s, as htsim's DCQCN source floors it.
  Bandwidth min_rate = Bandwidth::gbps(0.1);
};

class DcqcnReactionPoint {
 public:
  DcqcnReactionPoint(const DcqcnParams& params, Bandwidth line_rate);

  Bandwidth rate() const { return Bandwidth::bytes_per_s(rc_); }    // R_C: what the NIC may send at
  Bandwidth target() const { return Bandwidth::bytes_per_s(rt_); }  // R_T
  double alpha(Time now) const;  // alpha, decayed for the whole alpha periods up to `now`
  bool limited() const { return next_timer_ != Time::infinity(); }
  int timer_stage() const { return t_count_; }  // T: rate-timer events since the last CNP
  int byte_stage() const { return bc_count_; }  // BC: byte-counter events since the last CNP
  int64_t cnps() const { return cnps_; }

  void on_cnp(Time now);
  // Bytes the flow put on the wire; may fire byte-counter increase events.
  void on_bytes_sent(Bytes bytes);
  // Runs every rate-timer event due at or before `now`, in order; early or repeated calls are harmless.
  void on_timer(Time now);
  // When the rate timer next fires; Time::infinity() while the flow is unlimited.
  Time next_timer() const { return next_timer_; }

 private:
  void increase();
  DcqcnParams p_;
  double line_, min_;           // bytes/s
  double rc_, rt_;              // bytes/s
  double alpha_;                // alpha at alpha_since_
  Time alpha_since_ = Time::zero();
  Time next_timer_ = Time::infinity();
  int64_t bc_bytes_ = 0;        // bytes toward the next byte-counter event
  int t_count_ = 0, bc_count_ = 0;
  int64_t cnps_ = 0;
};

class DcqcnNotificationPoint {
 public:
  explicit DcqcnNotificationPoint(Time cnp_interval) : interval_(cnp_interval) {}
  // A packet marked Congestion Experienced arrived for this flow: true when a CNP goes back now.
  bool on_marked_packet(Time now);
  int64_t cnps_sent() const { return sent_; }

 private:
  Time interval_;
  Time last_ = Time::zero();
  int64_t sent_ = 0;
};

}  // namespace gf
