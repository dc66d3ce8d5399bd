// gpufabric goodput's Monte Carlo against Daly's closed form and the Llama 3 run it is fitted to.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>

#include "core/error.hpp"
#include "workload/goodput.hpp"

namespace {

// One cause striking the whole job at `mtbi_s` on average, detected at once.
gf::FailureRates one_cause(double mtbi_s, int64_t gpus) {
  gf::FailureRates r;
  r.causes.push_back({"test", gf::FailureUnit::Gpu, 86400 / mtbi_s / static_cast<double>(gpus), 0, gf::Blast::Restart});
  return r;
}

TEST(FailGoodput, ExponentialFailuresMatchDaly) {
  // M = 2 h, checkpoint write 5 min, restart 10 min, interval 30 min, 30 days, 2,000 runs.
  gf::GoodputOptions o;
  o.gpus = o.servers = 1000;
  o.days = 30;
  o.interval_s = 1800;
  o.checkpoint_write_s = 300;
  o.restart_s = 600;
  o.runs = 2000;
  o.seed = 7;
  const double M = 7200;
  const auto r = gf::run_goodput(one_cause(M, o.gpus), o);
  // Daly (2006) eq. 13: T_s / T_w = tau / (M e^{R/M} (e^{(tau+delta)/M} - 1)) = 0.6904...
  const double daly = gf::daly_goodput(1800, 300, 600, M);
  // Monte Carlo error of the mean: 4 standard errors; plus the finite life: the last stretch
  // before the end counts without its checkpoint and the first starts without a restart, at most
  // (tau + R) / T either way.
  const double tol = 4 * r.ett_sd / std::sqrt(o.runs) + (1800.0 + 600) / (30 * 86400);
  EXPECT_NEAR(r.ett, daly, tol) << "Daly " << daly << ", simulated " << r.ett << " +- " << r.ett_sd;
  // Interruptions: Poisson with mean T / M = 360 per run.
  EXPECT_NEAR(r.interruptions, 30 * 86400 / M, 4 * std::sqrt(360.0 / o.runs));
}

TEST(FailGoodput, ClosedFormIntervals) {
  // Young: sqrt(2 x 60 x 10,800) = 1,138.4 s. Daly: that x (1 + sqrt(x)/3 + x/9) - 60 with
  // x = 60 / 21,600: 1138.42 x 1.018 - 60 = 1,098.9 s.
  EXPECT_NEAR(gf::young_interval(60, 10800), 1138.42, 0.01);
  const double x = 60.0 / 21600;
  EXPECT_NEAR(gf::daly_interval(60, 10800), 1138.42 * (1 + std::sqrt(x) / 3 + x / 9) - 60, 0.01);
  EXPECT_DOUBLE_EQ(gf::daly_interval(3, 1), 1);  // delta >= 2M: checkpoint every M
}

TEST(FailGoodput, SimulatedBestIntervalIsNearDalys) {
  // The goodput curve is flat near its optimum, so the simulated best of the scan (steps of
  // 2^(1/4)) lies within one step either side of Daly's, or gives the same goodput within noise.
  gf::GoodputOptions o;
  o.gpus = o.servers = 1000;
  o.days = 60;
  o.checkpoint_write_s = 120;
  o.restart_s = 300;
  o.runs = 400;
  const auto r = gf::run_goodput(one_cause(4 * 3600, o.gpus), o);
  const double best = gf::daly_goodput(r.best_s, 120, 300, 4 * 3600),
               at_daly = gf::daly_goodput(r.daly_s, 120, 300, 4 * 3600);
  EXPECT_NEAR(best, at_daly, 0.005) << "best " << r.best_s << " s, Daly " << r.daly_s << " s";
}

TEST(FailGoodput, Llama3ReproducesItsInterruptions) {
  // The default rates are a fit to this job (Table 5 of arXiv 2407.21783), so the expected count
  // is 419 by construction; the test checks the Monte Carlo keeps it: mean over 200 runs within
  // 4 standard errors of a Poisson(419), sqrt(419 / 200) = 1.45.
  gf::GoodputOptions o;
  o.gpus = o.nics = 16384;
  o.servers = 2048;
  o.spares = 1024;  // the 24K-GPU cluster's other servers (meta-llama3-roce: 3,072)
  o.days = 54;
  o.runs = 200;
  // Checkpoint: at most 4 GB per GPU (the paper), 65.5 TB for the job, at Tectonic's 7 TB/s peak
  // (the paper, 3.3.1): about 10 s. Restart: 5 min, an assumption (the paper gives no figure).
  o.checkpoint_write_s = 10;
  o.restart_s = 300;
  const auto r = gf::run_goodput(gf::llama3_rates(), o);
  EXPECT_NEAR(r.interruptions, 419, 4 * std::sqrt(419.0 / 200));
  EXPECT_NEAR(r.mtbi_h, 54 * 24 / 419.0, 0.1);
  // Meta reports effective training time above 90%.
  EXPECT_GT(r.ett, 0.90);
  EXPECT_LT(r.ett, 1.0);
  double faulty_gpu = 0;
  for (const auto& c : r.causes)
    if (c.name == "faulty GPU (incl. NVLink)") faulty_gpu = c.interruptions;
  EXPECT_NEAR(faulty_gpu, 148, 4 * std::sqrt(148.0 / 200));
}

TEST(FailGoodput, SameSeedSameAnswer) {
  gf::GoodputOptions o;
  o.gpus = o.servers = 100;
  o.days = 10;
  o.runs = 50;
  o.seed = 3;
  const auto a = gf::run_goodput(one_cause(3600, 100), o), b = gf::run_goodput(one_cause(3600, 100), o);
  EXPECT_EQ(a.ett, b.ett);
  EXPECT_EQ(a.best_s, b.best_s);
}

TEST(FailGoodput, BadRatesAreInputErrors) {
  const std::string path = ::testing::TempDir() + "fail_rates.yaml";
  const auto error_for = [&](const std::string& text) -> std::string {
    std::ofstream(path) << text;
    try {
      gf::load_failure_rates(path);
    } catch (const gf::InputError& e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_NE(error_for("causes:\n  - {name: GPU, unit: gpu, per_unit_day: -1}\n").find("causes[0].per_unit_day"),
            std::string::npos);
  EXPECT_NE(error_for("causes:\n  - {name: GPU, unit: gpu, per_unit_day: lots}\n").find("expected a number"),
            std::string::npos);
  EXPECT_NE(error_for("causes:\n  - {name: GPU, unit: gpus, per_unit_day: 1}\n").find("gpu"), std::string::npos);
  EXPECT_NE(error_for("causes:\n  - {name: GPU, unit: gpu, per_unit_dya: 1}\n").find("per_unit_day"),
            std::string::npos);
  std::ofstream(path) << "causes:\n  - {name: GPU, unit: gpu, per_1000_unit_days: 0.5, detect: 30s}\n";
  const auto r = gf::load_failure_rates(path);
  ASSERT_EQ(r.causes.size(), 1u);
  EXPECT_DOUBLE_EQ(r.causes[0].per_unit_day, 0.0005);
  EXPECT_DOUBLE_EQ(r.causes[0].detect_s, 30);
  std::remove(path.c_str());
  EXPECT_DOUBLE_EQ(gf::parse_duration_s("--restart", "10m"), 600);
  EXPECT_DOUBLE_EQ(gf::parse_duration_s("--restart", "1.5d"), 129600);
  EXPECT_THROW(gf::parse_duration_s("--restart", "-1s"), gf::InputError);
  EXPECT_THROW(gf::parse_duration_s("--restart", "10 parsecs"), gf::InputError);
}

}  // namespace
