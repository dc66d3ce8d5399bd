// NCCL's small-call channel and thread cut (issue 19; collective/nccl_launch.hpp): once the
// algorithm and protocol are chosen, NCCL 2.30.7's topoGetAlgoInfo (src/enqueue.cc) drops
// channels while nBytes < channels x threads x threshold, then halves the threads the same way.
// Every expected figure below is that loop worked by hand.
#include <gtest/gtest.h>

#include <string>

#include "collective/nccl_launch.hpp"
#include "config/presets.hpp"
#include "nccl/nccl_estimate.hpp"
#include "nccl/tuner.hpp"

using namespace gf;

namespace {

constexpr int64_t KiB = 1024;

struct Fixture {
  Cluster cluster;
  Router router;
  Communicator comm;
  Fixture(const std::string& cluster_arg, int nodes, int ppn)
      : cluster(build_cluster(resolve_cluster(cluster_arg))),
        router(cluster),
        comm(make_communicator(cluster, router, nodes, ppn)) {}
};

CollectiveCall all_reduce(int64_t bytes) {
  CollectiveCall c;
  c.kind = CollectiveKind::AllReduce;
  c.bytes = Bytes(bytes);
  return c;
}

std::string validation_cluster(const std::string& name) {
  return std::string(GPUFABRIC_SOURCE_DIR) + "/validation/clusters/" + name + ".yaml";
}

}  // namespace

// Ring/LL on 8 ranks: threshold 8 x 8 = 64 B per thread, 512 threads, so a channel needs
// 512 x 64 = 32 KiB: 16 channels from 16 x 32 KiB = 512 KiB up, floor(bytes / 32 KiB) below.
TEST(Lat7SmallCallChannels, RingLLOnEightRanksKeepsOneChannelPer32KiB) {
  const NcclLaunchRule r = nccl_ring_launch_rule(Protocol::LL, 8, false);
  EXPECT_EQ(r.thread_threshold, 64);
  EXPECT_EQ(r.max_threads, 512);
  EXPECT_EQ(nccl_launch(512 * KiB, 16, r).channels, 16);
  EXPECT_EQ(nccl_launch(512 * KiB - 1, 16, r).channels, 15);  // below 16 x 32 KiB, 15 x 32 KiB fits
  EXPECT_EQ(nccl_launch(256 * KiB, 16, r).channels, 8);
  EXPECT_EQ(nccl_launch(64 * KiB, 16, r).channels, 2);
  EXPECT_EQ(nccl_launch(32 * KiB, 16, r).channels, 1);
  EXPECT_EQ(nccl_launch(32 * KiB, 16, r).threads, 512);  // 32 KiB = 1 x 512 x 64: not below
  // One channel left, the threads halve while 8 KiB < 1 x threads x 64: 512 -> 256 -> 128, where
  // 128 x 64 = 8 KiB is no longer above it.
  EXPECT_EQ(nccl_launch(8 * KiB, 16, r).channels, 1);
  EXPECT_EQ(nccl_launch(8 * KiB, 16, r).threads, 128);
  // 8 B: 512 -> 256 -> 128, and 128 % 128 == 0 once more: 64, which is not a multiple of 128.
  EXPECT_EQ(nccl_launch(8, 16, r).threads, 64);
}

// Tree/LL128: threshold 8, 640 threads, 5120 B a channel; 640 halves once to 320 (not a multiple
// of 128). Ring/Simple on a PCIe graph of at most 12 GB/s: 256 threads x 64 B = 16 KiB a channel.
TEST(Lat7SmallCallChannels, TreeLL128AndPcieRingSimpleThresholds) {
  const NcclLaunchRule tree = nccl_tree_launch_rule(Protocol::LL128);
  EXPECT_EQ(nccl_launch(16 * 5120, 16, tree).channels, 16);
  EXPECT_EQ(nccl_launch(16 * 5120 - 1, 16, tree).channels, 15);
  EXPECT_EQ(nccl_launch(8 * KiB, 16, tree).channels, 1);   // 8192 < 2 x 5120
  EXPECT_EQ(nccl_launch(8 * KiB, 16, tree).threads, 640);  // 8192 >= 1 x 640 x 8
  EXPECT_EQ(nccl_launch(4 * KiB, 16, tree).threads, 320);  // 4096 < 5120: 640 -> 320
  const NcclLaunchRule pcie = nccl_ring_launch_rule(Protocol::Simple, 8, true);
  EXPECT_EQ(pcie.max_threads, 256);
  EXPECT_EQ(nccl_launch(64 * KiB, 2, pcie).channels, 2);  // 64 KiB >= 2 x 16 KiB
  EXPECT_EQ(nccl_launch(16 * KiB, 2, pcie).channels, 1);  // 16 KiB < 32 KiB
  // NVLS, PAT and the algorithms NCCL lacks cut nothing.
  EXPECT_EQ(nccl_launch(8, 16, NcclLaunchRule{}).channels, 16);
}

// One DGX H100 (the dgx-h100-1node set's cluster): NCCL's model takes ring/LL from 8 B to 512 KiB
// (docs/accuracy.md), so the run gets 1 channel up to 32 KiB, 2 at 64 KiB, 4 at 128 KiB, 16 at
// 512 KiB. The figure that ranked the candidates is NCCL's on the whole graph's 16 channels, as
// NCCL's cost table is: the same with and without the cut.
TEST(Lat7SmallCallChannels, OneDgxH100RingLLRunsOnFewerChannels) {
  Fixture s(validation_cluster("dgx-h100-1node"), 1, 8);
  const int64_t sizes[] = {8 * KiB, 16 * KiB, 32 * KiB, 64 * KiB, 128 * KiB, 512 * KiB};
  const int channels[] = {1, 1, 1, 2, 4, 16};
  for (size_t i = 0; i < 6; ++i) {
    TunerChoice t = choose(s.comm, s.router, all_reduce(sizes[i]), "auto", "auto");
    EXPECT_EQ(t.algorithm, "ring") << sizes[i];
    EXPECT_EQ(t.proto, Protocol::LL) << sizes[i];
    EXPECT_EQ(t.channels, channels[i]) << sizes[i];
  }
  // The estimate: 6.6 + 14 x 0.6 = 15.0 us + 8192 B at min(141, 0.5 x bwIntra) x 8/14 GB/s: the
  // ranking figure does not depend on the cut, so forcing 16 channels back gives the same one.
  const TunerChoice t = choose(s.comm, s.router, all_reduce(8 * KiB), "auto", "auto");
  const Algorithm& ring = *find_algorithm("ring");
  EXPECT_EQ(t.predicted, *ring.estimate(estimate_input(s.comm, all_reduce(8 * KiB)), Protocol::LL, 16));
}

// A forced choice is cut too (NCCL cuts after NCCL_ALGO/NCCL_PROTO have had their say): ring/Simple
// at 64 KiB keeps 64 KiB / (512 x 64 B) = 2 channels; NVLS keeps its 16 whatever the size.
TEST(Lat7SmallCallChannels, ForcedChoicesAreCutAndNvlsIsNot) {
  Fixture s(validation_cluster("dgx-h100-1node"), 1, 8);
  EXPECT_EQ(choose(s.comm, s.router, all_reduce(64 * KiB), "ring", "simple").channels, 2);
  EXPECT_EQ(choose(s.comm, s.router, all_reduce(64 * KiB), "nvls", "simple").channels, 16);
  EXPECT_EQ(default_channels(s.comm, "ring"), 16);
}
