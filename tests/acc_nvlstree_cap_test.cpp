// NCCL's per-channel NVLS-tree cap (issue 19): tuning.cc multiplies perChMaxNVLSTreeBws by the
// channel count of its NVLS graph, one channel per head GPU (connect.cc collects nvlsHeads from
// graphs[NVLS]'s channels), so NVLS-tree's busBw is capped at heads x perChMax, heads =
// min(GPUs per server, 16), not at the 16 CUDA channels the collective runs on.
#include <gtest/gtest.h>

#include "algorithm_check.hpp"

using namespace gf;

namespace {

EstimateInput two_servers(const std::string& arch, int ppn, int64_t bytes) {
  EstimateInput in;
  in.nranks = 2 * ppn;
  in.nnodes = 2;
  in.ppn = ppn;
  in.nvlink = true;
  in.arch = arch;
  in.bw_intra = 10000;  // GB/s: far above the cap, so only the cap binds
  in.bw_inter = 10000;
  in.kind = CollectiveKind::AllReduce;
  in.bytes = Bytes(bytes);
  return in;
}

double estimate_us(const EstimateInput& in) {
  return algocheck::algo("nvlstree").estimate(in, Protocol::Simple, 16)->to_us();
}

}  // namespace

TEST(AccNvlsTreeCap, TwoB300ServersAreCappedAtEightHeadsTimes96) {
  // 2 servers x 8 Blackwell GPUs: cap 8 heads x 96 GB/s = 768 GB/s busBw; algBw = busBw x n / (2(n-1))
  // = 768 x 16 / 30 = 409.6 GB/s. Latency: NVLSTree Simple NVLink 25 us once, plus 2 log2(2) = 2
  // network hops of 20.9 us (tuning.cc hwLat), no transport term: 66.8 us. At 8 GiB:
  //   66.8 + 8589934592 B / 409.6 GB/s = 66.8 + 20971.52 = 21038.32 us
  // (measured on OCI B300, validation set b300-2node-roce: 21012 us). With the 16 CUDA channels
  // the cap would be 1536 GB/s and the estimate 10552.6 us.
  const int64_t bytes = int64_t{8} << 30;
  EXPECT_NEAR(estimate_us(two_servers("blackwell", 8, bytes)), 66.8 + bytes / (1000.0 * 768 * 16 / 30), 0.01);
}

TEST(AccNvlsTreeCap, TheCapFollowsTheHeadsAndTheArchitecture) {
  // Hopper, 8 GPUs: 8 x 57.7 = 461.6 GB/s; Blackwell with 4 GPUs per server: 4 x 96 = 384 GB/s.
  // Same latency as above; the algBw factor n / (2(n-1)) is 16/30 and 8/14.
  const int64_t bytes = int64_t{1} << 30;
  EXPECT_NEAR(estimate_us(two_servers("hopper", 8, bytes)), 66.8 + bytes / (1000.0 * 461.6 * 16 / 30), 0.01);
  EXPECT_NEAR(estimate_us(two_servers("blackwell", 4, bytes)), 66.8 + bytes / (1000.0 * 384 * 8 / 14), 0.01);
}
