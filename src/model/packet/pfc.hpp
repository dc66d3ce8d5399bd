// Priority flow control state of one ingress queue (IEEE 802.1Qbb): the bytes that arrived over
// one link and are still buffered at the receiving switch. Crossing Xoff upward asks the engine to
// send PAUSE upstream; falling to Xon or below asks it to send RESUME (a pause with zero quanta,
// how 802.1Qbb ends a pause early). Bytes keep arriving after PAUSE leaves (the frame's flight,
// the sender finishing its current packet): the headroom above Xoff absorbs them. A packet that
// lands beyond Xoff + headroom is a headroom violation: a lossless fabric must never drop it, so
// the queue accepts it and reports it (the engine counts it; a run with violations says its
// headroom is undersized).
//
// Pauses are modelled as on/off (XOFF until XON), not as 802.1Qbb's timed quanta that the sender
// refreshes: switches re-send PAUSE before the quanta expire while the queue stays above Xon, so
// the two agree whenever the thresholds drive the state, which is the case here.
#pragma once

#include <cstdint>

#include "core/units.hpp"
#include "model/packet/packet_params.hpp"

namespace gf {

enum class PfcSignal : uint8_t { None, Pause, Resume };

struct PfcArrival {
  PfcSignal signal = PfcSignal::None;  // Pause when this arrival crossed Xoff
  bool headroom_violation = false;     // the queue now holds more than Xoff + headroom
};

class PfcQueue {
 public:
  explicit PfcQueue(const PfcParams& params) : p_(params) {}

  // A packet of `bytes` (its wire size) arrived and is buffered.
  PfcArrival on_arrival(Bytes bytes);
  // A packet of `bytes` left the buffer (forwarded downstream). Leaving more than is held is the
  // engine's bug: std::logic_error.
  PfcSignal on_departure(Bytes bytes);

  Bytes held() const { return Bytes(held_); }
  bool paused() const { return paused_; }       // a PAUSE is in force upstream
  int64_t pauses_sent() const { return pauses_; }
  int64_t resumes_sent() const { return resumes_; }
  int64_t violations() const { return violations_; }
  Bytes peak() const { return Bytes(peak_); }   // the most bytes ever held

 private:
  PfcParams p_;
  int64_t held_ = 0, peak_ = 0;
  int64_t pauses_ = 0, resumes_ = 0, violations_ = 0;
  bool paused_ = false;
};

}  // namespace gf
