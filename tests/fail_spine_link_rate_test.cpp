// goodput's default spine-link rate (workload/failure_rates.cpp): derived from Llama 3's cable
// failures, a cause that only slows the job.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "workload/failure_rates.hpp"
#include "workload/goodput.hpp"

namespace {

TEST(FailSpineLinkRate, TheDefaultIsLlama3sCableRateAndOnlySlows) {
  // Llama 3 405B (arXiv 2407.21783, Table 5): 35 "network switch or cable" interruptions in 54
  // days on 16,384 GPUs, one 400G NIC cable each: 35 / (16,384 x 54) per cable-day.
  const gf::FailureRates r = gf::llama3_rates();
  const auto it = std::find_if(r.causes.begin(), r.causes.end(),
                               [](const gf::FailureCause& c) { return c.unit == gf::FailureUnit::SpineLink; });
  ASSERT_NE(it, r.causes.end());
  EXPECT_DOUBLE_EQ(it->per_unit_day, 35.0 / (16384.0 * 54));
  EXPECT_EQ(it->blast, gf::Blast::Slow);
}

TEST(FailSpineLinkRate, ItAddsSlowdownsAndNoInterruption) {
  // A job on 128 servers with 1,024 spine links for 54 days: 1,024 x 54 x 35 / (16,384 x 54) =
  // 2.19 slowdowns expected per run, a Poisson mean: over 400 runs the mean is within 4 standard
  // errors, 4 sqrt(2.19 / 400) = 0.30. The slowdowns draw from their own stream, so the
  // interruptions and the effective training time are those of the rates without the cause.
  gf::GoodputOptions o;
  o.gpus = 1024;
  o.servers = 128;
  o.nics = 1024;
  o.spine_links = 1024;
  o.days = 54;
  o.runs = 400;
  o.seed = 3;
  const gf::FailureRates with = gf::llama3_rates();
  gf::FailureRates without = with;
  without.causes.erase(std::remove_if(without.causes.begin(), without.causes.end(),
                                      [](const gf::FailureCause& c) { return c.unit == gf::FailureUnit::SpineLink; }),
                       without.causes.end());
  ASSERT_EQ(without.causes.size() + 1, with.causes.size());
  const auto a = gf::run_goodput(without, o), b = gf::run_goodput(with, o);
  const double expected = 1024.0 * 35 / 16384;
  EXPECT_NEAR(b.slowdowns, expected, 4 * std::sqrt(expected / o.runs));
  EXPECT_EQ(a.slowdowns, 0);
  EXPECT_EQ(b.interruptions, a.interruptions);
  EXPECT_EQ(b.ett, a.ett);
}

}  // namespace
