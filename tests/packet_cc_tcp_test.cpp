// The NewReno sender and cumulative-ACK receiver (tcp.hpp): RFC 5681 slow start, RFC 6582 fast
// retransmit / fast recovery, RFC 6298 RTO. Windows count packets.
#include <gtest/gtest.h>

#include <vector>

#include "model/packet/tcp.hpp"

using namespace gf;

namespace {

// Every packet the window allows now.
std::vector<int64_t> send_all(TcpSender& s, Time now) {
  std::vector<int64_t> out;
  for (int64_t seq = s.send(now); seq >= 0; seq = s.send(now)) out.push_back(seq);
  return out;
}

}  // namespace

TEST(PacketCcTcp, SlowStartDoublesPerRound) {
  // cwnd starts at 10 (RFC 6928) and grows by one per ACK of new data while below ssthresh
  // (unbounded at first): each round's cwnd ACKs double it, 10 -> 20 -> 40 -> 80.
  TcpSender s(TcpParams{}, 1'000);
  int64_t acked = 0;
  for (int round = 1; round <= 3; ++round) {
    const int64_t cwnd = s.cwnd();
    const std::vector<int64_t> sent = send_all(s, Time::us(10 * round));
    ASSERT_EQ(static_cast<int64_t>(sent.size()), cwnd) << "round " << round;
    EXPECT_EQ(sent.front(), acked);  // packets go out in order
    for (size_t i = 0; i < sent.size(); ++i) s.on_ack(++acked, Time::us(10 * round + 5));
    EXPECT_EQ(s.cwnd(), 10 << round) << "round " << round;
  }
  EXPECT_EQ(s.retransmissions(), 0);
}

TEST(PacketCcTcp, ThreeDupacksHalveTheWindow) {
  // cwnd 20, packets 0..19 in flight, packet 0 lost. The receiver ACKs "0" for packets 1, 2, 3:
  // the third duplicate sets ssthresh = max(20/2, 2) = 10, resends packet 0, cwnd = 10 + 3 = 13.
  TcpParams p;
  p.init_cwnd_packets = 20;
  TcpSender s(p, 100);
  ASSERT_EQ(send_all(s, Time::zero()).size(), 20u);
  s.on_ack(0, Time::us(10));
  s.on_ack(0, Time::us(11));
  EXPECT_FALSE(s.in_recovery());
  s.on_ack(0, Time::us(12));
  EXPECT_TRUE(s.in_recovery());
  EXPECT_EQ(s.ssthresh(), 10);
  EXPECT_EQ(s.cwnd(), 13);
  EXPECT_EQ(s.send(Time::us(12)), 0);   // the fast retransmission, outside the window
  EXPECT_EQ(s.send(Time::us(12)), -1);  // 20 in flight >= cwnd 13
  // 16 more duplicates (packets 4..19) inflate cwnd to 29: 9 new packets 20..28 may go.
  for (int i = 0; i < 16; ++i) s.on_ack(0, Time::us(13));
  EXPECT_EQ(s.cwnd(), 29);
  const std::vector<int64_t> more = send_all(s, Time::us(13));
  ASSERT_EQ(more.size(), 9u);
  EXPECT_EQ(more.front(), 20);
  // The resent packet 0 arrives: the receiver now holds 0..19, ACK 20 > recover = 19, a full ACK:
  // recovery ends with cwnd = ssthresh = 10, half the 20 it had.
  s.on_ack(20, Time::us(20));
  EXPECT_FALSE(s.in_recovery());
  EXPECT_EQ(s.cwnd(), 10);
  EXPECT_EQ(s.fast_retransmits(), 1);
  EXPECT_EQ(s.retransmissions(), 1);
}

TEST(PacketCcTcp, PartialAckResendsTheNextHole) {
  // cwnd 10, packets 0..9, 0 and 5 lost; 8 duplicates of ACK 0 (packets 1-4, 6-9).
  // 3rd duplicate: ssthresh = 5, cwnd = 8, resend 0, recover = 9; 5 more: cwnd = 13, so 3 new
  // packets 10, 11, 12 go (flight 10 -> 13).
  TcpSender s(TcpParams{}, 100);
  ASSERT_EQ(send_all(s, Time::zero()).size(), 10u);
  for (int i = 0; i < 8; ++i) s.on_ack(0, Time::us(10));
  EXPECT_EQ(s.cwnd(), 13);
  EXPECT_EQ(s.send(Time::us(10)), 0);
  EXPECT_EQ(send_all(s, Time::us(10)), (std::vector<int64_t>{10, 11, 12}));
  // Packet 0 arrives: ACK 5 is partial (5 <= recover 9): resend 5, deflate cwnd by the 5 packets
  // ACKed and add 1 back: 13 - 5 + 1 = 9.
  s.on_ack(5, Time::us(20));
  EXPECT_TRUE(s.in_recovery());
  EXPECT_EQ(s.cwnd(), 9);
  EXPECT_EQ(s.send(Time::us(20)), 5);
  // Packet 5 arrives with 6..12 already there: ACK 13 > 9 ends recovery, cwnd = ssthresh = 5.
  s.on_ack(13, Time::us(30));
  EXPECT_FALSE(s.in_recovery());
  EXPECT_EQ(s.cwnd(), 5);
  EXPECT_EQ(s.retransmissions(), 2);
  EXPECT_EQ(s.fast_retransmits(), 1);
}

TEST(PacketCcTcp, CongestionAvoidanceAddsOnePerWindow) {
  // After the recovery above cwnd = ssthresh = 10 (from 20): congestion avoidance adds 1 only when
  // a whole window (10 packets) is ACKed: 9 ACKs leave it at 10, the 10th makes it 11.
  TcpParams p;
  p.init_cwnd_packets = 20;
  TcpSender s(p, 1'000);
  send_all(s, Time::zero());
  for (int i = 0; i < 3; ++i) s.on_ack(0, Time::us(1));
  s.send(Time::us(1));
  s.on_ack(20, Time::us(2));
  ASSERT_EQ(s.cwnd(), 10);
  send_all(s, Time::us(2));  // packets 20..29
  for (int64_t a = 21; a <= 29; ++a) s.on_ack(a, Time::us(3));
  EXPECT_EQ(s.cwnd(), 10);
  s.on_ack(30, Time::us(3));
  EXPECT_EQ(s.cwnd(), 11);
}

TEST(PacketCcTcp, SrttAndRttvarFollowRfc6298) {
  // min_rto 1 us so the clamp stays out of the way. Sample 1: R = 100 us -> SRTT = 100,
  // RTTVAR = 50, RTO = 100 + 4 x 50 = 300 us. Sample 2: R = 200 us -> RTTVAR = 3/4 x 50 +
  // 1/4 x |100 - 200| = 62.5, SRTT = 7/8 x 100 + 1/8 x 200 = 112.5, RTO = 112.5 + 250 = 362.5 us.
  TcpParams p;
  p.min_rto = Time::us(1);
  TcpSender s(p, 3);
  EXPECT_EQ(s.rto(), p.initial_rto);  // before any sample
  EXPECT_EQ(s.send(Time::zero()), 0);
  s.on_ack(1, Time::us(100));
  EXPECT_EQ(s.srtt(), Time::us(100));
  EXPECT_EQ(s.rttvar(), Time::us(50));
  EXPECT_EQ(s.rto(), Time::us(300));
  EXPECT_EQ(s.send(Time::us(100)), 1);
  s.on_ack(2, Time::us(300));
  EXPECT_EQ(s.rttvar(), Time::ns(62'500));
  EXPECT_EQ(s.srtt(), Time::ns(112'500));
  EXPECT_EQ(s.rto(), Time::ns(362'500));
  // The default minimum (1 ms) would clamp the same samples: RTO = max(1 ms, 300 us) = 1 ms.
  TcpSender d(TcpParams{}, 2);
  d.send(Time::zero());
  d.on_ack(1, Time::us(100));
  EXPECT_EQ(d.rto(), Time::ms(1));
}

TEST(PacketCcTcp, TimeoutsDoubleTheRtoUpToTheMaximum) {
  // initial RTO 1 ms, max 5 ms. Packet 0 sent at 0: timer due at 1 ms. Each timeout doubles the
  // RTO and restarts the timer: 1 ms fires -> RTO 2, due 3; 3 fires -> RTO 4, due 7;
  // 7 fires -> RTO min(8, 5) = 5, due 12.
  TcpParams p;
  p.max_rto = Time::ms(5);
  TcpSender s(p, 5);
  EXPECT_EQ(s.timer_deadline(), Time::infinity());
  EXPECT_EQ(send_all(s, Time::zero()).size(), 5u);
  EXPECT_EQ(s.timer_deadline(), Time::ms(1));
  EXPECT_FALSE(s.on_timeout(Time::us(500)));  // early: nothing happens
  EXPECT_TRUE(s.on_timeout(Time::ms(1)));
  EXPECT_EQ(s.rto(), Time::ms(2));
  EXPECT_EQ(s.timer_deadline(), Time::ms(3));
  // RFC 5681: ssthresh = max(5 in flight / 2, 2) = 2, cwnd = 1; go-back-N resends packet 0 only.
  EXPECT_EQ(s.ssthresh(), 2);
  EXPECT_EQ(s.cwnd(), 1);
  EXPECT_EQ(send_all(s, Time::ms(1)), (std::vector<int64_t>{0}));
  EXPECT_TRUE(s.on_timeout(Time::ms(3)));
  EXPECT_EQ(s.rto(), Time::ms(4));
  EXPECT_EQ(s.timer_deadline(), Time::ms(7));
  EXPECT_TRUE(s.on_timeout(Time::ms(7)));
  EXPECT_EQ(s.rto(), Time::ms(5));
  EXPECT_EQ(s.timer_deadline(), Time::ms(12));
  EXPECT_EQ(s.timeouts(), 3);
  // All five ACKed at once: the timer stops and the flow is done.
  s.send(Time::ms(7));
  s.on_ack(5, Time::ms(8));
  EXPECT_TRUE(s.done());
  EXPECT_EQ(s.timer_deadline(), Time::infinity());
}

TEST(PacketCcTcp, ReceiverAcksCumulatively) {
  // Window of 4 slots: 1, 2 arrive first (ACK stays 0), then 0 fills the hole (ACK 3), then 3
  // (ACK 4); 2 again is a duplicate; 9 >= 4 + 4 lies beyond the window.
  TcpReceiver r(4);
  EXPECT_EQ(r.on_packet(1), 0);
  EXPECT_EQ(r.on_packet(2), 0);
  EXPECT_EQ(r.on_packet(0), 3);
  EXPECT_EQ(r.on_packet(3), 4);
  EXPECT_EQ(r.on_packet(2), 4);
  EXPECT_EQ(r.on_packet(9), 4);
  EXPECT_EQ(r.duplicates(), 1);
  EXPECT_EQ(r.beyond_window(), 1);
  // The ring wraps: 4..7 reuse slots 0..3.
  for (int64_t q = 7; q >= 4; --q) r.on_packet(q);
  EXPECT_EQ(r.next_expected(), 8);
}

TEST(PacketCcTcp, ANextMessageKeepsTheWindowUnlessIdleLongerThanTheRto) {
  // Initial window 10, RTO 1 ms (min and initial). Message 1 of 4 packets, sent at 0 and ACKed
  // one by one in slow start: cwnd 10 + 4 = 14. A next message 0.5 ms after the last send (less
  // than the RTO) keeps cwnd 14 and numbers its packets from 0 again: 14 go out at once.
  TcpParams p;
  TcpSender s(p, 4);
  EXPECT_EQ(send_all(s, Time::zero()).size(), 4u);
  for (int64_t a = 1; a <= 4; ++a) s.on_ack(a, Time::us(10));
  EXPECT_TRUE(s.done());
  EXPECT_EQ(s.cwnd(), 14);
  s.next_message(20, Time::us(500));
  EXPECT_FALSE(s.done());
  EXPECT_EQ(s.first_unacked(), 0);
  EXPECT_EQ(s.timer_deadline(), Time::infinity());
  const std::vector<int64_t> sent = send_all(s, Time::us(500));
  ASSERT_EQ(sent.size(), 14u);
  EXPECT_EQ(sent.front(), 0);
  EXPECT_EQ(sent.back(), 13);
  EXPECT_EQ(s.retransmissions(), 0);  // packet numbers below the old message's are new data
  // All 20 ACKed (6 more sent as the window slides), cwnd 14 + 20 = 34; the next message comes
  // 2 ms after the last send, beyond the 1 ms RTO: RFC 5681 4.1 restarts cwnd at 10.
  for (int64_t a = 1; a <= 20; ++a) {
    s.on_ack(a, Time::us(600));
    send_all(s, Time::us(600));
  }
  EXPECT_TRUE(s.done());
  EXPECT_EQ(s.cwnd(), 34);
  s.next_message(5, Time::us(2600));
  EXPECT_EQ(s.cwnd(), 10);
}

TEST(PacketCcTcp, ANextMessageBeforeTheLastIsAckedIsAnEngineBug) {
  TcpSender s(TcpParams{}, 3);
  send_all(s, Time::zero());
  EXPECT_THROW(s.next_message(3, Time::us(1)), std::logic_error);
}
