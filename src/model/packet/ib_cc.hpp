// InfiniBand congestion control's source side (InfiniBand Architecture Specification vol. 1,
// annex A10, the channel adapter's congestion control agent), per connection: the congestion
// control table index CCTI rises by ccti_increase on each BECN (capped at ccti_limit) and falls by
// one every ccti_timer (floored at ccti_min); the rate follows the table, here linear:
// line / (1 + CCTI x cct_step). The switch side (FECN marking at a root port above the threshold)
// lives in CongestionHooks::on_enqueue. A pure state machine: time is passed in, timers are
// evaluated lazily (every whole timer period since the last change counts once), so it needs no
// events of its own.
#pragma once

#include <cstdint>

#include "core/units.hpp"
#include "model/packet/packet_params.hpp"

namespace gf {

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
