// Stragglers and launch jitter over iterations (workload/noise.hpp, engine rank_delay): what one
// late rank costs a synchronous collective, derived from the schedule's dependencies.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "collective/communicator.hpp"
#include "core/error.hpp"
#include "routing/router.hpp"
#include "test_clusters.hpp"
#include "workload/noise.hpp"
#include "workload/sweep.hpp"

namespace {

// 8 one-GPU servers on one leaf (8 NICs fit a switch's ports): ring edge i -> i+1 crosses nic_i's
// uplink and nic_{i+1}'s downlink, and no two edges of a ring share a link, so every ring step
// takes the same time whether or not the other ranks are sending.
struct Ring8 {
  gf::Cluster c = gf::build_cluster(gftest::spec_of(gftest::small_server(), 8));
  gf::Router r{c};
  gf::Communicator comm = gf::make_communicator(c, r, 8, 1);
};

gf::SweepOptions ring_all_reduce(gf::Bytes size) {
  gf::SweepOptions o;
  o.call.kind = gf::CollectiveKind::AllReduce;
  o.min_bytes = o.max_bytes = size;
  o.algo = "ring";
  o.proto = "simple";
  return o;
}

// Rank 3 of the 8-rank ring late by `x`, one iteration of a ring all-reduce of `size`.
gf::SweepRow rank3_late(const Ring8& f, gf::Bytes size, gf::Time x) {
  gf::SweepOptions o = ring_all_reduce(size);
  o.noise.iterations = 1;
  o.noise.stragglers = {{f.c.node_name(f.comm.gpu[3]), x}};
  return gf::run_sweep(f.comm, f.r, o).at(0);
}

TEST(FailNoise, OneLateRankDelaysARingAllReduceByFewStepsNotPerStep) {
  // The loose bound, which holds whatever an edge does with the steps in flight on it: a late rank
  // costs a small multiple of x, never x per step (14 x on 8 ranks). The test below checks the
  // exact x that in-order connections give.
  const Ring8 f;
  const gf::Time x = gf::Time::us(20);
  for (gf::Bytes size : {gf::Bytes::kib(64), gf::Bytes::mib(64)}) {
    const gf::SweepRow row = rank3_late(f, size, x);
    const double cost = row.time.to_us() - row.iterations.clean.to_us();
    EXPECT_GE(cost, x.to_us() * (1 - 1e-3)) << size.count();  // everything waits for rank 3's data
    EXPECT_LT(cost, 3 * x.to_us()) << size.count();            // 14 x if paid per step
    EXPECT_EQ(row.iterations.held_rank, 3);
  }
}

// Needs each connection's steps sent in order (model/flow/connection_queue.hpp): with the steps a
// late rank releases at once sharing its edge instead, the first of them arrived late and the
// model gave 1.1 x at 64 KiB and 2.0 x at 64 MiB here.
TEST(FailNoise, OneLateRankDelaysARingAllReduceOnceNotPerStep) {
  // Ring all-reduce on n = 8 ranks is 2(n-1) = 14 steps; rank i's send of step k waits for its
  // receive of step k-1. Rank 3 late by x: its step-0 send starts at x, and the chain of sends
  // that starts there is 14 steps long, each taking the step time t it takes without the delay
  // (no shared links, above), so the call ends at x + 14 t = x + T. Every other chain reaches
  // rank 3 after h >= 0 hops and then has at most 14 - h left, ending no later. So the cost is
  // x, not x per step (14 x).
  const Ring8 f;
  const gf::Time x = gf::Time::us(20);
  for (gf::Bytes size : {gf::Bytes::kib(64), gf::Bytes::mib(64)}) {
    const gf::SweepRow row = rank3_late(f, size, x);
    const double clean = row.iterations.clean.to_us(), late = row.time.to_us();
    // Within 0.1 % of T: the flow model's completion tolerance (model/flow, 0.1 % of a lifetime).
    EXPECT_NEAR(late - clean, x.to_us(), 1e-3 * clean + 1e-3) << size.count();
    EXPECT_EQ(row.iterations.held_rank, 3);
    EXPECT_EQ(row.iterations.held_count, 1);
  }
}

TEST(FailNoise, EveryRankEquallyLateShiftsTheCall) {
  // sigma = 0: every rank's draw is exactly the median m, so the whole call starts m later: T + m.
  Ring8 f;
  gf::SweepOptions o = ring_all_reduce(gf::Bytes::mib(1));
  o.noise.iterations = 3;
  o.noise.jitter = {gf::Time::us(2), 0.0};
  const gf::SweepRow row = gf::run_sweep(f.comm, f.r, o).at(0);
  EXPECT_NEAR(row.iterations.p50.to_us() - row.iterations.clean.to_us(), 2.0, 1e-3 * row.iterations.clean.to_us());
  EXPECT_EQ(row.iterations.p50, row.iterations.max);  // no randomness left
  EXPECT_EQ(row.iterations.held_rank, 0);             // all tie: the lowest rank is named
}

TEST(FailNoise, StragglerHoldsUpTheCallDespiteJitter) {
  // A 20 us straggler against lognormal jitter of median 2 us, sigma 0.5: another rank starts
  // later only if its draw exceeds 22 us, z > ln(11)/0.5 = 4.8, probability 8e-7 per draw; over
  // 7 ranks x 20 iterations, 1e-4. So the straggler starts last in all 20.
  Ring8 f;
  gf::SweepOptions o = ring_all_reduce(gf::Bytes::mib(1));
  o.noise.iterations = 20;
  o.noise.seed = 7;
  o.noise.stragglers = {{f.c.node_name(f.comm.gpu[5]), gf::Time::us(20)}};
  o.noise.jitter = gf::parse_jitter("--jitter", "lognormal:median=2us,sigma=0.5");
  const gf::SweepRow a = gf::run_sweep(f.comm, f.r, o).at(0);
  EXPECT_EQ(a.iterations.held_rank, 5);
  EXPECT_EQ(a.iterations.held_count, 20);
  // At least the straggler's 20 us and at most 20 us + the largest jitter draw: no draw above
  // the straggler's own start (above), so the call is T + 20 us + (rank 5's own draw) at most
  // max over ranks of their start.
  EXPECT_GE(a.iterations.p50.to_us(), a.iterations.clean.to_us() + 20 - 1e-3 * a.iterations.clean.to_us());
  EXPECT_LE(a.iterations.p50, a.iterations.p99);
  EXPECT_LE(a.iterations.p99, a.iterations.max);
  // Same seed, same times; another seed, other draws.
  const gf::SweepRow b = gf::run_sweep(f.comm, f.r, o).at(0);
  EXPECT_EQ(a.time, b.time);
  EXPECT_EQ(a.iterations.max, b.iterations.max);
  o.noise.seed = 8;
  EXPECT_NE(gf::run_sweep(f.comm, f.r, o).at(0).time, a.time);
}

TEST(FailNoise, LognormalDrawsHaveTheirMedianAndSigma) {
  // z = ln(draw / median) / sigma is standard normal: over N = 20,001 draws its sample median
  // has standard error 1.2533 / sqrt(N) = 0.0089 and its sample standard deviation 1/sqrt(2N) =
  // 0.005; allow 4 standard errors.
  const gf::Jitter j{gf::Time::us(2), 0.5};
  std::vector<double> z;
  for (int it = 0; it < 2857; ++it) {
    const std::vector<gf::Time> d = gf::iteration_delays(std::vector<gf::Time>(7, gf::Time::zero()), j, 11, it);
    for (gf::Time t : d) z.push_back(std::log(t.to_us() / 2.0) / 0.5);
  }
  ASSERT_EQ(z.size(), 19999u);
  double mean = 0, sq = 0;
  for (double v : z) mean += v;
  mean /= static_cast<double>(z.size());
  for (double v : z) sq += (v - mean) * (v - mean);
  const double sd = std::sqrt(sq / static_cast<double>(z.size() - 1));
  std::nth_element(z.begin(), z.begin() + static_cast<long>(z.size() / 2), z.end());
  EXPECT_NEAR(z[z.size() / 2], 0.0, 4 * 0.0089);
  EXPECT_NEAR(sd, 1.0, 4 * 0.005);
}

TEST(FailNoise, NearestRankPercentiles) {
  // Times 1..100 us: the ceil(0.5 x 100) = 50th is 50 us, the 99th 99 us, the mean 50.5 us.
  std::vector<gf::Time> t;
  for (int i = 100; i >= 1; --i) t.push_back(gf::Time::us(i));
  const gf::IterationStats s = gf::iteration_stats(gf::Time::us(1), t, {2, 2, 1, -1}, 4);
  EXPECT_EQ(s.p50, gf::Time::us(50));
  EXPECT_EQ(s.p99, gf::Time::us(99));
  EXPECT_EQ(s.max, gf::Time::us(100));
  EXPECT_EQ(s.mean, gf::Time::ns(50500));
  EXPECT_EQ(s.held_rank, 2);
  EXPECT_EQ(s.held_count, 2);
}

TEST(FailNoise, BadSpecsAreInputErrors) {
  for (const char* bad : {"server1/gpu3", "=+20us", "server1/gpu3=", "server1/gpu3=+fast", "server1/gpu3=-2us"})
    EXPECT_THROW(gf::parse_straggler("--straggler", bad), gf::InputError) << bad;
  for (const char* bad :
       {"normal:median=2us,sigma=0.5", "lognormal", "lognormal:median=2us", "lognormal:median=2us,sigma=-1",
        "lognormal:median=0us,sigma=0.5", "lognormal:median=2us,sigma=x", "lognormal:mean=2us,sigma=0.5"})
    EXPECT_THROW(gf::parse_jitter("--jitter", bad), gf::InputError) << bad;
  EXPECT_EQ(gf::parse_straggler("--straggler", "server1/gpu3=+20us").delay, gf::Time::us(20));
  Ring8 f;
  try {
    gf::straggler_delays(f.comm, {{"server1/gpu9", gf::Time::us(1)}});
    ADD_FAILURE() << "expected an InputError";
  } catch (const gf::InputError& e) {
    EXPECT_EQ(e.key(), "--straggler");
    // One-GPU servers: topo names their GPUs by index, gpu0 .. gpu7.
    EXPECT_NE(e.hint().find("gpu0 .. gpu7"), std::string::npos) << e.hint();
  }
}

}  // namespace
