// DCQCN's reaction and notification points (dcqcn.hpp; Zhu et al., SIGCOMM 2015, section 3.1).
// Every rate below is derived from the update rules written in dcqcn.hpp.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "model/packet/dcqcn.hpp"

using namespace gf;

namespace {

const Bandwidth kLine = Bandwidth::gbps(100);
const Time kT = Time::us(55);  // the paper's rate and alpha timers

double gbps(Bandwidth b) { return b.to_gbps(); }

}  // namespace

TEST(PacketCcDcqcn, OneCnpAtLineRateWithAlphaOneHalvesTheRate) {
  DcqcnReactionPoint rp(DcqcnParams{}, kLine);
  EXPECT_FALSE(rp.limited());
  EXPECT_EQ(rp.next_timer(), Time::infinity());
  rp.on_cnp(Time::zero());
  // R_T = R_C = 100; R_C = 100 (1 - 1/2) = 50; alpha = (1 - g) 1 + g = 1.
  EXPECT_DOUBLE_EQ(gbps(rp.rate()), 50.0);
  EXPECT_DOUBLE_EQ(gbps(rp.target()), 100.0);
  EXPECT_DOUBLE_EQ(rp.alpha(Time::zero()), 1.0);
  EXPECT_TRUE(rp.limited());
  EXPECT_EQ(rp.next_timer(), kT);
}

TEST(PacketCcDcqcn, AlphaDecaysOncePerPeriodWithoutCnp) {
  DcqcnReactionPoint rp(DcqcnParams{}, kLine);
  rp.on_cnp(Time::zero());  // alpha = 1 at t = 0
  const double keep = 1.0 - 1.0 / 256;
  // Just before the 2nd period ends only one decay applies; after k periods alpha = (1-g)^k.
  EXPECT_DOUBLE_EQ(rp.alpha(kT * 2 - Time::ps(1)), keep);
  EXPECT_DOUBLE_EQ(rp.alpha(kT * 2), keep * keep);
  EXPECT_NEAR(rp.alpha(kT * 100), std::pow(keep, 100), 1e-12);  // 0.6764...
}

TEST(PacketCcDcqcn, AlphaAfterRepeatedCnpsUsesTheOldAlphaForTheCut) {
  // g = 1/2, alpha starting at 0, three CNPs at the same instant (no decay between):
  //   alpha_n = (1-g) alpha_{n-1} + g = 1 - (1/2)^n: 0.5, 0.75, 0.875.
  // Each cut uses alpha before its update: R_C = 100 (1 - 0/2) = 100, then 100 (1 - 0.5/2) = 75,
  // then 75 (1 - 0.75/2) = 46.875.
  DcqcnParams p;
  p.g = 0.5;
  p.initial_alpha = 0;
  DcqcnReactionPoint rp(p, kLine);
  rp.on_cnp(Time::zero());
  EXPECT_DOUBLE_EQ(rp.alpha(Time::zero()), 0.5);
  EXPECT_DOUBLE_EQ(gbps(rp.rate()), 100.0);
  rp.on_cnp(Time::zero());
  EXPECT_DOUBLE_EQ(rp.alpha(Time::zero()), 0.75);
  EXPECT_DOUBLE_EQ(gbps(rp.rate()), 75.0);
  rp.on_cnp(Time::zero());
  EXPECT_DOUBLE_EQ(rp.alpha(Time::zero()), 0.875);
  EXPECT_DOUBLE_EQ(gbps(rp.rate()), 46.875);
  EXPECT_EQ(rp.cnps(), 3);
}

TEST(PacketCcDcqcn, FastRecoveryHalvesTheGapForFSteps) {
  // After one CNP: R_T = 100, R_C = 50. Fast recovery step k: R_C = 100 - 50 / 2^k;
  // after F = 5 steps 100 - 50/32 = 98.4375 Gb/s.
  DcqcnReactionPoint rp(DcqcnParams{}, kLine);
  rp.on_cnp(Time::zero());
  for (int k = 1; k <= 5; ++k) {
    EXPECT_EQ(rp.next_timer(), kT * k);
    rp.on_timer(kT * k);
    EXPECT_DOUBLE_EQ(gbps(rp.rate()), 100.0 - 50.0 / std::pow(2.0, k)) << "step " << k;
    EXPECT_DOUBLE_EQ(gbps(rp.target()), 100.0);
    EXPECT_EQ(rp.timer_stage(), k);
  }
}

TEST(PacketCcDcqcn, OverdueTimersRunInOrder) {
  // One call at 3T runs the three events due at T, 2T, 3T: R_C = 100 - 50/8 = 93.75; an early
  // call does nothing.
  DcqcnReactionPoint rp(DcqcnParams{}, kLine);
  rp.on_cnp(Time::zero());
  rp.on_timer(kT - Time::ps(1));
  EXPECT_DOUBLE_EQ(gbps(rp.rate()), 50.0);
  rp.on_timer(kT * 3);
  EXPECT_DOUBLE_EQ(gbps(rp.rate()), 93.75);
  EXPECT_EQ(rp.next_timer(), kT * 4);
}

TEST(PacketCcDcqcn, AdditiveIncreaseAfterFastRecovery) {
  // Two CNPs at t = 0 with alpha = 1: 100 -> 50 (R_T 100), then R_T = 50, R_C = 25.
  // Fast recovery, 5 timer events: R_C = 50 - 25/32 = 49.21875.
  // Event 6 (T = 6 > F, BC = 0): additive, R_T = 50 + 0.04 = 50.04, R_C = (50.04 + 49.21875)/2
  //   = 49.629375. Event 7: R_T = 50.08, R_C = (50.08 + 49.629375)/2 = 49.8546875.
  DcqcnReactionPoint rp(DcqcnParams{}, kLine);
  rp.on_cnp(Time::zero());
  rp.on_cnp(Time::zero());
  EXPECT_DOUBLE_EQ(gbps(rp.rate()), 25.0);
  EXPECT_DOUBLE_EQ(gbps(rp.target()), 50.0);
  rp.on_timer(kT * 5);
  EXPECT_DOUBLE_EQ(gbps(rp.rate()), 49.21875);
  rp.on_timer(kT * 6);
  EXPECT_NEAR(gbps(rp.target()), 50.04, 1e-9);
  EXPECT_NEAR(gbps(rp.rate()), 49.629375, 1e-9);
  rp.on_timer(kT * 7);
  EXPECT_NEAR(gbps(rp.target()), 50.08, 1e-9);
  EXPECT_NEAR(gbps(rp.rate()), 49.8546875, 1e-9);
}

TEST(PacketCcDcqcn, HyperIncreaseWhenBothCountersPassF) {
  // F = 1, B = 1 MiB, R_AI = 1, R_HAI = 10 Gb/s. Two CNPs: R_T = 50, R_C = 25. Then, alternating:
  //   timer  T=1 BC=0: max 1 <= F, fast recovery       R_C = (50 + 25)/2     = 37.5
  //   bytes  T=1 BC=1: max 1 <= F, fast recovery       R_C = (50 + 37.5)/2   = 43.75
  //   timer  T=2 BC=1: min 1 = F, additive  R_T = 51,  R_C = (51 + 43.75)/2  = 47.375
  //   bytes  T=2 BC=2: min 2 > F, hyper i=1 R_T = 61,  R_C = (61 + 47.375)/2 = 54.1875
  //   timer  T=3 BC=2: hyper i = 2-1 = 1    R_T = 71,  R_C = (71 + 54.1875)/2 = 62.59375
  //   bytes  T=3 BC=3: hyper i = 2          R_T = 91,  R_C = (91 + 62.59375)/2 = 76.796875
  //   timer  T=4 BC=3: hyper i = 2          R_T = 111 -> capped at line 100,
  //                                         R_C = (100 + 76.796875)/2 = 88.3984375
  DcqcnParams p;
  p.fast_recovery_steps = 1;
  p.byte_counter = Bytes::mib(1);
  p.rate_ai = Bandwidth::gbps(1);
  p.rate_hai = Bandwidth::gbps(10);
  DcqcnReactionPoint rp(p, kLine);
  rp.on_cnp(Time::zero());
  rp.on_cnp(Time::zero());
  const struct { bool timer; double target, rate; } steps[] = {
      {true, 50, 37.5},   {false, 50, 43.75},     {true, 51, 47.375},     {false, 61, 54.1875},
      {true, 71, 62.59375}, {false, 91, 76.796875}, {true, 100, 88.3984375},
  };
  int timers = 0;
  for (const auto& s : steps) {
    if (s.timer) rp.on_timer(kT * ++timers);
    else rp.on_bytes_sent(Bytes::mib(1));
    EXPECT_NEAR(gbps(rp.target()), s.target, 1e-9);
    EXPECT_NEAR(gbps(rp.rate()), s.rate, 1e-9);
  }
}

TEST(PacketCcDcqcn, ByteCounterFiresEveryBBytes) {
  // B = 10 MiB by default: one byte short does nothing; the last byte is one fast-recovery step
  // (R_C = (100 + 50)/2 = 75).
  DcqcnReactionPoint rp(DcqcnParams{}, kLine);
  rp.on_cnp(Time::zero());
  rp.on_bytes_sent(Bytes(Bytes::mib(10).count() - 1));
  EXPECT_EQ(rp.byte_stage(), 0);
  EXPECT_DOUBLE_EQ(gbps(rp.rate()), 50.0);
  rp.on_bytes_sent(Bytes(1));
  EXPECT_EQ(rp.byte_stage(), 1);
  EXPECT_DOUBLE_EQ(gbps(rp.rate()), 75.0);
}

TEST(PacketCcDcqcn, BackAtLineRateTheLimiterStops) {
  // Fast recovery then additive increase halve the gap to R_T = 100 each event, so R_C reaches
  // 100 exactly once the gap is below a double's resolution (about 60 halvings of 50 Gb/s);
  // then the timer stops and bytes no longer count.
  DcqcnReactionPoint rp(DcqcnParams{}, kLine);
  rp.on_cnp(Time::zero());
  int events = 0;
  while (rp.limited() && events < 200) rp.on_timer(rp.next_timer()), ++events;
  EXPECT_FALSE(rp.limited());
  EXPECT_LT(events, 100);
  EXPECT_EQ(rp.next_timer(), Time::infinity());
  EXPECT_DOUBLE_EQ(gbps(rp.rate()), 100.0);
  rp.on_bytes_sent(Bytes::mib(100));
  EXPECT_EQ(rp.byte_stage(), 0);
}

TEST(PacketCcDcqcn, RateIsFlooredAtTheMinimum) {
  // min 10 Gb/s, alpha 1: 100 -> 50 -> 25 -> 12.5 -> 6.25, floored to 10.
  DcqcnParams p;
  p.min_rate = Bandwidth::gbps(10);
  DcqcnReactionPoint rp(p, kLine);
  for (int i = 0; i < 3; ++i) rp.on_cnp(Time::zero());
  EXPECT_DOUBLE_EQ(gbps(rp.rate()), 12.5);
  rp.on_cnp(Time::zero());
  EXPECT_DOUBLE_EQ(gbps(rp.rate()), 10.0);
}

TEST(PacketCcDcqcn, NotificationPointSendsOneCnpPerInterval) {
  // Interval 50 us: marks at 0 (CNP), 10, 49.999 (none: within 50 us of the last CNP), 50 (CNP),
  // 60 (none), 100 (CNP) -> 3 CNPs.
  DcqcnNotificationPoint np(Time::us(50));
  EXPECT_TRUE(np.on_marked_packet(Time::us(0)));
  EXPECT_FALSE(np.on_marked_packet(Time::us(10)));
  EXPECT_FALSE(np.on_marked_packet(Time::ns(49'999)));
  EXPECT_TRUE(np.on_marked_packet(Time::us(50)));
  EXPECT_FALSE(np.on_marked_packet(Time::us(60)));
  EXPECT_TRUE(np.on_marked_packet(Time::us(100)));
  EXPECT_EQ(np.cnps_sent(), 3);
  // Interval 0: every marked packet gets its CNP, even two at the same instant.
  DcqcnNotificationPoint every(Time::zero());
  EXPECT_TRUE(every.on_marked_packet(Time::us(5)));
  EXPECT_TRUE(every.on_marked_packet(Time::us(5)));
}

TEST(PacketCcDcqcn, ZeroPeriodsAreRefusedRatherThanLoopingForever) {
  DcqcnParams p;
  p.rate_timer = Time::zero();
  EXPECT_THROW(DcqcnReactionPoint(p, kLine), std::logic_error);
  p = DcqcnParams{};
  p.byte_counter = Bytes(0);
  EXPECT_THROW(DcqcnReactionPoint(p, kLine), std::logic_error);
}
