// The layout search (training/search) and its closed-form network (training/closed_form_network):
// the search's winner against a brute-force run of every layout, its memory cap, and the closed form
// against the analytical network model it is calibrated on.
#include "training/search.hpp"

#include <gtest/gtest.h>

#include "config/presets.hpp"
#include "core/error.hpp"
#include "routing/router.hpp"
#include "topology/cluster_spec.hpp"
#include "training/closed_form_network.hpp"
#include "training/group_collectives.hpp"

namespace gf {
namespace {

struct Dgx {
  Cluster cluster;
  Router router;
  explicit Dgx(int64_t nodes, const char* preset = "dgx-a100")
      : cluster(build_cluster(resolve_cluster(preset, nodes))), router(cluster) {}
};

TEST(TrainClosedForm, LinearInBytesAndExactAtItsCalibrationSizes) {
  // alpha + beta x bytes: equal steps in size give equal steps in time, and at the two sizes it
  // was measured at (1 MiB and 256 MiB on the same group) it returns the analytical model's time.
  Dgx s(4);
  ClosedFormNetwork net(s.cluster, s.router);
  const std::vector<std::vector<int64_t>> dp = {{0, 8, 16, 24}};
  auto t = [&](int64_t b) { return net.time(dp, CollectiveKind::AllReduce, Bytes(b), "--dp").seconds; };
  const int64_t mib = 1 << 20;
  EXPECT_NEAR(t(3 * 64 * mib) - t(2 * 64 * mib), t(2 * 64 * mib) - t(64 * mib), 1e-12);
  for (int64_t b : {mib, 256 * mib}) {
    const double measured = time_groups(s.cluster, s.router, "analytical", dp, CollectiveKind::AllReduce, Bytes(b),
                                        "--dp").seconds;
    EXPECT_NEAR(t(b), measured, 1e-9 * measured) << b;
  }
  EXPECT_EQ(net.measurements(), 2u);  // one group shape, one collective: measured once
}

TEST(TrainClosedForm, BandwidthTermScalesAsTheRingShare) {
  // A 32-rank DP group is priced from its first 16 ranks: at a bandwidth-bound size the time grows
  // by the ring share 2(n-1)/n, (2 x 31/32) / (2 x 15/16) = 31/30, plus a latency term that at
  // 1 GiB is negligible (under 0.1 %).
  Dgx s(32);
  ClosedFormNetwork net(s.cluster, s.router);
  std::vector<int64_t> g32, g16;
  for (int64_t i = 0; i < 32; ++i) g32.push_back(8 * i);
  g16.assign(g32.begin(), g32.begin() + 16);
  const Bytes gib(int64_t{1} << 30);
  const double t32 = net.time({g32}, CollectiveKind::AllReduce, gib, "--dp").seconds;
  const double t16 = net.time({g16}, CollectiveKind::AllReduce, gib, "--dp").seconds;
  EXPECT_NEAR(t32 / t16, 31.0 / 30.0, 1e-3);
}

TEST(TrainSearch, WinnerIsTheFastestOfEveryLayoutWhenAllAreRefined) {
  // With every fitting layout refined on the network model, the winner must be the minimum of a
  // brute-force run of run_training over the same layouts (enumerated here independently).
  Dgx s(2);
  const ModelShape m = find_model("llama3-8b");
  TrainLayout base;
  base.global_batch = 16;
  base.seq = 2048;
  TrainOptions o;
  o.network_model = "analytical";
  const TrainingGpu gpu = *find_training_gpu("A100-SXM4-80GB");
  SearchOptions so;
  so.refine = 1000;
  so.recompute = {Recompute::None, Recompute::Full};
  so.zero = {0, 1};
  so.micro_batches = {1, 2};
  so.max_vpp = 2;
  const SearchResult r = search_layouts(s.cluster, s.router, m, base, o, gpu, so);
  double best = 1e30;
  int64_t fit = 0, ran = 0;
  for (int64_t tp : {1, 2, 4, 8})
    for (int64_t pp : {1, 2, 4, 8, 16}) {
      if (16 % (tp * pp) != 0 || m.layers % pp != 0) continue;
      const int64_t dp = 16 / (tp * pp);
      for (int64_t mb : {1, 2})
        for (int64_t v : {1, 2})
          for (Recompute rc : {Recompute::None, Recompute::Full})
            for (int z : {0, 1}) {
              TrainLayout l = base;
              l.tp = tp, l.pp = pp, l.dp = dp, l.micro_batch = mb, l.vpp = v, l.recompute = rc, l.zero = z;
              l.sequence_parallel = tp > 1;
              if (base.global_batch % (mb * dp) != 0 || (v > 1 && (pp == 1 || l.microbatches() % pp != 0)) ||
                  m.layers % (pp * v) != 0 || (dp == 1 && z > 0))
                continue;
              if (memory_per_gpu(m, l).total() > gpu.memory_bytes) continue;
              ++fit;
              try {
                best = std::min(best, run_training(s.cluster, s.router, m, l, o, gpu).step_time_s);
                ++ran;
              } catch (const InputError&) {
                // a PP pair or DP group on different GPU positions of two servers: refused by both
              }
            }
    }
  EXPECT_EQ(r.fit, fit);
  EXPECT_EQ(r.refined.size(), static_cast<size_t>(ran));
  EXPECT_GT(ran, 10);
  EXPECT_DOUBLE_EQ(r.winner.step_time_s, best);
  for (size_t i = 1; i < r.refined.size(); ++i) EXPECT_LE(r.refined[i - 1].simulated_s, r.refined[i].simulated_s);
}

TEST(TrainSearch, MemoryCapIsHonouredAndAnImpossibleOneIsAnError) {
  Dgx s(1);
  const ModelShape m = find_model("llama3-8b");
  TrainLayout base;
  base.global_batch = 8;
  base.seq = 4096;
  TrainOptions o;
  o.network_model = "analytical";
  const TrainingGpu gpu = *find_training_gpu("A100-SXM4-80GB");
  SearchOptions so;
  so.max_memory = 24.0 * (1 << 30);
  const SearchResult r = search_layouts(s.cluster, s.router, m, base, o, gpu, so);
  EXPECT_LT(r.fit, r.layouts);  // 8B weights + Adam at 16 B/param on one GPU (128 GB) cannot fit 24 GiB
  for (const SearchCandidate& c : r.best) EXPECT_LE(c.memory_bytes, so.max_memory);
  EXPECT_LE(r.winner.memory.total(), so.max_memory);
  so.max_memory = 1 << 30;  // 8B parameters over 8 GPUs: at least 2 GB of 16-bit weights each
  EXPECT_THROW(search_layouts(s.cluster, s.router, m, base, o, gpu, so), InputError);
  so.max_memory = 0;
  so.gpus = 16;
  EXPECT_THROW(search_layouts(s.cluster, s.router, m, base, o, gpu, so), InputError);
}

}  // namespace
}  // namespace gf
