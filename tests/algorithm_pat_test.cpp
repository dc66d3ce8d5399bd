// PAT (algorithms/pat.cpp): the dimension-reversed Bruck AllGather and its transpose, one GPU per
// node, in ceil(log2 n) steps.
#include <gtest/gtest.h>

#include "algorithm_check.hpp"

using namespace gf;
using algocheck::call;
using algocheck::channels;

namespace {
constexpr int64_t kS = 1 << 20;  // nccl-tests size: all n blocks
}

TEST(AlgorithmPat, AllGatherOnEightNodes) {
  // n = 8, L = 3. Step k sends to rank r - 2^(2-k) the blocks held so far: 1, 2, then 4 blocks of
  // S/8 (the far exchanges are the small ones). Per rank (1+2+4)/8 x S = 7/8 S each way, as a
  // ring, in 3 steps instead of 7.
  auto env = algocheck::setup("dgx-h100", 8, 1);
  const Algorithm& pat = algocheck::algo("pat");
  ASSERT_EQ(pat.unsupported(env->comm, CollectiveKind::AllGather), "");
  Schedule s = pat.build(env->comm, call(CollectiveKind::AllGather, kS), channels(1));
  EXPECT_EQ(s.depth(), 3);
  EXPECT_EQ(s.size(), 8u * 3);
  EXPECT_TRUE(algocheck::each_rank_moves(s, 7 * kS / 8, 7 * kS / 8));
  for (const Transfer& t : s.transfers()) {
    const int d = 4 >> t.step;
    EXPECT_EQ(t.dst, (t.src - d + 8) % 8);
    EXPECT_EQ(t.bytes.count(), (kS / 8) << t.step);
  }
  EXPECT_TRUE(algocheck::correct(pat, env->comm, call(CollectiveKind::AllGather, kS), channels(2)));
}

TEST(AlgorithmPat, ReduceScatterIsTheTranspose) {
  // Step j sends to rank r + 2^j partial sums of 4, 2, then 1 block (the near exchange carries
  // the most), each reduced on arrival. 7/8 S per rank, 3 steps.
  auto env = algocheck::setup("dgx-h100", 8, 1);
  const Algorithm& pat = algocheck::algo("pat");
  Schedule s = pat.build(env->comm, call(CollectiveKind::ReduceScatter, kS), channels(1));
  EXPECT_EQ(s.depth(), 3);
  EXPECT_TRUE(algocheck::each_rank_moves(s, 7 * kS / 8, 7 * kS / 8));
  for (const Transfer& t : s.transfers()) {
    EXPECT_EQ(t.dst, (t.src + (1 << t.step)) % 8);
    EXPECT_EQ(t.bytes.count(), (kS / 2) >> t.step);
    EXPECT_EQ(t.reduce, t.bytes);
  }
  EXPECT_TRUE(algocheck::correct(pat, env->comm, call(CollectiveKind::ReduceScatter, kS), channels(2)));
}

TEST(AlgorithmPat, AnyNumberOfRanks) {
  // n = 5, L = 3: AllGather distances 4, 2, 1 carry 1, 1 and 2 blocks (offsets 4; 2; 1 and 3):
  // each offset 1..4 exactly once, so still (n-1)/n x S per rank.
  auto five = algocheck::setup("dgx-h100", 5, 1);
  const Algorithm& pat = algocheck::algo("pat");
  const int64_t S5 = 5 * 4096;
  Schedule s = pat.build(five->comm, call(CollectiveKind::AllGather, S5), channels(1));
  EXPECT_EQ(s.depth(), 3);
  EXPECT_TRUE(algocheck::each_rank_moves(s, 4 * S5 / 5, 4 * S5 / 5));
  for (int n : {2, 3, 5, 6, 7}) {
    auto env = algocheck::setup("dgx-h100", n, 1);
    for (CollectiveKind k : {CollectiveKind::AllGather, CollectiveKind::ReduceScatter})
      EXPECT_TRUE(algocheck::correct(pat, env->comm, call(k, 4096 * n), channels(2))) << n << " " << to_string(k);
  }
}

TEST(AlgorithmPat, OneGpuPerNodeOnly) {
  const Algorithm& pat = algocheck::algo("pat");
  std::string why = pat.unsupported(algocheck::setup("dgx-h100", 2, 8)->comm, CollectiveKind::AllGather);
  EXPECT_NE(why.find("one GPU per node; this communicator has 8 per node"), std::string::npos) << why;
  EXPECT_NE(pat.unsupported(algocheck::setup("dgx-h100", 4, 1)->comm, CollectiveKind::AllReduce), "");
}
