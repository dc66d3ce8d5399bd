// CollNet Chain (algorithms/collnet_chain.cpp): a chain inside each server, SHARP reduction across.
#include <gtest/gtest.h>

#include "algorithm_check.hpp"
#include "collective/trees.hpp"

using namespace gf;
using algocheck::call;
using algocheck::channels;

namespace {
constexpr int64_t kS = 1 << 20;
}

TEST(AlgorithmCollNetChain, ClosedForms) {
  // 2 x 8 H100, one channel: each server's chain is local 0 (head) .. 7 (tail).
  //   tail (local 7): S up, S back down;
  //   middle (locals 1..6): S up and S down sent, and as much received;
  //   head (local 0): receives S from the chain and S from the network, sends S to the network
  //   (as a group member) and S down the chain.
  auto env = algocheck::setup("dgx-h100", 2, 8);
  const Algorithm& a = algocheck::algo("collnet_chain");
  ASSERT_EQ(a.unsupported(env->comm, CollectiveKind::AllReduce), "");
  Schedule s = a.build(env->comm, call(CollectiveKind::AllReduce, kS), channels(1));
  for (Rank r = 0; r < 16; ++r) {
    const int64_t want = env->comm.local_of[static_cast<size_t>(r)] == 7 ? kS : 2 * kS;
    EXPECT_EQ(s.bytes_sent(r).count(), want) << r;
    EXPECT_EQ(s.bytes_received(r).count(), want) << r;
  }
  // 7 hops up, the network, 7 hops down: 2(ppn-1) + 1 = 15 (NCCL: 2(ppn-1) intraLat + interLat)
  // for one chunk; the other 7 follow a step apart: 22.
  EXPECT_EQ(s.depth(), 15 + kPipelineChunks - 1);
  // The network group is the two heads.
  ASSERT_EQ(s.groups().size(), 1u);
  EXPECT_EQ(s.groups()[0].ranks, (std::vector<Rank>{0, 8}));
  EXPECT_EQ(s.groups()[0].where, ReductionPoint::NetworkSwitch);
  EXPECT_EQ(algocheck::inter_server_bytes(s, env->comm), 0);
  EXPECT_TRUE(algocheck::correct(a, env->comm, call(CollectiveKind::AllReduce, kS)));
}

TEST(AlgorithmCollNetChain, ChannelsRotateTheHeadAndItsNic) {
  // Channel c's head is local c: 3 channels, 3 network groups {c, 8 + c}.
  auto env = algocheck::setup("dgx-h100", 2, 8);
  Schedule s = algocheck::algo("collnet_chain").build(env->comm, call(CollectiveKind::AllReduce, kS), channels(3));
  ASSERT_EQ(s.groups().size(), 3u);
  for (int c = 0; c < 3; ++c) EXPECT_EQ(s.groups()[static_cast<size_t>(c)].ranks, (std::vector<Rank>{c, 8 + c}));
  EXPECT_TRUE(algocheck::correct(algocheck::algo("collnet_chain"), env->comm, call(CollectiveKind::AllReduce, kS), channels(3)));
}

TEST(AlgorithmCollNetChain, RunsWithoutNvSwitchButNeedsSharp) {
  const Algorithm& a = algocheck::algo("collnet_chain");
  EXPECT_NE(a.unsupported(algocheck::setup("aws-p5", 2, 8)->comm, CollectiveKind::AllReduce), "");
  auto three = algocheck::setup("dgx-h100", 3, 4);
  EXPECT_EQ(a.build(three->comm, call(CollectiveKind::AllReduce, kS), channels(1)).depth(), 2 * 3 + 1 + kPipelineChunks - 1);
  EXPECT_TRUE(algocheck::correct(a, three->comm, call(CollectiveKind::AllReduce, kS)));
}
