// PFC on one ingress queue (pfc.hpp, IEEE 802.1Qbb): PAUSE when the queue rises above Xoff, RESUME
// when it falls to Xon, a headroom violation beyond Xoff + headroom, never a drop.
#include <gtest/gtest.h>

#include <stdexcept>

#include "model/packet/pfc.hpp"

using namespace gf;

TEST(PacketCcPfc, PauseResumeSequenceForATrace) {
  // Xoff 10,000 B, Xon 5,000 B, headroom 3,000 B; 1,000-byte packets.
  const PfcParams p{Bytes(10'000), Bytes(5'000), Bytes(3'000)};
  PfcQueue q(p);
  const Bytes pkt(1'000);
  // Arrivals 1..10 bring the queue to exactly 10,000 B = Xoff: not above it, no pause.
  for (int i = 1; i <= 10; ++i) {
    PfcArrival a = q.on_arrival(pkt);
    EXPECT_EQ(a.signal, PfcSignal::None) << "arrival " << i;
    EXPECT_FALSE(a.headroom_violation);
  }
  EXPECT_FALSE(q.paused());
  // Arrival 11: 11,000 > Xoff -> PAUSE upstream.
  EXPECT_EQ(q.on_arrival(pkt).signal, PfcSignal::Pause);
  EXPECT_TRUE(q.paused());
  // In-flight arrivals 12 and 13 land in the headroom (13,000 = Xoff + headroom: still inside),
  // and send no second PAUSE.
  EXPECT_EQ(q.on_arrival(pkt).signal, PfcSignal::None);
  PfcArrival a13 = q.on_arrival(pkt);
  EXPECT_EQ(a13.signal, PfcSignal::None);
  EXPECT_FALSE(a13.headroom_violation);
  // Arrival 14: 14,000 > 13,000 -> a violation, reported; the packet is still held (lossless).
  EXPECT_TRUE(q.on_arrival(pkt).headroom_violation);
  EXPECT_EQ(q.held(), Bytes(14'000));
  // Departures: 14,000 -> 6,000 after 8 of them, still above Xon 5,000; the 9th reaches 5,000
  // = Xon -> RESUME.
  for (int i = 1; i <= 8; ++i) EXPECT_EQ(q.on_departure(pkt), PfcSignal::None) << "departure " << i;
  EXPECT_EQ(q.on_departure(pkt), PfcSignal::Resume);
  EXPECT_FALSE(q.paused());
  // Hysteresis: back up to 6,000 B (between Xon and Xoff) pauses nothing.
  EXPECT_EQ(q.on_arrival(pkt).signal, PfcSignal::None);
  EXPECT_EQ(q.pauses_sent(), 1);
  EXPECT_EQ(q.resumes_sent(), 1);
  EXPECT_EQ(q.violations(), 1);
  EXPECT_EQ(q.peak(), Bytes(14'000));
}

TEST(PacketCcPfc, SecondEpisodePausesAgain) {
  // Xoff 2,000, Xon 1,000, 1,500-byte packets: 1,500 (none), 3,000 > 2,000 (PAUSE);
  // depart -> 1,500 (none), depart -> 0 <= 1,000 (RESUME); two arrivals -> PAUSE again.
  PfcQueue q(PfcParams{Bytes(2'000), Bytes(1'000), Bytes(4'000)});
  const Bytes pkt(1'500);
  EXPECT_EQ(q.on_arrival(pkt).signal, PfcSignal::None);
  EXPECT_EQ(q.on_arrival(pkt).signal, PfcSignal::Pause);
  EXPECT_EQ(q.on_departure(pkt), PfcSignal::None);
  EXPECT_EQ(q.on_departure(pkt), PfcSignal::Resume);
  EXPECT_EQ(q.on_arrival(pkt).signal, PfcSignal::None);
  EXPECT_EQ(q.on_arrival(pkt).signal, PfcSignal::Pause);
  EXPECT_EQ(q.pauses_sent(), 2);
  EXPECT_EQ(q.violations(), 0);
}

TEST(PacketCcPfc, DepartingMoreThanHeldIsAnEngineBug) {
  PfcQueue q(PfcParams{});
  q.on_arrival(Bytes(100));
  EXPECT_THROW(q.on_departure(Bytes(101)), std::logic_error);
}
