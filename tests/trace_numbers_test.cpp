// The trace writer's numbers (src/report/trace_numbers.hpp) must be the text fmt writes for the
// same value, so trace files stay byte-identical to those written through fmt::format("{}").
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <string>

#include <fmt/format.h>

#include "report/trace_numbers.hpp"

namespace gf {
namespace {

std::string us(int64_t ps) {
  std::string out;
  append_us(out, ps);
  return out;
}
std::string fmt_us(int64_t ps) { return fmt::format("{}", static_cast<double>(ps) / 1e6); }

TEST(TraceNumbers, MicrosecondsByHand) {
  // ps / 10^6 as an exact decimal, trailing zeros dropped, no ".0" for whole microseconds.
  EXPECT_EQ(us(0), "0");
  EXPECT_EQ(us(1'000'000), "1");
  EXPECT_EQ(us(6'653'824), "6.653824");
  EXPECT_EQ(us(1'500'000), "1.5");
  EXPECT_EQ(us(100), "0.0001");         // 1e-4 us: the smallest written in fixed notation
  EXPECT_EQ(us(-2'250'000), "-2.25");
  EXPECT_EQ(us(65'410'983'650'000), "65410983.65");  // 65 s, a long sweep's end
}

TEST(TraceNumbers, MicrosecondsAsFmtWritesThem) {
  // Every boundary of the fast path (0, +-100 ps, 10^15 ps) and values of every length up to 18
  // digits, both signs, against fmt's shortest text of the double.
  std::mt19937_64 rng(22);
  for (int64_t ps = -2000; ps <= 2000; ++ps) ASSERT_EQ(us(ps), fmt_us(ps)) << ps;
  int64_t m = 1;
  for (int digits = 1; digits <= 18; ++digits) {
    m *= 10;
    for (const int64_t ps : {m - 1, m, m + 1, -(m - 1), -m}) ASSERT_EQ(us(ps), fmt_us(ps)) << ps;
    for (int i = 0; i < 2000; ++i) {
      const auto ps = static_cast<int64_t>(rng() % static_cast<uint64_t>(m));
      ASSERT_EQ(us(ps), fmt_us(ps)) << ps;
      ASSERT_EQ(us(-ps), fmt_us(-ps)) << -ps;
    }
  }
  for (const int64_t ps : {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()})
    EXPECT_EQ(us(ps), fmt_us(ps)) << ps;
}

TEST(TraceNumbers, Integers) {
  std::string out;
  append_int(out, 0);
  out += ' ';
  append_int(out, -1073741824);
  out += ' ';
  append_int(out, std::numeric_limits<int64_t>::min());
  EXPECT_EQ(out, "0 -1073741824 -9223372036854775808");
}

}  // namespace
}  // namespace gf
