// Tree (algorithms/tree.cpp): NCCL's double binary tree across servers with a chain inside each,
// checked against the tree shapes drawn in NVIDIA/nccl src/graph/trees.cc and against closed forms.
#include <gtest/gtest.h>

#include "algorithm_check.hpp"
#include "collective/trees.hpp"

using namespace gf;
using algocheck::call;
using algocheck::channels;

namespace {
constexpr int64_t kS = 1 << 20;  // divides by 2 trees x 8 chunks x 4 channels: exact pieces
}

TEST(AlgorithmTree, BinaryTreeIsNcclsDrawing) {
  // trees.cc draws 14 nodes: 0 -> 8; 8 -> 4, 12; 4 -> 2, 6; 12 -> 10, 13; 2 -> 1, 3; 6 -> 5, 7;
  // 10 -> 9, 11 (parent -> children).
  const std::vector<int> want14 = {-1, 2, 4, 2, 8, 6, 4, 6, 0, 10, 12, 10, 8, 12};
  EXPECT_EQ(btree_parents(14), want14);
  // Powers of two: height log2 n (root 0 has one child, then a complete tree of n-1 nodes).
  EXPECT_EQ(tree_height(btree_parents(2)), 1);
  EXPECT_EQ(tree_height(btree_parents(4)), 2);
  EXPECT_EQ(tree_height(btree_parents(8)), 3);
  EXPECT_EQ(tree_height(btree_parents(16)), 4);
  EXPECT_EQ(tree_height(btree_parents(12)), 4);  // 0 -> 8 -> 4 -> 2 -> 1: ceil(log2 12)
}

TEST(AlgorithmTree, SecondTreeMirrorsOrShifts) {
  // Even n (trees.cc's 12-node drawing): tree 1 is tree 0 mirrored, r -> 11-r: root 11 with child
  // 3; 3 -> 1, 7; 1 -> 0, 2; 7 -> 5, 9; 5 -> 4, 6; 9 -> 8, 10.
  const std::vector<int> mirror12 = {1, 3, 1, 11, 5, 7, 5, 3, 9, 7, 9, -1};
  EXPECT_EQ(dtree_parents(12, 1), mirror12);
  // Odd n = 5: tree 0 is 0 -> 4 -> 2 -> {1, 3}; tree 1 shifts every node by one: 1 -> 0 -> 3 -> {2, 4}.
  EXPECT_EQ(dtree_parents(5, 0), (std::vector<int>{-1, 2, 4, 2, 0}));
  EXPECT_EQ(dtree_parents(5, 1), (std::vector<int>{1, -1, 3, 0, 3}));
}

TEST(AlgorithmTree, FourServersOfOneGpuSplitTheLoadAcrossTheTwoTrees) {
  // 4 ranks, one per server, S per rank; each tree carries H = S/2.
  // Tree 0: 0 <- 2 <- {1, 3}. Reduce: 1, 3 send H to 2, 2 sends H to 0; broadcast: 0 -> 2 -> {1, 3}.
  //   sent: r0 H, r1 H, r2 3H, r3 H;  received: r0 H, r1 H, r2 3H, r3 H.
  // Tree 1 (mirror, r -> 3-r): 3 <- 1 <- {2, 0}: sent r3 H, r2 H, r1 3H, r0 H (received alike).
  // Sum: r0 and r3 move S each way, r1 and r2 2S; in all 6S = 2(n-1) x S, as much as a ring.
  auto env = algocheck::setup("dgx-h100", 4, 1);
  Schedule s = algocheck::algo("tree").build(env->comm, call(CollectiveKind::AllReduce, kS), channels(1));
  const int64_t want[4] = {kS, 2 * kS, 2 * kS, kS};
  for (Rank r = 0; r < 4; ++r) {
    EXPECT_EQ(s.bytes_sent(r).count(), want[r]) << r;
    EXPECT_EQ(s.bytes_received(r).count(), want[r]) << r;
  }
  EXPECT_EQ(algocheck::total_sent(s), 2 * 3 * kS);
  // Up 2 levels, down 2: 2 log2(4) = 4 hops, and each edge carries the 8 chunks in order, so the
  // last chunk ends 7 steps after the first: depth 4 + 7 = 11. Transfers: 2 trees x 8 chunks x
  // 2(n-1) edges = 96, each S/16.
  EXPECT_EQ(s.depth(), 4 + kPipelineChunks - 1);
  EXPECT_EQ(s.size(), 96u);
  for (const Transfer& t : s.transfers()) EXPECT_EQ(t.bytes.count(), kS / 16);
  EXPECT_TRUE(algocheck::correct(algocheck::algo("tree"), env->comm, call(CollectiveKind::AllReduce, kS)));
}

TEST(AlgorithmTree, EveryByteCrossesServersLog2NodesTimesEachWay) {
  // The example. A byte climbs the chain (ppn-1 NVLink hops), then log2(nodes) server
  // hops to the root, and comes back: it crosses servers log2(nodes) times up and as many down.
  // One chunk's path is 2((ppn-1) + log2(nodes)) hops (NCCL's tree latency:
  // 2 x ((ppn-1) x intraLat + log2(nNodes) x interLat)); the 8 chunks follow one step apart.
  const Algorithm& tree = algocheck::algo("tree");
  for (int nodes : {2, 4, 8}) {
    const int log2n = nodes == 2 ? 1 : nodes == 4 ? 2 : 3;
    auto env = algocheck::setup("dgx-h100", nodes, 8);
    EXPECT_EQ(algocheck::chunk_inter_server_depth(tree, env->comm, call(CollectiveKind::AllReduce, kS)), 2 * log2n) << nodes;
    Schedule s = tree.build(env->comm, call(CollectiveKind::AllReduce, kS), channels(1));
    EXPECT_EQ(s.depth(), 2 * (7 + log2n) + kPipelineChunks - 1) << nodes;
    // Each tree's nodes-1 server edges carry its half up and down: 2 x (nodes-1) x S in all.
    EXPECT_EQ(algocheck::inter_server_bytes(s, env->comm), 2 * (nodes - 1) * kS) << nodes;
    // Every rank's S is reduced and returned: 2(n-1) x S on the wire, as a ring.
    EXPECT_EQ(algocheck::total_sent(s), 2 * (nodes * 8 - 1) * kS) << nodes;
  }
  // A ring on 4 servers crosses 2 x 4 = 8 times (algorithm_ring_test.cpp); the tree 2 x 2 = 4.
}

TEST(AlgorithmTree, OneServerIsAChain) {
  // 8 GPUs, no servers to join: each tree is the chain 0-1-...-7; 2 x 7 = 14 hops, + 7 chunks.
  auto env = algocheck::setup("dgx-h100", 1, 8);
  Schedule s = algocheck::algo("tree").build(env->comm, call(CollectiveKind::AllReduce, kS), channels(1));
  EXPECT_EQ(s.depth(), 14 + kPipelineChunks - 1);
  EXPECT_TRUE(algocheck::correct(algocheck::algo("tree"), env->comm, call(CollectiveKind::AllReduce, kS)));
}

TEST(AlgorithmTree, ChannelsRotateTheHeadAcrossRails) {
  // Channel c's chains start at local GPU c, so its server-to-server traffic leaves and enters on
  // rail c: every crossing transfer of channel c joins GPUs of local index c. Tree 1 runs on NCCL's
  // channel c + 4, a copy of channel c (src/graph/connect.cc), so on the same rail: c = label mod 4.
  auto env = algocheck::setup("dgx-h100", 4, 8);
  Schedule s = algocheck::algo("tree").build(env->comm, call(CollectiveKind::AllReduce, kS), channels(4));
  int crossings = 0;
  for (const Transfer& t : s.transfers()) {
    if (!algocheck::crosses_servers(t, env->comm)) continue;
    ++crossings;
    EXPECT_EQ(env->comm.local_of[static_cast<size_t>(t.src)], t.channel % 4);
    EXPECT_EQ(env->comm.local_of[static_cast<size_t>(t.dst)], t.channel % 4);
  }
  // 4 channels x 2 trees x 8 chunks x 2 x 3 server edges.
  EXPECT_EQ(crossings, 4 * 2 * 8 * 2 * 3);
}

TEST(AlgorithmTree, CorrectOnOddServerCounts) {
  // 3 and 5 servers: the second tree is the shifted one.
  for (int nodes : {3, 5}) {
    auto env = algocheck::setup("dgx-h100", nodes, 2);
    EXPECT_TRUE(algocheck::correct(algocheck::algo("tree"), env->comm, call(CollectiveKind::AllReduce, kS), channels(2))) << nodes;
  }
}
