// InfiniBand congestion control's source side (model/packet/ib_cc.hpp): the table index CCTI and
// the rate it gives, derived by hand from the parameters. Line rate 100 Gb/s = 12.5e9 B/s, the
// default table step 0.125, so CCTI i gives 12.5e9 / (1 + i / 8) B/s; the timer is 10 us. The
// switch side's marking spacing is at the end.
#include <gtest/gtest.h>

#include <vector>

#include "model/packet/congestion_hooks.hpp"
#include "model/packet/ib_cc.hpp"

using namespace gf;

namespace {
constexpr double kLine = 12.5e9;
}  // namespace

TEST(PacketCcIbCc, StartsAtLineRateAndEachBecnRaisesTheIndex) {
  IbCcReactionPoint rp(IbCcParams{}, kLine);
  EXPECT_FALSE(rp.limited());
  EXPECT_DOUBLE_EQ(rp.rate(), kLine);
  rp.on_becn(Time::zero());
  EXPECT_EQ(rp.ccti(), 1);
  EXPECT_DOUBLE_EQ(rp.rate(), kLine / 1.125);
  for (int i = 0; i < 7; ++i) rp.on_becn(Time::zero());
  EXPECT_EQ(rp.ccti(), 8);
  EXPECT_DOUBLE_EQ(rp.rate(), kLine / 2);  // 1 + 8 x 0.125 = 2
  EXPECT_EQ(rp.becns(), 8);
}

TEST(PacketCcIbCc, TheIndexStopsAtItsLimitAndMinimum) {
  IbCcParams p;
  p.ccti_increase = 5;
  p.ccti_limit = 12;
  p.ccti_min = 2;
  IbCcReactionPoint rp(p, kLine);
  EXPECT_EQ(rp.ccti(), 2);  // a source starts at the minimum
  rp.on_becn(Time::zero());
  EXPECT_EQ(rp.ccti(), 7);
  rp.on_becn(Time::zero());
  EXPECT_EQ(rp.ccti(), 12);
  rp.on_becn(Time::zero());
  EXPECT_EQ(rp.ccti(), 12);  // 17 capped at the limit
  rp.on_timer(Time::ms(1));  // 100 periods of 10 us would take it to -88: floored at 2
  EXPECT_EQ(rp.ccti(), 2);
}

TEST(PacketCcIbCc, OneStepDownPerWholeTimerPeriodCountedFromTheLastBecn) {
  IbCcReactionPoint rp(IbCcParams{}, kLine);
  for (int i = 0; i < 4; ++i) rp.on_becn(Time::us(3));  // CCTI 4, period restarts at 3 us
  rp.on_timer(Time::us(12));
  EXPECT_EQ(rp.ccti(), 4);  // 9 us: no whole period yet
  rp.on_timer(Time::us(13));
  EXPECT_EQ(rp.ccti(), 3);  // 10 us after the BECN
  rp.on_timer(Time::us(32));
  EXPECT_EQ(rp.ccti(), 2);  // 29 us: two whole periods in all
  rp.on_becn(Time::us(40));  // 37 us: three periods (CCTI 1), then the BECN: 2, period from 40 us
  EXPECT_EQ(rp.ccti(), 2);
  rp.on_timer(Time::us(60));
  EXPECT_EQ(rp.ccti(), 0);
  EXPECT_FALSE(rp.limited());
  EXPECT_DOUBLE_EQ(rp.rate(), kLine);
}

// The default table's floor: CCTI 511 gives 1 + 511 x 0.125 = 64.875, so a source can be held to
// line / 64.875. Sixteen connections into one port (an 8 -> 1 sendrecv incast, two channels each)
// then fit: 16 / 64.875 = 0.247 of the port, below the 1 / 16 each needs to be throttled to, where
// the first table's floor (CCTI 127: line / 16.875, 16 of them 0.95 of the port) did not.
TEST(PacketCcIbCc, TheDefaultTableReachesLineOver64) {
  IbCcReactionPoint rp(IbCcParams{}, kLine);
  for (int i = 0; i < 600; ++i) rp.on_becn(Time::zero());
  EXPECT_EQ(rp.ccti(), 511);
  EXPECT_DOUBLE_EQ(rp.rate(), kLine / 64.875);
  EXPECT_LT(16 * rp.rate(), kLine / 4);
}

// The switch side's Marking_Rate (CongestionHooks::on_enqueue): with marking_rate 3 a port marks
// one packet, lets the next three eligible ones pass, marks the fifth, and so on. Only packets
// queued above the threshold while the port is not blocked count as eligible; each port counts
// on its own. marking_rate 0 marks every eligible packet.
TEST(PacketCcIbCc, MarkingRateSpacesTheMarksOfEachPort) {
  PacketParams p;
  p.congestion_control = find_congestion_control("ibcc");
  p.cc.get<IbCcParams>().marking_rate = 3;
  const int64_t above = p.cc.get<IbCcParams>().threshold.count() + 1;
  const std::vector<LinkFlowMode> modes(2, LinkFlowMode::Lossless);
  CongestionHooks h(p, modes, *find_congestion_control("ibcc"), false);
  std::vector<bool> port0;
  for (int i = 0; i < 9; ++i) port0.push_back(h.on_enqueue(0, above, false, Time::zero()));
  EXPECT_EQ(port0, (std::vector<bool>{true, false, false, false, true, false, false, false, true}));
  EXPECT_FALSE(h.on_enqueue(0, p.cc.get<IbCcParams>().threshold.count(), false, Time::zero()));  // at the threshold: not eligible
  EXPECT_FALSE(h.on_enqueue(0, above, true, Time::zero()));                      // blocked (a victim): not eligible
  EXPECT_FALSE(h.on_enqueue(0, above, false, Time::zero()));                     // 1st eligible after the 9th's mark
  EXPECT_TRUE(h.on_enqueue(1, above, false, Time::zero()));  // port 1's own count: its first is marked
  p.cc.get<IbCcParams>().marking_rate = 0;
  CongestionHooks every(p, modes, *find_congestion_control("ibcc"), false);
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(every.on_enqueue(0, above, false, Time::zero()));
}
