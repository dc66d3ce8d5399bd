// DCQCN reaction and notification points (Zhu et al., SIGCOMM 2015, section 3.1; the state
// machine is written out in dcqcn.hpp).
#include "model/packet/dcqcn.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace gf {

DcqcnReactionPoint::DcqcnReactionPoint(const DcqcnParams& params, Bandwidth line_rate)
    : p_(params),
      line_(line_rate.bytes_per_second()),
      min_(std::min(params.min_rate.bytes_per_second(), line_rate.bytes_per_second())),
      rc_(line_),
      rt_(line_),
      alpha_(params.initial_alpha) {
  // Zero periods or counters would loop forever in on_timer / on_bytes_sent; PacketParams::validate
  // rejects them as input, so reaching here with one is the caller's bug.
  if (p_.alpha_timer <= Time::zero() || p_.rate_timer <= Time::zero() || p_.byte_counter.count() <= 0)
    throw std::logic_error("DcqcnReactionPoint: timers and byte counter must be positive (call PacketParams::validate)");
}

double DcqcnReactionPoint::alpha(Time now) const {
  if (now <= alpha_since_) return alpha_;
  const int64_t periods = (now - alpha_since_).picoseconds() / p_.alpha_timer.picoseconds();
  return periods == 0 ? alpha_ : alpha_ * std::pow(1.0 - p_.g, static_cast<double>(periods));
}

void DcqcnReactionPoint::on_cnp(Time now) {
  const double a = alpha(now);
  rt_ = rc_;
  rc_ = std::max(rc_ * (1.0 - a / 2.0), min_);
  alpha_ = (1.0 - p_.g) * a + p_.g;
  alpha_since_ = now;
  t_count_ = bc_count_ = 0;
  bc_bytes_ = 0;
  next_timer_ = now + p_.rate_timer;
  ++cnps_;
}

void DcqcnReactionPoint::increase() {
  const int f = p_.fast_recovery_steps;
  if (std::max(t_count_, bc_count_) > f) {
    if (std::min(t_count_, bc_count_) > f)
      rt_ += (std::min(t_count_, bc_count_) - f) * p_.rate_hai.bytes_per_second();
    else
      rt_ += p_.rate_ai.bytes_per_second();
    rt_ = std::min(rt_, line_);
  }
  // Halving the gap reaches the target within ~60 steps in doubles; when rounding makes the
  // midpoint equal the current rate (round-half-to-even can), take the target itself.
  const double mid = (rt_ + rc_) / 2.0;
  rc_ = std::min(mid > rc_ ? mid : std::max(rc_, rt_), line_);
  // Back at line rate: the limiter is released and the timer stops.
  if (rc_ >= line_) {
    rc_ = rt_ = line_;
    next_timer_ = Time::infinity();
  }
}

void DcqcnReactionPoint::on_bytes_sent(Bytes bytes) {
  if (!limited()) return;
  bc_bytes_ += bytes.count();
  while (limited() && bc_bytes_ >= p_.byte_counter.count()) {
    bc_bytes_ -= p_.byte_counter.count();
    ++bc_count_;
    increase();
  }
}

void DcqcnReactionPoint::on_timer(Time now) {
  while (limited() && next_timer_ <= now) {
    next_timer_ += p_.rate_timer;
    ++t_count_;
    increase();  // may release the limiter, which sets next_timer_ to infinity
  }
}

bool DcqcnNotificationPoint::on_marked_packet(Time now) {
  if (sent_ > 0 && now - last_ < interval_) return false;
  last_ = now;
  ++sent_;
  return true;
}

}  // namespace gf
