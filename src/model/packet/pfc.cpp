// IEEE 802.1Qbb ingress-queue PFC state (see pfc.hpp).
#include "model/packet/pfc.hpp"

#include <stdexcept>

namespace gf {

PfcArrival PfcQueue::on_arrival(Bytes bytes) {
  PfcArrival out;
  held_ += bytes.count();
  if (held_ > peak_) peak_ = held_;
  if (!paused_ && held_ > p_.xoff.count()) {
    paused_ = true;
    ++pauses_;
    out.signal = PfcSignal::Pause;
  }
  if (held_ > (p_.xoff + p_.headroom).count()) {
    out.headroom_violation = true;
    ++violations_;
  }
  return out;
}

PfcSignal PfcQueue::on_departure(Bytes bytes) {
  if (bytes.count() > held_)
    throw std::logic_error("PfcQueue: " + std::to_string(bytes.count()) + " bytes left an ingress queue holding " +
                           std::to_string(held_));
  held_ -= bytes.count();
  if (paused_ && held_ <= p_.xon.count()) {
    paused_ = false;
    ++resumes_;
    return PfcSignal::Resume;
  }
  return PfcSignal::None;
}

}  // namespace gf
