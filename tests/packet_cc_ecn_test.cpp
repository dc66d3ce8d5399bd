// ECN marking (DCQCN's congestion point, ecn_marker.hpp): p = 0 at or below Kmin, Pmax x
// (q - Kmin)/(Kmax - Kmin) up to Kmax, 1 above; draws are a pure function of (seed, key).
#include <gtest/gtest.h>

#include "model/packet/ecn_marker.hpp"

using namespace gf;

TEST(PacketCcEcn, DefaultRampFromThePaper) {
  // Defaults: Kmin 5 KiB = 5,120 B, Kmax 200 KiB = 204,800 B, Pmax 0.01.
  const EcnMarker m(EcnParams{}, 1);
  EXPECT_EQ(m.probability(Bytes(0)), 0.0);
  EXPECT_EQ(m.probability(Bytes(5'120)), 0.0);  // at Kmin: not yet marking
  // Midpoint (5,120 + 204,800) / 2 = 104,960 B: half of Pmax = 0.005.
  EXPECT_DOUBLE_EQ(m.probability(Bytes(104'960)), 0.005);
  EXPECT_DOUBLE_EQ(m.probability(Bytes(204'800)), 0.01);  // at Kmax: Pmax
  EXPECT_EQ(m.probability(Bytes(204'801)), 1.0);          // above Kmax: every packet
}

TEST(PacketCcEcn, LinearBetweenThresholds) {
  // Kmin 100, Kmax 300, Pmax 0.5: q = 150 is a quarter of the ramp -> 0.5 x 50/200 = 0.125;
  // q = 200 is half -> 0.25.
  const EcnMarker m(EcnParams{Bytes(100), Bytes(300), 0.5}, 1);
  EXPECT_DOUBLE_EQ(m.probability(Bytes(150)), 0.125);
  EXPECT_DOUBLE_EQ(m.probability(Bytes(200)), 0.25);
}

TEST(PacketCcEcn, EqualThresholdsAreAStep) {
  // Kmin = Kmax = 100 (DCTCP-style step): no mark at 100, every packet at 101.
  const EcnMarker m(EcnParams{Bytes(100), Bytes(100), 0.3}, 1);
  EXPECT_EQ(m.probability(Bytes(100)), 0.0);
  EXPECT_EQ(m.probability(Bytes(101)), 1.0);
  EXPECT_FALSE(m.mark(Bytes(100), 7));
  EXPECT_TRUE(m.mark(Bytes(101), 7));
}

TEST(PacketCcEcn, DrawsAreDeterministicAndFollowTheProbability) {
  const EcnParams p{Bytes(100), Bytes(300), 0.5};
  const EcnMarker a(p, 42), b(p, 42), c(p, 43);
  int marked = 0, differ = 0;
  const int n = 100'000;
  for (int k = 0; k < n; ++k) {
    // Same seed and key: the same decision, whatever else happened in between.
    ASSERT_EQ(a.mark(Bytes(200), k), b.mark(Bytes(200), k));
    ASSERT_GE(a.draw(k), 0.0);
    ASSERT_LT(a.draw(k), 1.0);
    marked += a.mark(Bytes(200), k);
    differ += a.mark(Bytes(200), k) != c.mark(Bytes(200), k);
  }
  // p = 0.25 at q = 200: binomial(100,000, 0.25) has mean 25,000 and sd sqrt(n p (1-p)) = 137;
  // +-1,000 is over 7 sd, so only a broken draw fails.
  EXPECT_NEAR(marked, 25'000, 1'000);
  // Another seed gives another sequence: independent draws disagree with probability
  // 2 p (1 - p) = 0.375, i.e. about 37,500 times.
  EXPECT_NEAR(differ, 37'500, 1'500);
}
