// InfiniBand congestion control's source side (model/packet/ib_cc.hpp): the table index CCTI and
// the rate it gives, derived by hand from the parameters. Line rate 100 Gb/s = 12.5e9 B/s, the
// default table step 0.125, so CCTI i gives 12.5e9 / (1 + i / 8) B/s; the timer is 10 us.
#include <gtest/gtest.h>

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
