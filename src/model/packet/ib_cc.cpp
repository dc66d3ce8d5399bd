#include "model/packet/ib_cc.hpp"

#include <algorithm>

namespace gf {

IbCcReactionPoint::IbCcReactionPoint(const IbCcParams& params, double line_rate_bytes_per_s)
    : p_(params), line_(line_rate_bytes_per_s), ccti_(params.ccti_min) {}

void IbCcReactionPoint::on_timer(Time now) {
  if (now <= since_) return;
  const int64_t periods = (now - since_).picoseconds() / p_.ccti_timer.picoseconds();
  if (periods <= 0) return;
  ccti_ = static_cast<int>(std::max<int64_t>(p_.ccti_min, ccti_ - periods));
  since_ = since_ + Time::ps(periods * p_.ccti_timer.picoseconds());
}

void IbCcReactionPoint::on_becn(Time now) {
  on_timer(now);
  // Modelling choice: the timer period restarts at each BECN, so the index only falls once the
  // signals stop for a whole period.
  ccti_ = std::min(p_.ccti_limit, ccti_ + p_.ccti_increase);
  since_ = now;
  ++becns_;
}

double IbCcReactionPoint::rate() const { return line_ / (1.0 + ccti_ * p_.cct_step); }

}  // namespace gf
