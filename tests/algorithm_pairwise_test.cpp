// Pairwise all-to-all (algorithms/pairwise.cpp): n-1 rounds, rank r to r+k in round k.
#include <gtest/gtest.h>

#include "algorithm_check.hpp"

using namespace gf;
using algocheck::call;
using algocheck::channels;

namespace {
constexpr int kN = 16;
constexpr int64_t kS = 1 << 20;
}  // namespace

TEST(AlgorithmPairwise, NMinusOneRoundsOfOneBlock) {
  // Same volume as direct, (n-1)/n x S per rank, but one block of S/n at a time: n-1 = 15 rounds
  // deep, each rank sending exactly once per round, to (r + k) mod n in round k (step k-1).
  auto env = algocheck::setup("dgx-h100", 2, 8);
  const Algorithm& pw = algocheck::algo("pairwise");
  Schedule s = pw.build(env->comm, call(CollectiveKind::AllToAll, kS), channels(1));
  EXPECT_TRUE(algocheck::each_rank_moves(s, (kN - 1) * kS / kN, (kN - 1) * kS / kN));
  EXPECT_EQ(s.depth(), kN - 1);
  EXPECT_EQ(s.size(), static_cast<size_t>(kN * (kN - 1)));
  std::vector<int> per_round(kN - 1, 0);
  for (const Transfer& t : s.transfers()) {
    EXPECT_EQ(t.dst, (t.src + t.step + 1) % kN);
    EXPECT_EQ(t.bytes.count(), kS / kN);
    ++per_round[static_cast<size_t>(t.step)];
  }
  for (int k : per_round) EXPECT_EQ(k, kN);
  EXPECT_TRUE(algocheck::correct(pw, env->comm, call(CollectiveKind::AllToAll, kS), channels(2)));
  auto odd = algocheck::setup("dgx-h100", 3, 1);
  EXPECT_TRUE(algocheck::correct(pw, odd->comm, call(CollectiveKind::AllToAll, 3 * 4096)));
}
