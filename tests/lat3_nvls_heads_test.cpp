// NVLS inside one NVLink domain as NCCL runs it (issue 19): its all-reduce slices belong to the
// NVLS heads (nvls.nHeads, the same heads as NVLS-tree: 32 on an NVL72 rack), and each slice is
// cut into NCCL's own chunks (enqueue.cc), not at most 8. With both, one rack is no longer slower
// per byte than two (validation/clusters/oci-gb200-48tray-ib.yaml, 4-8 GiB).
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "algorithm_check.hpp"
#include "collective/algorithm.hpp"
#include "config/presets.hpp"
#include "engine/executor.hpp"
#include "flow_allreduce.hpp"
#include "model/flow/flow_model.hpp"

using namespace gf;
using algocheck::call;
using algocheck::channels;

namespace {

const std::string kOciGb200 = std::string(GPUFABRIC_SOURCE_DIR) + "/validation/clusters/oci-gb200-48tray-ib.yaml";

double allreduce_seconds(const std::string& cluster, int trays, const char* algo, Bytes bytes) {
  return gftest::flow_allreduce_seconds(build_cluster(resolve_cluster(cluster)), trays, 4, algo, bytes);
}

}  // namespace

TEST(Lat3NvlsHeads, ThirtyTwoHeadsOwnTheSlicesOfA64GpuRack) {
  // 16 trays x 4 GPUs = 64 ranks, one NVLink domain, one channel, 64 MiB: the load-reduce results
  // go to 32 heads (min(NCCL_MAX_NVLS_ARITY = 32, 64 GPUs), NCCL v2.27.3 search.cc), one every
  // 64/32 = 2 local positions, S/32 = 2 MiB each, and each head multicasts its 2 MiB; the other
  // 32 GPUs receive no load-reduce result.
  auto env = algocheck::setup("gb200-nvl72", 16, 4);
  ASSERT_TRUE(env->comm.one_domain);
  ASSERT_EQ(env->comm.nranks, 64);
  const int64_t S = 64 << 20;
  Schedule s = algocheck::algo("nvls").build(env->comm, call(CollectiveKind::AllReduce, S), channels(1));
  std::map<int, int64_t> reduced, multicast;
  for (const Transfer& t : s.transfers()) {
    if (is_group(t.src)) reduced[env->comm.local_of[static_cast<size_t>(t.dst)]] += t.bytes.count();
    else multicast[env->comm.local_of[static_cast<size_t>(t.src)]] += t.bytes.count();
  }
  ASSERT_EQ(reduced.size(), 32u);
  ASSERT_EQ(multicast.size(), 32u);
  for (int j = 0; j < 32; ++j) {
    EXPECT_EQ(reduced[2 * j], S / 32) << "head " << j;
    EXPECT_EQ(multicast[2 * j], S / 32) << "head " << j;
  }
  // ReduceScatter keeps one block per rank: all 64 receive one.
  Schedule rs = algocheck::algo("nvls").build(env->comm, call(CollectiveKind::ReduceScatter, S), channels(1));
  std::set<int> receivers;
  for (const Transfer& t : rs.transfers()) receivers.insert(t.dst);
  EXPECT_EQ(receivers.size(), 64u);
}

TEST(Lat3NvlsHeads, OneGb200RackAt8GiBMeetsItsHeadBoundAndBeatsTwo) {
  // One rack (16 trays, 64 GPUs), 8 GiB, 16 channels, 32 heads: a head's NVLinks carry S + S/32
  // each way at 18 x 50 GB/s x 40.1/50 (NCCL's sm100 figure) x min(0.74, 0.633 x (1 + 1/32))
  // (NCCL's Blackwell nvlsEfficiency held to the per-GPU NVLS rate, nvls_switch_rate.hpp, whose
  // 0.633 is FITTED to this very row, measured 18967 us) = 471.2 GB/s. NCCL's chunk: ops = 16 x
  // 32 = 512, 8 GiB is not below 64 x 512 x 128 KiB = 4 GiB, so 128 KiB; a head's slice per
  // channel is 8 GiB / 16 / 32 = 16 MiB = 128 chunks, whose reduce-then-multicast fill costs
  // (K + 1) / K = 129/128: t >= 8589934592 x (33/32) / 471.2e9 x 129/128 = 18.947 ms, plus
  // NCCL's NVLS latency once.
  const double one = allreduce_seconds(kOciGb200, 16, "nvls", Bytes::gib(8));
  const double bound = 8589934592.0 * (1 + 1.0 / 32) / (900e9 * 40.1 / 50 * 0.633 * (1 + 1.0 / 32)) * 129 / 128;
  EXPECT_GE(one, bound);
  EXPECT_LE(one, bound + 100e-6);
  // Two racks (32 trays) reduce and broadcast inside each rack too, and cross the NICs: never
  // faster per byte than one rack.
  const double two = allreduce_seconds(kOciGb200, 32, "nvlstree", Bytes::gib(8));
  EXPECT_GT(two, one);
}
