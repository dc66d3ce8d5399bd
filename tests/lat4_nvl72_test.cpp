// GB200 NVL72 as NCCL 2.27.3 runs it (issue 19, NVL72 ramp and plateau, multi-rack NVLS-tree):
// 32 NVLS heads on a rack (src/graph/search.cc, ncclTopoCompute: min(NCCL_MAX_NVLS_ARITY = 32,
// GPUs)), and every GPU's NVLS traffic held to the per-GPU NVLS rate (collective/nvls_switch_rate.hpp:
// 0.633 of the NVLink rate, FITTED to gb200-16tray-1rack's 8 GiB row; the figures below are the
// other domain sizes and sizes, held out).
//
// Constants used by hand: a GB200's NVLink is 18 links x 50 GB/s x 40.1/50 (NCCL's sm100 figure) =
// 721.8 GB/s; NCCL's Blackwell nvlsEfficiency 0.74; the per-GPU NVLS fraction 0.633, so a capped
// GPU moves its S at 0.633 x 721.8 = 456.9 GB/s; NVLS chunks per NCCL's enqueue.cc rule
// (nccl_pipeline.hpp) with 16 channels; (K + 1) / K the reduce-then-multicast fill of K chunks.
#include <gtest/gtest.h>

#include <string>

#include "collective/algorithm.hpp"
#include "collective/nvls_switch_rate.hpp"
#include "config/presets.hpp"
#include "engine/executor.hpp"
#include "flow_allreduce.hpp"
#include "model/flow/flow_model.hpp"

using namespace gf;

namespace {

constexpr double kNvlink = 18 * 50e9 * 40.1 / 50;  // 721.8 GB/s
constexpr double kCapped = 0.633 * kNvlink;          // 456.9 GB/s of S per GPU

double allreduce_seconds(int trays, const char* algo, Bytes bytes) {
  return gftest::flow_allreduce_seconds(build_cluster(resolve_cluster("gb200-nvl72-cluster")), trays, 4, algo, bytes);
}

}  // namespace

TEST(Lat4Nvl72, InSwitchEfficiencyIsNcclsUntilTheHeadsOutgrowThePerGpuRate) {
  // min(0.74, 0.633 x (1 + 1/H)): H = 4 (one tray) 0.791 -> NCCL's 0.74; H = 8 0.712; H = 32
  // 0.6528. Hopper has no measured domain above 8 GPUs: NCCL's 0.85 whatever H.
  EXPECT_DOUBLE_EQ(nvls_switch_efficiency("blackwell", 4), 0.74);
  EXPECT_NEAR(nvls_switch_efficiency("blackwell", 8), 0.633 * 1.125, 1e-12);
  EXPECT_NEAR(nvls_switch_efficiency("blackwell", 32), 0.633 * 33 / 32, 1e-12);
  EXPECT_DOUBLE_EQ(nvls_switch_efficiency("hopper", 32), 0.85);
}

TEST(Lat4Nvl72, PlateauIsFlatFromOneTrayToAFullRack) {
  // 8 GiB. One tray (4 GPUs, 4 heads): NCCL's efficiency binds, a GPU moves S(1 + 1/4) at 0.74 x
  // 721.8 = 534.1 GB/s; a slice per channel is 8 GiB / 16 / 4 = 128 MiB, held to 128 chunks:
  // t = 8589934592 x 1.25 / 534.13e9 x 129/128 = 20.26 ms (algbw 424 GB/s; measured on OCI 442).
  // A full 72-GPU rack (18 trays, 32 heads): the per-GPU rate binds, S / 456.9 GB/s, 128 chunks a
  // slice (8 GiB / 16 / 32 = 16 MiB = 128 x 128 KiB): t = 8589934592 / 456.9e9 x 129/128 = 18.95
  // ms (algbw 453 GB/s; a public 72-GPU run, together.ai rack R01, 464 at 32 GiB). Flat within
  // 7 %, where a link-bound S(1 + 1/32) would make the rack 21 % faster than the tray.
  const double S = 8589934592.0;
  const double tray = allreduce_seconds(1, "nvls", Bytes::gib(8));
  const double tray_bound = S * 1.25 / (kNvlink * 0.74) * 129 / 128;
  EXPECT_NEAR(tray, tray_bound, 0.005 * tray_bound);
  const double rack = allreduce_seconds(18, "nvls", Bytes::gib(8));
  const double rack_bound = S / kCapped * 129 / 128;
  EXPECT_GE(rack, rack_bound);
  EXPECT_LE(rack, rack_bound + 40e-6);  // plus NCCL's NVLS latency (25 us), once
  EXPECT_LT(tray / rack, 1.07);
  EXPECT_GT(tray / rack, 1.0);
}

TEST(Lat4Nvl72, RampFollowsNcclsChunksOnAFullRack) {
  // 72 GPUs, 32 heads, 16 channels: ops = 16 x 32 = 512 (enqueue.cc). 64 MiB is below 64 x 512 x
  // 128 KiB = 4 GiB (-> 64 KiB), below 8 x 512 x 64 KiB = 256 MiB (-> 32 KiB), not below 2 x 512
  // x 32 KiB = 32 MiB: chunk 32 KiB, a slice per channel 64 MiB / 512 = 128 KiB = 4 chunks, fill
  // 5/4: t = 67108864 / 456.9e9 x 5/4 = 183.6 us (algbw 366, 81 % of the plateau's 453).
  // 512 MiB: below 4 GiB (64 KiB), not below 256 MiB: 64 KiB, a slice 1 MiB = 16 chunks, fill
  // 17/16: t = 536870912 / 456.9e9 x 17/16 = 1248.5 us.
  const double t64 = allreduce_seconds(18, "nvls", Bytes::mib(64));
  const double b64 = 67108864.0 / kCapped * 5 / 4;
  EXPECT_GE(t64, b64);
  EXPECT_LE(t64, b64 + 40e-6);
  const double t512 = allreduce_seconds(18, "nvls", Bytes::mib(512));
  const double b512 = 536870912.0 / kCapped * 17 / 16;
  EXPECT_GE(t512, b512);
  EXPECT_LE(t512, b512 + 40e-6);
}

TEST(Lat4Nvl72, MultiRackNvlsTreePaysItsChunkPipelineAndNeverBeatsOneRack) {
  // NVLS-tree, 4 GiB, 16 channels, 32 heads a rack (heads' NICs carry S/32 each way on two racks,
  // 1.5 S/32 at most on three: 2.9-4.3 ms at 46 GB/s, never binding). A half-slice is 4 GiB / 16 /
  // 32 / 2 = 4 MiB = K = 32 NVLS chunks of 128 KiB, through D = 1 + 2h + 1 stages (h the taller
  // tree's height: 1 on two racks, 2 on three, trees.cpp 0 <- 2 <- 1 and its shift), so the
  // in-switch stages run at K / (K + D - 1) of the per-GPU rate (steady_tree.cpp):
  //   two racks:   4294967296 / (456.9e9 x 32/35) = 10.28 ms (algbw 418 GB/s)
  //   three racks: 4294967296 / (456.9e9 x 32/37) = 10.87 ms (algbw 395 GB/s)
  // measured on OCI (marginal from 4 -> 8 GiB): one rack 473, two 429, three 403 GB/s.
  const double S = 4294967296.0;
  const double one = allreduce_seconds(18, "nvls", Bytes::gib(4));
  const double two = allreduce_seconds(36, "nvlstree", Bytes::gib(4));
  const double three = allreduce_seconds(54, "nvlstree", Bytes::gib(4));
  const double b2 = S / (kCapped * 32 / 35), b3 = S / (kCapped * 32 / 37);
  EXPECT_GE(two, b2);
  EXPECT_LE(two, b2 + 60e-6);  // plus NCCL's latencies: 25 us NVLink once, 2 log2(nodes) x 20.9 us
  EXPECT_GE(three, b3);
  EXPECT_LE(three, b3 + 80e-6);
  EXPECT_LT(one, two);
  EXPECT_LT(two, three);
}
