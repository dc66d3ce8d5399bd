// NVLS tree (algorithms/nvlstree.cpp): in-switch reduction inside each server, double binary tree
// across servers among GPUs of the same local index.
#include <gtest/gtest.h>

#include "algorithm_check.hpp"
#include "collective/trees.hpp"

using namespace gf;
using algocheck::call;
using algocheck::channels;

namespace {
constexpr int64_t kS = 1 << 20;  // divides by 8 slices x 2 trees x 8 chunks x 2 channels
}

TEST(AlgorithmNvlsTree, TwoServersClosedForms) {
  // 2 x 8 H100. Slice l = S/8 goes to GPU l; each of the two trees carries half, H = S/16.
  // Tree 0: server 1 -> server 0 (up), 0 -> 1 (down); tree 1 the mirror. Per rank:
  //   switch load-reduce: member of 8 slices' worth: S out; its own slice S/8 in;
  //   trees: H up + H down on one tree, H down + H up on the other: S/8 out, S/8 in;
  //   multicast: its slice S/8 out; every slice of its server, S, in.
  // Total (1 + 2/8) S = 1.25 MiB each way.
  auto env = algocheck::setup("dgx-h100", 2, 8);
  const Algorithm& a = algocheck::algo("nvlstree");
  ASSERT_EQ(a.unsupported(env->comm, CollectiveKind::AllReduce), "");
  Schedule s = a.build(env->comm, call(CollectiveKind::AllReduce, kS), channels(1));
  EXPECT_TRUE(algocheck::each_rank_moves(s, kS + kS / 4, kS + kS / 4));
  // One NVSwitch group per server.
  ASSERT_EQ(s.groups().size(), 2u);
  for (const RankGroup& g : s.groups()) {
    EXPECT_EQ(g.ranks.size(), 8u);
    EXPECT_EQ(g.where, ReductionPoint::NvSwitch);
  }
  // One chunk: load-reduce, 1 hop up, 1 hop down, multicast = 4 (1 + 2 log2(2) + 1); the 8
  // chunks follow in order on every edge: depth 4 + 7 = 11.
  EXPECT_EQ(s.depth(), 4 + kPipelineChunks - 1);
  // Server-to-server: 8 slices x 2 trees x (H up + H down) = 2 S = 2(nodes-1) S; on one rail each.
  EXPECT_EQ(algocheck::inter_server_bytes(s, env->comm), 2 * kS);
  for (const Transfer& t : s.transfers()) {
    if (algocheck::crosses_servers(t, env->comm)) {
      EXPECT_EQ(env->comm.local_of[static_cast<size_t>(t.src)], env->comm.local_of[static_cast<size_t>(t.dst)]);
    }
  }
  EXPECT_TRUE(algocheck::correct(a, env->comm, call(CollectiveKind::AllReduce, kS), channels(2)));
}

TEST(AlgorithmNvlsTree, CrossesServersLog2NodesTimesEachWay) {
  // 4 servers: a chunk takes 1 + 2 x 2 + 1 = 6 steps (+ 7 for the later chunks); a byte crosses
  // servers 2 times up and 2 down.
  auto env = algocheck::setup("dgx-h100", 4, 2);
  const Algorithm& a = algocheck::algo("nvlstree");
  Schedule s = a.build(env->comm, call(CollectiveKind::AllReduce, kS), channels(1));
  EXPECT_EQ(s.depth(), 6 + kPipelineChunks - 1);
  EXPECT_EQ(algocheck::chunk_inter_server_depth(a, env->comm, call(CollectiveKind::AllReduce, kS)), 4);
  EXPECT_TRUE(algocheck::correct(a, env->comm, call(CollectiveKind::AllReduce, kS)));
  auto three = algocheck::setup("dgx-h100", 3, 4);
  EXPECT_TRUE(algocheck::correct(a, three->comm, call(CollectiveKind::AllReduce, kS), channels(2)));
}

TEST(AlgorithmNvlsTree, NeedsServersWithInSwitchReduction) {
  const Algorithm& a = algocheck::algo("nvlstree");
  EXPECT_NE(a.unsupported(algocheck::setup("dgx-h100", 1, 8)->comm, CollectiveKind::AllReduce), "");  // one server
  EXPECT_NE(a.unsupported(algocheck::setup("dgx-a100", 2, 8)->comm, CollectiveKind::AllReduce), "");  // no NVLS
  EXPECT_NE(a.unsupported(algocheck::setup("dgx-h100", 2, 8)->comm, CollectiveKind::AllGather), "");
}
