// Direct all-to-all (algorithms/direct.cpp): every pair at once.
#include <gtest/gtest.h>

#include "algorithm_check.hpp"

using namespace gf;
using algocheck::call;
using algocheck::channels;

namespace {
constexpr int kN = 16;
constexpr int64_t kS = 1 << 20;  // nccl-tests size: all n blocks
}  // namespace

TEST(AlgorithmDirect, SendsNMinusOneOverNOfTheBufferInOneStep) {
  // The example: each rank sends its n-1 blocks of S/n to the others and keeps one:
  // (n-1)/n x S = 15/16 MiB out and in, n(n-1) = 240 transfers, all at once.
  auto env = algocheck::setup("dgx-h100", 2, 8);
  const Algorithm& direct = algocheck::algo("direct");
  Schedule s = direct.build(env->comm, call(CollectiveKind::AllToAll, kS), channels(1));
  EXPECT_TRUE(algocheck::each_rank_moves(s, (kN - 1) * kS / kN, (kN - 1) * kS / kN));
  EXPECT_EQ(s.depth(), 1);
  EXPECT_EQ(s.size(), static_cast<size_t>(kN * (kN - 1)));
  for (const Transfer& t : s.transfers()) {
    EXPECT_NE(t.src, t.dst);
    EXPECT_EQ(t.bytes.count(), kS / kN);
  }
  // Half of each rank's peers are on the other server: 8 x S/16 = S/2 each, 16 x S/2 = 8 S across.
  EXPECT_EQ(algocheck::inter_server_bytes(s, env->comm), 8 * kS);
  EXPECT_TRUE(algocheck::correct(direct, env->comm, call(CollectiveKind::AllToAll, kS), channels(2)));
}

TEST(AlgorithmDirect, OnlyAllToAll) {
  auto env = algocheck::setup("dgx-h100", 1, 8);
  EXPECT_NE(algocheck::algo("direct").unsupported(env->comm, CollectiveKind::AllReduce), "");
  EXPECT_EQ(algocheck::algo("direct").unsupported(env->comm, CollectiveKind::AllToAll), "");
}
