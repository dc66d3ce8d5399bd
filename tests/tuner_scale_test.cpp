// The tuner on a communicator too large to cost by running schedules: NCCL's closed form
// (nccl/nccl_estimate.cpp) must pick what NCCL's own model picks.
#include <gtest/gtest.h>

#include "collective/steady_state.hpp"
#include "config/presets.hpp"
#include "nccl/nccl_estimate.hpp"
#include "nccl/tuner.hpp"

using namespace gf;

namespace {

struct Big {
  Cluster cluster;
  Router router;
  Communicator comm;
  // 2,048 DGX H100 (16,384 GPUs, 3-tier rail-optimized NDR), with the fabric's SHARP turned off.
  Big() : cluster(build_cluster(resolve_cluster("dgx-h100", 2048))), router((cluster.set_fabric_reduces(false), cluster)),
          comm(make_communicator(cluster, router, 2048, 8)) {}
};

CollectiveCall all_reduce(int64_t bytes) {
  CollectiveCall c;
  c.kind = CollectiveKind::AllReduce;
  c.bytes = Bytes(bytes);
  return c;
}

}  // namespace

TEST(TunerScale, LargeAllReduceOn16kH100WithoutSharpIsNvlsTree) {
  Big b;
  ASSERT_FALSE(b.comm.collnet);
  const CollectiveCall c = all_reduce(int64_t{1} << 30);
  // One channel of ring is 2 x 16,383 x 16,384 transfers step by step: the closed form decides.
  ASSERT_GT(find_algorithm("ring")->step_transfers(b.comm, c, 1), kStepScheduleBudget);
  // NCCL's model (validation README sections 1-4), n = 16,384 ranks on 2,048 nodes, ppn 8,
  // 16 channels; per GPU 8 NDR NICs / 8 GPUs = 50 GB/s, so the server's NICs give bwInter =
  // 400 GB/s, below NVLink's bwIntra:
  //  - ring/Simple: latency 1.4 x ((2 x 16,383 - 2 x 2,047) x 3.4 + 2 x 2,047 x 14) + 8.4
  //    = 1.4 x (97,485 + 57,316) + 8.4 = 216,730 us: hopeless at this size whatever its bandwidth;
  //  - tree/Simple: latency 8.4 + 2 x (7 x 4.0 + log2(2,048) x 14) = 8.4 + 2 x 182 = 372 us;
  //    algBw = min(0.92 x 400, 16 x 36.0) x 0.85 (TREE pattern) x 0.5 = 156 GB/s: 2^30 B in
  //    6,860 us, 7,230 us in all;
  //  - nvlstree: latency 25 + 2 x 11 x 20.9 = 485 us; bw = min(bwIntra x 0.85 x 15/16 x 2,
  //    bwInter 400, 16 x 45.5 = 728) = 400, algBw = 400 x n / 2(n-1) = 200 GB/s: 5,370 us,
  //    5,855 us in all: NVLS tree, as NCCL picks on H100 clusters without SHARP.
  TunerChoice t = choose(b.comm, b.router, c, "auto", "auto");
  EXPECT_EQ(t.algorithm, "nvlstree");
  EXPECT_EQ(t.proto, Protocol::Simple);
  EXPECT_NEAR(t.predicted.to_us(), 5855, 60);
}

TEST(TunerScale, SmallAllReduceOn16kH100IsTreeWithLowLatencyProtocol) {
  Big b;
  // 64 KiB: latency decides. tree/LL: 6.8 + 2 x (7 x 0.6 + 11 x 5.0) = 125 us, plus 65,536 B at
  // algBw min(400 / 3.8, llMax 35) x 0.85 x 0.5 x 0.6 (correction at 2^10 x 64 B) = 8.9 GB/s:
  // 7.3 us, 133 us in all; tree/LL128: 14 + 2 x (7 x 1.25 + 11 x 8.5) = 219 us; nvlstree 485 us;
  // ring/LL: 6.6 + 28,672 x 1.0 + 4,094 x 2.7 = 39,733 us.
  TunerChoice t = choose(b.comm, b.router, all_reduce(int64_t{64} << 10), "auto", "auto");
  EXPECT_EQ(t.algorithm, "tree");
  EXPECT_EQ(t.proto, Protocol::LL);
}

TEST(TunerScale, ForcedRingStillPicksItsProtocolByTheClosedForm) {
  Big b;
  // Ring forced at 1 GiB: Simple's bandwidth (400 x n/2(n-1) = 200 GB/s) against LL128's
  // min(0.92 x 400, 16 x 36.7) = 368 -> 184 GB/s and LL's 35 -> 17.5 GB/s; but the latency
  // dominates: Simple 216,730 us, LL128 14 + 28,672 x max(1.9, 1.0) + 4,094 x 4.0 = 70,867 us
  // plus 5,835 us of bandwidth; LL 39,733 + 61,356 us. LL128 wins.
  TunerChoice t = choose(b.comm, b.router, all_reduce(int64_t{1} << 30), "ring", "auto");
  EXPECT_EQ(t.algorithm, "ring");
  EXPECT_EQ(t.proto, Protocol::LL128);
}
