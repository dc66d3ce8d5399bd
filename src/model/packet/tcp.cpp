// NewReno sender and cumulative-ACK receiver (RFC 5681, RFC 6582, RFC 6298; see tcp.hpp).
#include "model/packet/tcp.hpp"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <stdexcept>
#include <string>

namespace gf {

TcpSender::TcpSender(const TcpParams& params, int64_t total_packets)
    : p_(params),
      total_(total_packets),
      cwnd_(params.init_cwnd_packets),
      // RFC 5681 section 3.1: the initial ssthresh SHOULD be set arbitrarily high.
      ssthresh_(std::numeric_limits<int64_t>::max()),
      rto_(params.initial_rto) {
  if (total_packets < 0) throw std::logic_error("TcpSender: a negative packet count");
}

bool TcpSender::can_send() const {
  return retransmit_pending_ || (snd_nxt_ < total_ && snd_nxt_ - snd_una_ < cwnd_);
}

int64_t TcpSender::send(Time now) {
  int64_t seq;
  if (retransmit_pending_) {
    retransmit_pending_ = false;
    seq = snd_una_;
  } else if (snd_nxt_ < total_ && snd_nxt_ - snd_una_ < cwnd_) {
    seq = snd_nxt_++;
  } else {
    return -1;
  }
  if (seq < high_sent_) {
    ++retransmits_;
    timed_seq_ = -1;  // Karn: no sample while a retransmission may be what gets ACKed
  } else {
    high_sent_ = seq + 1;
    if (timed_seq_ < 0) timed_seq_ = seq, timed_at_ = now;
  }
  if (deadline_ == Time::infinity()) restart_timer(now);  // RFC 6298 (5.1)
  last_send_ = now;
  return seq;
}

void TcpSender::rtt_sample(Time r) {
  if (!has_sample_) {  // RFC 6298 (2.2)
    srtt_ = r;
    rttvar_ = Time::ps(r.picoseconds() / 2);
    has_sample_ = true;
  } else {  // RFC 6298 (2.3): RTTVAR first, with the old SRTT
    const int64_t diff = std::abs(srtt_.picoseconds() - r.picoseconds());
    rttvar_ = Time::ps((3 * rttvar_.picoseconds() + diff) / 4);
    srtt_ = Time::ps((7 * srtt_.picoseconds() + r.picoseconds()) / 8);
  }
  // RFC 6298 (2.4), K = 4; the clock granularity G (1 ps) is negligible.
  rto_ = std::min(std::max(p_.min_rto, srtt_ + rttvar_ * 4), p_.max_rto);
}

void TcpSender::on_ack(int64_t ack, Time now) {
  if (ack > high_sent_)
    throw std::logic_error("TcpSender: ACK " + std::to_string(ack) + " for packets never sent (highest " +
                           std::to_string(high_sent_ - 1) + ")");
  if (ack > snd_una_) {
    const int64_t newly = ack - snd_una_;
    snd_una_ = ack;
    snd_nxt_ = std::max(snd_nxt_, snd_una_);
    if (timed_seq_ >= 0 && ack > timed_seq_) {
      rtt_sample(now - timed_at_);
      timed_seq_ = -1;
    }
    if (in_recovery_) {
      if (ack > recover_) {  // full ACK: RFC 6582 3.2 step 3, option (2)
        cwnd_ = ssthresh_;
        in_recovery_ = false;
        retransmit_pending_ = false;  // a partial ACK's resend not yet sent: the hole is filled
        dupacks_ = 0;
        ca_acked_ = 0;
      } else {  // partial ACK: resend the next hole, deflate (RFC 6582 3.2 step 5)
        retransmit_pending_ = true;
        cwnd_ = std::max<int64_t>(cwnd_ - newly + 1, 1);
      }
    } else {
      dupacks_ = 0;
      if (cwnd_ < ssthresh_) {
        cwnd_ += 1;  // slow start: RFC 5681 (2), min(N, SMSS) = one packet per ACK
      } else {
        ca_acked_ += newly;  // congestion avoidance, byte counting: +1 per cwnd ACKed
        if (ca_acked_ >= cwnd_) ca_acked_ -= cwnd_, cwnd_ += 1;
      }
    }
    // RFC 6298 (5.2) and (5.3): off when nothing is outstanding, else restarted.
    if (snd_una_ >= high_sent_) deadline_ = Time::infinity();
    else restart_timer(now);
    return;
  }
  if (ack < snd_una_ || snd_una_ >= high_sent_) return;  // stale, or nothing outstanding
  ++dupacks_;
  if (in_recovery_) {
    cwnd_ += 1;  // RFC 6582 3.2 step 4: each further duplicate means one packet left the network
  } else if (dupacks_ == p_.dupack_threshold && ack > recover_) {
    // RFC 6582 3.2 step 2 (ack > recover avoids a second fast retransmit for one loss episode).
    const int64_t flight = snd_nxt_ - snd_una_;
    ssthresh_ = std::max<int64_t>(flight / 2, 2);  // RFC 5681 (4)
    recover_ = high_sent_ - 1;
    retransmit_pending_ = true;
    cwnd_ = ssthresh_ + p_.dupack_threshold;
    in_recovery_ = true;
    ++fast_retransmits_;
  }
}

void TcpSender::next_message(int64_t total_packets, Time now) {
  if (!done()) throw std::logic_error("TcpSender: a new message before the last one was acknowledged");
  if (total_packets < 0) throw std::logic_error("TcpSender: a negative packet count");
  if (now - last_send_ > rto_) cwnd_ = std::min<int64_t>(cwnd_, p_.init_cwnd_packets);  // RFC 5681 4.1
  total_ = total_packets;
  snd_una_ = snd_nxt_ = high_sent_ = 0;
  ca_acked_ = 0;
  recover_ = -1;
  dupacks_ = 0;
  in_recovery_ = retransmit_pending_ = false;
  timed_seq_ = -1;
  deadline_ = Time::infinity();
}

bool TcpSender::on_timeout(Time now) {
  if (deadline_ == Time::infinity() || now < deadline_) return false;
  const int64_t flight = snd_nxt_ - snd_una_;
  ssthresh_ = std::max<int64_t>(flight / 2, 2);  // RFC 5681 (4)
  cwnd_ = 1;                                     // RFC 5681: the loss window is one segment
  ca_acked_ = 0;
  rto_ = std::min(rto_ * 2, p_.max_rto);         // RFC 6298 (5.5)
  recover_ = high_sent_ - 1;                     // RFC 6582 3.2 step 1 after a timeout
  snd_nxt_ = snd_una_;                           // go-back-N from the first unACKed packet
  in_recovery_ = false;
  retransmit_pending_ = false;
  dupacks_ = 0;
  timed_seq_ = -1;
  ++timeouts_;
  restart_timer(now);  // RFC 6298 (5.6)
  return true;
}

TcpReceiver::TcpReceiver(int64_t window_packets) : ring_(static_cast<size_t>(std::max<int64_t>(window_packets, 1)), 0) {}

int64_t TcpReceiver::on_packet(int64_t seq) {
  const int64_t cap = static_cast<int64_t>(ring_.size());
  if (seq < next_) {
    ++duplicates_;
  } else if (seq >= next_ + cap) {
    ++beyond_;
  } else if (ring_[static_cast<size_t>(seq % cap)]) {
    ++duplicates_;
  } else {
    ring_[static_cast<size_t>(seq % cap)] = 1;
    while (ring_[static_cast<size_t>(next_ % cap)]) {
      ring_[static_cast<size_t>(next_ % cap)] = 0;
      ++next_;
    }
  }
  return next_;
}

}  // namespace gf
