// A NewReno-style TCP sender and its receiver's cumulative ACKs, counted in packets (segments of
// one MTU) rather than bytes, for the packet model's lossy Ethernet fabrics. Pure state: the
// engine feeds ACKs, timeouts and the time, and asks what to send and when the timer is due.
//
//  - Slow start and congestion avoidance, RFC 5681 section 3.1: below ssthresh, cwnd += 1 per ACK
//    of new data; above it, cwnd += 1 each time a whole cwnd of packets has been ACKed (the byte-
//    counting form of cwnd += SMSS^2/cwnd). ssthresh starts unbounded.
//  - Fast retransmit and fast recovery, RFC 6582 (NewReno) section 3.2: the third duplicate ACK
//    (dupack_threshold) sets ssthresh = max(FlightSize/2, 2), resends the first unACKed packet,
//    sets cwnd = ssthresh + 3 and remembers `recover` (the highest packet sent); every further
//    duplicate inflates cwnd by 1; a partial ACK (below recover) resends the next hole and deflates
//    cwnd by the packets it ACKed, less 1; the full ACK ends recovery with cwnd = ssthresh.
//  - The retransmission timer, RFC 6298: on the first RTT sample R, SRTT = R, RTTVAR = R/2; then
//    RTTVAR = 3/4 RTTVAR + 1/4 |SRTT - R|, SRTT = 7/8 SRTT + 1/8 R (in that order);
//    RTO = max(min_rto, SRTT + 4 RTTVAR), at most max_rto. One packet is timed at a time, and
//    timing stops on any retransmission (Karn's algorithm). A timeout doubles RTO (section 5.5),
//    sets ssthresh = max(FlightSize/2, 2) and cwnd = 1 (RFC 5681 section 3.1) and resends from the
//    first unACKed packet (go-back-N).
#pragma once

#include <cstdint>
#include <vector>

#include "core/units.hpp"

namespace gf {

// NewReno-style sender: RFC 5681 (slow start, congestion avoidance), RFC 6582 (fast retransmit and
// fast recovery), RFC 6298 (retransmission timer).
struct TcpParams {
  int init_cwnd_packets = 10;        // RFC 6928's initial window of 10 segments
  // Minimum RTO: RFC 6298 (2.4) says 1 s for the Internet; datacenter stacks use ~1 ms or less
  // (Vasudevan et al., "Safe and Effective Fine-grained TCP Retransmissions for Datacenter
  // Communication", SIGCOMM 2009), which this model takes.
  Time min_rto = Time::ms(1);
  // RTO before the first RTT sample: RFC 6298 (2.1) says 1 s; the same datacenter setting as
  // min_rto, or a single lost first packet would cost a second.
  Time initial_rto = Time::ms(1);
  Time max_rto = Time::s(60);        // RFC 6298 (2.5): a maximum of at least 60 s
  int dupack_threshold = 3;          // RFC 5681 (3.2)
};

class TcpSender {
 public:
  // A flow of `total_packets` packets, numbered 0 .. total_packets - 1.
  TcpSender(const TcpParams& params, int64_t total_packets);

  // The packet to put on the wire now, or -1 when the window or the data allows none. A
  // retransmission goes first and ignores the window (RFC 5681 section 3.2).
  int64_t send(Time now);
  bool can_send() const;
  // A cumulative ACK: every packet below `next_expected` has arrived. An ACK that moves nothing
  // while packets are outstanding is a duplicate.
  void on_ack(int64_t next_expected, Time now);
  // The connection carries another message of `total_packets` once this one is done: a new
  // sequence space from 0, the congestion state (cwnd, ssthresh, SRTT, RTTVAR, RTO) carried over,
  // except that after an idle period longer than the RTO cwnd restarts from at most the initial
  // window (RFC 5681 section 4.1, "Restarting Idle Connections").
  void next_message(int64_t total_packets, Time now);
  // Fires the retransmission timer if it is due at `now`; false (and nothing changes) if not.
  bool on_timeout(Time now);
  Time timer_deadline() const { return deadline_; }  // Time::infinity() when not running

  bool done() const { return snd_una_ == total_; }
  int64_t cwnd() const { return cwnd_; }
  int64_t ssthresh() const { return ssthresh_; }
  bool in_recovery() const { return in_recovery_; }
  int64_t first_unacked() const { return snd_una_; }
  int64_t next_new() const { return snd_nxt_; }
  int64_t in_flight() const { return snd_nxt_ - snd_una_; }
  Time rto() const { return rto_; }
  Time srtt() const { return srtt_; }      // zero before the first sample
  Time rttvar() const { return rttvar_; }  // zero before the first sample
  int64_t retransmissions() const { return retransmits_; }
  int64_t timeouts() const { return timeouts_; }
  int64_t fast_retransmits() const { return fast_retransmits_; }

 private:
  void rtt_sample(Time r);
  void restart_timer(Time now) { deadline_ = now + rto_; }
  TcpParams p_;
  int64_t total_;
  int64_t snd_una_ = 0, snd_nxt_ = 0, high_sent_ = 0;  // high_sent_: one past the highest sent
  int64_t cwnd_, ssthresh_, ca_acked_ = 0;
  int64_t recover_ = -1;
  int dupacks_ = 0;
  bool in_recovery_ = false, retransmit_pending_ = false;
  int64_t timed_seq_ = -1;
  Time timed_at_ = Time::zero();
  Time last_send_ = Time::zero();
  bool has_sample_ = false;
  Time srtt_ = Time::zero(), rttvar_ = Time::zero(), rto_;
  Time deadline_ = Time::infinity();
  int64_t retransmits_ = 0, timeouts_ = 0, fast_retransmits_ = 0;
};

// The receiver's side: which packets arrived, as the cumulative ACK a TCP receiver sends for every
// packet (no delayed ACKs). Out-of-order packets are held in a ring of `window_packets` slots
// (allocated once); one beyond it is dropped as beyond the receive window.
class TcpReceiver {
 public:
  explicit TcpReceiver(int64_t window_packets);
  // Packet `seq` arrived; returns the cumulative ACK (the next packet expected).
  int64_t on_packet(int64_t seq);
  int64_t next_expected() const { return next_; }
  int64_t duplicates() const { return duplicates_; }
  int64_t beyond_window() const { return beyond_; }

 private:
  std::vector<uint8_t> ring_;
  int64_t next_ = 0, duplicates_ = 0, beyond_ = 0;
};

// One TCP connection as the packet engine drives it: the sender at the leg's source and the
// receiver at its destination. The receive window is the whole flow (no packet is ever beyond it),
// so only the sender's congestion window limits what is in flight.
struct TcpConnection {
  TcpConnection(const TcpParams& params, int64_t packets) : sender(params, packets), receiver(packets) {}
  // Another message on the same connection (TcpSender::next_message; a fresh receive window).
  void next_message(int64_t packets, Time now) {
    sender.next_message(packets, now);
    receiver = TcpReceiver(packets);
  }
  TcpSender sender;
  TcpReceiver receiver;
};

}  // namespace gf
