// Ring (algorithms/ring.cpp) against its closed forms (Patarasuk & Yuan, JPDC 2009), and proved a
// correct collective by the symbolic checker (algorithm_check.hpp).
#include <gtest/gtest.h>

#include "algorithm_check.hpp"
#include "collective/trees.hpp"

using namespace gf;
using algocheck::call;
using algocheck::channels;

namespace {

// 2 DGX H100 servers x 8 GPUs: n = 16 ranks. S = 1 MiB divides by n x C for C = 1, 2, 4, so every
// piece below is exact.
constexpr int kN = 16;
constexpr int64_t kS = 1 << 20;

}  // namespace

TEST(AlgorithmRing, AllReduceSendsTwoNMinusOneOverNOfTheBufferInTwoNMinusOneSteps) {
  auto env = algocheck::setup("dgx-h100", 2, 8);
  const Algorithm& ring = algocheck::algo("ring");
  for (int C : {1, 2}) {
    Schedule s = ring.build(env->comm, call(CollectiveKind::AllReduce, kS), channels(C));
    // Reduce-scatter then all-gather: 2(n-1) = 30 steps, each step one piece of S/(nC) per rank
    // per channel; per rank 2(n-1)/n x S = 30/16 x 1 MiB = 1,966,080 bytes out and in.
    EXPECT_EQ(s.depth(), 2 * (kN - 1));
    EXPECT_EQ(s.size(), static_cast<size_t>(C * 2 * (kN - 1) * kN));
    for (const Transfer& t : s.transfers()) EXPECT_EQ(t.bytes.count(), kS / (kN * C));
    for (Rank r = 0; r < kN; ++r) {
      EXPECT_EQ(s.bytes_sent(r).count(), 2 * (kN - 1) * kS / kN);
      EXPECT_EQ(s.bytes_received(r).count(), 2 * (kN - 1) * kS / kN);
    }
    // The first n-1 steps reduce on arrival, the last n-1 copy.
    int reducing = 0;
    for (const Transfer& t : s.transfers()) reducing += t.reduce.count() > 0;
    EXPECT_EQ(reducing, C * (kN - 1) * kN);
    EXPECT_TRUE(algocheck::correct(ring, env->comm, call(CollectiveKind::AllReduce, kS), channels(C)));
  }
}

TEST(AlgorithmRing, ReduceScatterAndAllGatherAreOneHalfEach) {
  auto env = algocheck::setup("dgx-h100", 2, 8);
  const Algorithm& ring = algocheck::algo("ring");
  for (CollectiveKind k : {CollectiveKind::ReduceScatter, CollectiveKind::AllGather}) {
    // nccl-tests' size S counts all n blocks: n-1 steps of one block S/n, (n-1)/n x S per rank.
    Schedule s = ring.build(env->comm, call(k, kS), channels(2));
    EXPECT_EQ(s.depth(), kN - 1);
    EXPECT_EQ(s.size(), static_cast<size_t>(2 * (kN - 1) * kN));
    for (Rank r = 0; r < kN; ++r) EXPECT_EQ(s.bytes_sent(r).count(), (kN - 1) * kS / kN);
    EXPECT_TRUE(algocheck::correct(ring, env->comm, call(k, kS), channels(2))) << to_string(k);
  }
}

TEST(AlgorithmRing, BroadcastAndReduceAreAPipelinedChainThroughEveryRank) {
  auto env = algocheck::setup("dgx-h100", 2, 8);
  const Algorithm& ring = algocheck::algo("ring");
  for (CollectiveKind k : {CollectiveKind::Broadcast, CollectiveKind::Reduce}) {
    for (int root : {0, 5, 15}) {
      Schedule s = ring.build(env->comm, call(k, kS, root), channels(1));
      // n-1 hops, each carrying the whole buffer in 8 pipelined chunks, in order: the last chunk
      // leaves the root 7 steps after the first and reaches the end n-1 hops later, depth
      // (n-1) + 7 = 22; 8(n-1) transfers, (n-1) x S on the wire; the chain's end sends nothing.
      EXPECT_EQ(s.depth(), kN - 1 + kPipelineChunks - 1);
      EXPECT_EQ(s.size(), static_cast<size_t>(8 * (kN - 1)));
      EXPECT_EQ(algocheck::total_sent(s), (kN - 1) * kS);
      if (k == CollectiveKind::Broadcast) EXPECT_EQ(s.bytes_sent(root).count(), kS);
      else EXPECT_EQ(s.bytes_received(root).count(), kS);
      EXPECT_TRUE(algocheck::correct(ring, env->comm, call(k, kS, root))) << to_string(k) << " root " << root;
    }
  }
}

TEST(AlgorithmRing, EveryByteCrossesTheNetworkTwicePerServer) {
  // 4 servers x 8, 32 ring positions with 4 server boundaries. Piece p is first sent by position
  // p+1 and travels n-1 hops to p (reduce-scatter), then n-1 hops on to p-1 (all-gather): every
  // edge of the ring but one, twice. So a byte crosses servers up to 2 x 4 = 8 times one after
  // another (tree: 2 log2(4) = 4, algorithm_tree_test.cpp), and never fewer than 2 x 4 - 2.
  auto env = algocheck::setup("dgx-h100", 4, 8);
  EXPECT_EQ(algocheck::chunk_inter_server_depth(algocheck::algo("ring"), env->comm, call(CollectiveKind::AllReduce, kS)), 8);
}

TEST(AlgorithmRing, UnevenSizesSplitIntoPiecesThatStillCoverTheBuffer) {
  // 1000 bytes over 3 channels and 16 ranks: pieces differ by one byte, but every byte of every
  // rank's buffer is reduced exactly once into every rank.
  auto env = algocheck::setup("dgx-h100", 2, 8);
  EXPECT_TRUE(algocheck::correct(algocheck::algo("ring"), env->comm, call(CollectiveKind::AllReduce, 1000 * 16), channels(3)));
  Schedule s = algocheck::algo("ring").build(env->comm, call(CollectiveKind::AllReduce, 16000), channels(3));
  EXPECT_EQ(algocheck::total_sent(s), 2 * (kN - 1) * 16000);  // sum of all pieces, exact
}

TEST(AlgorithmRing, RefusesAllToAllAndSingleRanks) {
  auto env = algocheck::setup("dgx-h100", 1, 1);
  const Algorithm& ring = algocheck::algo("ring");
  EXPECT_NE(ring.unsupported(env->comm, CollectiveKind::AllReduce), "");
  auto two = algocheck::setup("dgx-h100", 1, 2);
  EXPECT_EQ(ring.unsupported(two->comm, CollectiveKind::AllReduce), "");
  EXPECT_NE(ring.unsupported(two->comm, CollectiveKind::AllToAll).find("direct"), std::string::npos);
}
