// The SimGrid peer's ring all-reduce (../shared/peers) run step by step through gpufabric, as
// bench/peer_ring_bench.cpp times it, checked against the peer README's closed forms so that the
// agreement with SimGrid is tested without SimGrid. Platform: bench/clusters/peer-leafspine.yaml.
#include <gtest/gtest.h>

#include "../bench/peer_ring.hpp"
#include "routing/path.hpp"

namespace {

const std::string kClusterFile = std::string(GPUFABRIC_SOURCE_DIR) + "/bench/clusters/peer-leafspine.yaml";

using gfpeer::RingSemantics;

// 64 MiB at 400 Gb/s = 50e9 B/s per direction (README: "--bw 400Gbps (= 50 GB/s)").
constexpr int64_t kSize = 64ll << 20;
constexpr double kB = 50e9;

// Every completion is rounded up to the next picosecond (FlowModel::reschedule): at most 1 ps per
// transfer on the critical path of 2(N-1) transfers.
double tolerance_ps(int n) { return 2.0 * (n - 1); }

double run_ps(int n, RingSemantics sem) {
  auto r = gfpeer::run_peer_ring(gfpeer::peer_cluster_spec(kClusterFile, n), gf::Bytes(kSize), sem);
  EXPECT_EQ(r.transfers, static_cast<size_t>(n) * 2 * (n - 1));
  return static_cast<double>(r.sim.picoseconds());
}

TEST(PeerRing, PlatformMatchesThePeers) {
  // N = 4,096 (the file as written): 4096 / 16 = 256 leaves of 32 ports, 16 spines of 256 ports.
  gf::ClusterSpec big = gf::load_cluster_file(kClusterFile);
  auto counts = gf::count_cluster(big).fabric;
  ASSERT_EQ(counts.tiers.size(), 2u);
  EXPECT_EQ(counts.tiers[0].switches, 256);
  EXPECT_EQ(counts.tiers[1].switches, 16);
  EXPECT_EQ(counts.tiers[1].radix, 256);
  // The bench's spec for N = 32: 2 leaves, still 16 spines (spine_radix = 2, one port per leaf).
  gf::ClusterSpec spec = gfpeer::peer_cluster_spec(kClusterFile, 32);
  EXPECT_EQ(gf::count_cluster(spec).fabric.tiers[0].switches, 2);
  EXPECT_EQ(gf::count_cluster(spec).fabric.tiers[1].switches, 16);
  // Routes: in a leaf GPU-NIC-leaf-NIC-GPU = 2 links of 1 us + 2 host links of 0; across leaves
  // GPU-NIC-leaf-spine-leaf-NIC-GPU = 4 x 1 us + 2 x 0. Switches add nothing (switch_latency 0).
  gf::Cluster c = gf::build_cluster(spec);
  gf::Router router(c);
  gf::Path in_leaf = router.hashed_path(c.gpu(0), c.gpu(1), 7);
  gf::Path across = router.hashed_path(c.gpu(15), c.gpu(16), 7);
  EXPECT_EQ(in_leaf.links.size(), 4u);
  EXPECT_EQ(gf::latency(c, in_leaf), gf::Time::us(2));
  EXPECT_EQ(across.links.size(), 6u);
  EXPECT_EQ(gf::latency(c, across), gf::Time::us(4));
  // Each peer link delivers 400 Gb/s; the host link never limits it.
  EXPECT_DOUBLE_EQ(gf::bottleneck(c, across).bytes_per_second(), kB);
}

// Ring edges of N = 32 (2 leaves, ranks contiguous): 15 -> 16 and 31 -> 0 cross leaves (4 us), the
// other 30 stay in a leaf (2 us). Chunk S / N = 2 MiB = 2,097,152 B, 2,097,152 / 50e9 s =
// 41.94304 us. 2(N - 1) = 62 steps.
TEST(PeerRing, SyncMatchesAlphaBetaN32) {
  // README, sync: T = 2(N-1) alpha + 2(N-1)/N S / B with alpha = the slowest edge = 4 us
  //   = 62 x (4 + 41.94304) us = 62 x 45.94304 us = 2,848.46848 us.
  EXPECT_NEAR(run_ps(32, RingSemantics::Sync), 2'848'468'480.0, tolerance_ps(32));
}

TEST(PeerRing, StreamMatchesChainFormulaN32) {
  // README, stream: T = 2 sum_e lat_e - min_e (lat_e+1 + lat_e+2) + 2(N-1) chunk / B
  //   sum_e lat_e = 30 x 2 + 2 x 4 = 68 us; the smallest pair of consecutive edges is 2 + 2 = 4 us;
  //   T = 136 - 4 + 62 x 41.94304 = 132 + 2,600.46848 = 2,732.46848 us.
  EXPECT_NEAR(run_ps(32, RingSemantics::Stream), 2'732'468'480.0, tolerance_ps(32));
}

// N = 64 (4 leaves): 4 edges of 4 us, 60 of 2 us; chunk 1 MiB = 20.97152 us; 126 steps.
TEST(PeerRing, SyncMatchesAlphaBetaN64) {
  // 126 x (4 + 20.97152) us = 126 x 24.97152 = 3,146.41152 us.
  EXPECT_NEAR(run_ps(64, RingSemantics::Sync), 3'146'411'520.0, tolerance_ps(64));
}

TEST(PeerRing, StreamMatchesChainFormulaN64) {
  // sum = 60 x 2 + 4 x 4 = 136 us; T = 272 - 4 + 126 x 20.97152 = 268 + 2,642.41152 = 2,910.41152 us.
  EXPECT_NEAR(run_ps(64, RingSemantics::Stream), 2'910'411'520.0, tolerance_ps(64));
}

TEST(PeerRing, SemanticsDifferOnlyByTheDependencies) {
  // Same transfers (N x 2(N-1), S / N bytes, r -> r+1), different dependencies: stream (r, k)
  // waits for (r-1, k-1) only; sync also for (r, k-1) and (r+1, k-1). Step 0 waits for nothing.
  const int n = 32;
  gf::Schedule st = gfpeer::peer_ring_schedule(n, gf::Bytes(kSize), RingSemantics::Stream);
  gf::Schedule sy = gfpeer::peer_ring_schedule(n, gf::Bytes(kSize), RingSemantics::Sync);
  ASSERT_EQ(st.size(), sy.size());
  EXPECT_EQ(st.transfer(0).bytes, gf::Bytes(kSize / n));
  EXPECT_TRUE(st.deps(5).empty());
  // Transfer (r = 0, k = 1) has id N: stream needs (31, 0) = id 31; sync (31, 0), (0, 0), (1, 0).
  ASSERT_EQ(st.deps(n).size(), 1u);
  EXPECT_EQ(st.deps(n)[0], 31);
  ASSERT_EQ(sy.deps(n).size(), 3u);
  EXPECT_EQ(sy.deps(n)[0], 31);
  EXPECT_EQ(sy.deps(n)[1], 0);
  EXPECT_EQ(sy.deps(n)[2], 1);
  EXPECT_EQ(st.transfer(n).src, 0);
  EXPECT_EQ(st.transfer(n + 31).dst, 0);
}

}  // namespace
