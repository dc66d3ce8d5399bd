// Hierarchical (algorithms/hierarchical.cpp): rings inside servers, rings across servers among
// same-index GPUs.
#include <gtest/gtest.h>

#include "algorithm_check.hpp"

using namespace gf;
using algocheck::call;
using algocheck::channels;

namespace {
constexpr int64_t kS = 1 << 20;  // divides by n = 32 and by 8 x 4 x 2 channels
}

TEST(AlgorithmHierarchical, AllReduceOnFourServers) {
  // p = 8 GPUs per server, m = 4 servers, n = 32. Per rank:
  //   inside reduce-scatter: p-1 = 7 steps of a slice S/p;  across all-reduce: 2(m-1) = 6 steps of
  //   S/(pm);  inside all-gather: 7 steps of S/p.
  //   2(p-1)/p + 2(m-1)/(mp) = 56/32 + 6/32 = 62/32 = 2(n-1)/n: the ring's per-rank volume...
  auto env = algocheck::setup("dgx-h100", 4, 8);
  const Algorithm& a = algocheck::algo("hierarchical");
  Schedule s = a.build(env->comm, call(CollectiveKind::AllReduce, kS), channels(1));
  EXPECT_TRUE(algocheck::each_rank_moves(s, 62 * kS / 32, 62 * kS / 32));
  // ...in 7 + 6 + 7 = 20 steps instead of 2(n-1) = 62...
  EXPECT_EQ(s.depth(), 20);
  // ...with less on the network: every rank sends 6 pieces of S/32 across, 32 x 6/32 S = 6 S in
  // all, 2(m-1) x S (a ring: 4 boundaries x 62/32 S = 7.75 S), each piece between GPUs of the same
  // local index, i.e. on one rail.
  EXPECT_EQ(algocheck::inter_server_bytes(s, env->comm), 6 * kS);
  for (const Transfer& t : s.transfers()) {
    if (algocheck::crosses_servers(t, env->comm)) {
      EXPECT_EQ(t.bytes.count(), kS / 32);
      EXPECT_EQ(env->comm.local_of[static_cast<size_t>(t.src)], env->comm.local_of[static_cast<size_t>(t.dst)]);
    } else {
      EXPECT_EQ(t.bytes.count(), kS / 8);
    }
  }
  // A byte crosses servers 2(m-1) = 6 times one after another (the ring across).
  EXPECT_EQ(algocheck::chunk_inter_server_depth(a, env->comm, call(CollectiveKind::AllReduce, kS)), 6);
  EXPECT_TRUE(algocheck::correct(a, env->comm, call(CollectiveKind::AllReduce, kS), channels(2)));
}

TEST(AlgorithmHierarchical, ReduceScatterAndAllGather) {
  // S counts all n blocks. ReduceScatter: inside, 7 steps of a slice of m blocks (mS/n = S/8);
  // across, 3 steps of one block S/32: 7/8 + 3/32 = 31/32 = (n-1)/n of S per rank, 10 steps.
  // AllGather is the mirror image.
  auto env = algocheck::setup("dgx-h100", 4, 8);
  const Algorithm& a = algocheck::algo("hierarchical");
  for (CollectiveKind k : {CollectiveKind::ReduceScatter, CollectiveKind::AllGather}) {
    Schedule s = a.build(env->comm, call(k, kS), channels(1));
    EXPECT_TRUE(algocheck::each_rank_moves(s, 31 * kS / 32, 31 * kS / 32)) << to_string(k);
    EXPECT_EQ(s.depth(), 10) << to_string(k);
    EXPECT_TRUE(algocheck::correct(a, env->comm, call(k, kS), channels(2))) << to_string(k);
  }
}

TEST(AlgorithmHierarchical, DegenerateShapes) {
  // One server: just the inside rings (a ring all-reduce, 2 x 7 steps); one GPU per server: just
  // the ring across (2 x 3 steps).
  const Algorithm& a = algocheck::algo("hierarchical");
  auto one = algocheck::setup("dgx-h100", 1, 8);
  EXPECT_EQ(a.build(one->comm, call(CollectiveKind::AllReduce, kS), channels(1)).depth(), 14);
  auto solo = algocheck::setup("dgx-h100", 4, 1);
  EXPECT_EQ(a.build(solo->comm, call(CollectiveKind::AllReduce, kS), channels(1)).depth(), 6);
  for (auto* env : {one.get(), solo.get()})
    EXPECT_TRUE(algocheck::correct(a, env->comm, call(CollectiveKind::AllReduce, kS)));
  EXPECT_NE(a.unsupported(one->comm, CollectiveKind::AllToAll), "");
}
