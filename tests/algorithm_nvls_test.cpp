// NVLS (algorithms/nvls.cpp): in-switch reduction on NVSwitch inside one NVLink domain.
#include <gtest/gtest.h>

#include "algorithm_check.hpp"
#include "collective/trees.hpp"

using namespace gf;
using algocheck::call;
using algocheck::channels;

namespace {
constexpr int kN = 8;
constexpr int64_t kS = 1 << 20;  // divides by 8 ranks x 8 chunks x 2 channels
}  // namespace

TEST(AlgorithmNvls, AllReduceIsALoadReduceAndAMulticastPerSlice) {
  auto env = algocheck::setup("dgx-h100", 1, kN);
  const Algorithm& nvls = algocheck::algo("nvls");
  ASSERT_EQ(nvls.unsupported(env->comm, CollectiveKind::AllReduce), "");
  Schedule s = nvls.build(env->comm, call(CollectiveKind::AllReduce, kS), channels(2));
  // One group: all 8 ranks, reducing in the NVSwitch.
  ASSERT_EQ(s.groups().size(), 1u);
  EXPECT_EQ(s.groups()[0].ranks.size(), static_cast<size_t>(kN));
  EXPECT_EQ(s.groups()[0].where, ReductionPoint::NvSwitch);
  // NCCL's chunk (enqueue.cc): ops = 2 channels x 8 heads = 16; 1 MiB is below 64 x 16 x 128 KiB
  // (-> 64 KiB) and 8 x 16 x 64 KiB (-> 32 KiB), not below 2 x 16 x 32 KiB = 1 MiB: 32 KiB. Per
  // channel, per slice p (S/n over 2 channels = 64 KiB), 2 chunks of 32 KiB each: a switch
  // load-reduce into p, then p's multicast: 2 x 8 x 2 x 2 = 64 transfers. A chunk takes 2 steps;
  // a channel handles its chunks in order, so the 2nd multicast ends 1 step later: depth 3.
  EXPECT_EQ(s.size(), static_cast<size_t>(2 * kN * 2 * 2));
  EXPECT_EQ(s.depth(), 2 + 2 - 1);
  for (const Transfer& t : s.transfers()) {
    EXPECT_EQ(t.bytes.count(), kS / (kN * 2 * 2));
    EXPECT_EQ(t.reduce.count(), 0);  // the switch adds, not the GPU
    EXPECT_TRUE(is_group(t.src) != is_group(t.dst));
  }
  // Each rank supplies its part of every slice's load-reduce (n x S/n = S) and multicasts its
  // own slice (S/n); it gets its reduced slice (S/n) and every multicast (n x S/n = S):
  // (n+1)/n x S each way = 9/8 MiB.
  EXPECT_TRUE(algocheck::each_rank_moves(s, kS + kS / kN, kS / kN + kS));
  EXPECT_TRUE(algocheck::correct(nvls, env->comm, call(CollectiveKind::AllReduce, kS), channels(2)));
}

TEST(AlgorithmNvls, ReduceScatterAndAllGatherAreOneHalfEach) {
  auto env = algocheck::setup("dgx-h100", 1, kN);
  const Algorithm& nvls = algocheck::algo("nvls");
  // ReduceScatter (S counts all n blocks): each rank supplies S, receives its block S/n; 1 step
  // per chunk, its chunks in order. NCCL's chunk for 1 channel x 8 ranks (ops = 8): 1 MiB is below
  // 64 x 8 x 128 KiB and 8 x 8 x 64 KiB, not below 2 x 8 x 32 KiB: 32 KiB, so a 128 KiB block is
  // 4 chunks.
  Schedule rs = nvls.build(env->comm, call(CollectiveKind::ReduceScatter, kS), channels(1));
  EXPECT_EQ(rs.depth(), 4);
  EXPECT_TRUE(algocheck::each_rank_moves(rs, kS, kS / kN));
  // AllGather: each rank multicasts its block S/n and receives all n (its own included): S.
  Schedule ag = nvls.build(env->comm, call(CollectiveKind::AllGather, kS), channels(1));
  EXPECT_EQ(ag.depth(), 4);
  EXPECT_TRUE(algocheck::each_rank_moves(ag, kS / kN, kS));
  for (CollectiveKind k : {CollectiveKind::ReduceScatter, CollectiveKind::AllGather})
    EXPECT_TRUE(algocheck::correct(nvls, env->comm, call(k, kS), channels(2))) << to_string(k);
}

TEST(AlgorithmNvls, NeedsInSwitchReductionInOneDomain) {
  const Algorithm& nvls = algocheck::algo("nvls");
  // A100's NVSwitch gen 2 does not reduce; PCIe servers have no NVSwitch; two H100 servers are
  // two NVLink domains joined by InfiniBand.
  EXPECT_NE(nvls.unsupported(algocheck::setup("dgx-a100", 1, 8)->comm, CollectiveKind::AllReduce), "");
  EXPECT_NE(nvls.unsupported(algocheck::setup("pcie-8gpu", 1, 8)->comm, CollectiveKind::AllReduce), "");
  EXPECT_NE(nvls.unsupported(algocheck::setup("dgx-h100", 2, 8)->comm, CollectiveKind::AllReduce), "");
  EXPECT_NE(nvls.unsupported(algocheck::setup("dgx-h100", 1, 8)->comm, CollectiveKind::Broadcast), "");
}

TEST(AlgorithmNvls, SpansTheTraysOfAnNvl72Domain) {
  // Two GB200 trays (4 GPUs each) share the rack's NVLink domain: one group of 8 ranks.
  auto env = algocheck::setup("gb200-nvl72", 2, 4);
  const Algorithm& nvls = algocheck::algo("nvls");
  ASSERT_EQ(nvls.unsupported(env->comm, CollectiveKind::AllReduce), "");
  Schedule s = nvls.build(env->comm, call(CollectiveKind::AllReduce, kS), channels(1));
  EXPECT_EQ(s.groups()[0].ranks.size(), 8u);
  EXPECT_TRUE(algocheck::correct(nvls, env->comm, call(CollectiveKind::AllReduce, kS)));
}
