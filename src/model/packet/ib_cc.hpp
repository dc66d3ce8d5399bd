// InfiniBand congestion control's source side (InfiniBand Architecture Specification vol. 1,
// annex A10, the channel adapter's congestion control agent), per connection: the congestion
// control table index CCTI rises by ccti_increase on each BECN (capped at ccti_limit) and falls by
// one every ccti_timer (floored at ccti_min); the rate follows the table, here linear:
// line / (1 + CCTI x cct_step). The switch side (FECN marking at a root port above the threshold)
// lives in cc_ibcc.cpp. A pure state machine: time is passed in, timers are
// evaluated lazily (every whole timer period since the last change counts once), so it needs no
// events of its own.
#pragma once

#include <cstdint>

#include "core/units.hpp"

namespace gf {

// InfiniBand congestion control (InfiniBand Architecture Specification vol. 1, annex A10; the
// fields are its SwitchCongestionSetting, CACongestionSetting and CongestionControlTable). A
// switch port whose egress queue is above `threshold` marks FECN on the packets it queues, but
// only while it is a root of congestion: a port that holds packets it cannot send for lack of
// credits is a victim (the spec's Victim_Mask off) and does not mark. The destination returns a
// BECN for every FECN; the source raises its congestion control table index CCTI by
// `ccti_increase` per BECN, up to `ccti_limit`, and lowers it by one every `ccti_timer`, down to
// `ccti_min`. The table maps CCTI to an inter-packet delay; here it is linear, i x `cct_step` of
// the packet's own serialization time, so the source sends at line / (1 + i x cct_step).
// The values are estimates (the spec leaves them to the subnet manager; OpenSM ships congestion
// control off): a threshold well below the 512 KiB port buffer, one step per BECN as OpenSM's
// examples use, a 10 us timer (a few round trips), and a table that reaches line / 64.9
// (1 + 511 x 0.125), so that up to ~64 connections into one port can be held to their share; the
// first table stopped at line / 16.9 and could not throttle the 16 connections of an 8 -> 1
// sendrecv incast, whose congestion tree then never drained (docs/models.md).
struct IbCcParams {
  Bytes threshold = Bytes::kib(64);
  int ccti_increase = 1;
  int ccti_limit = 511;
  int ccti_min = 0;
  Time ccti_timer = Time::us(10);
  double cct_step = 0.125;
  // Packets a marking port lets pass unmarked between two FECN marks (the spec's Marking_Rate;
  // 0 marks every packet queued above the threshold).
  int marking_rate = 0;
};

class IbCcReactionPoint {
 public:
  IbCcReactionPoint(const IbCcParams& params, double line_rate_bytes_per_s);

  void on_becn(Time now);
  // Applies the timer decrements due by `now`.
  void on_timer(Time now);
  int ccti() const { return ccti_; }
  // Bytes per second the source may send at; line rate at CCTI 0.
  double rate() const;
  bool limited() const { return ccti_ > 0; }
  int64_t becns() const { return becns_; }

 private:
  IbCcParams p_;
  double line_;
  int ccti_;
  Time since_ = Time::zero();  // start of the current timer period
  int64_t becns_ = 0;
};

}  // namespace gf
