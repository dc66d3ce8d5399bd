// Recursive halving/doubling (algorithms/rhd.cpp), Rabenseifner's all-reduce.
#include <gtest/gtest.h>

#include "algorithm_check.hpp"

using namespace gf;
using algocheck::call;
using algocheck::channels;

namespace {
constexpr int64_t kS = 1 << 20;
}

TEST(AlgorithmRhd, PowerOfTwoClosedForms) {
  // n = 8: halving exchanges S/2, S/4, S/8 with partners r^1, r^2, r^4, doubling S/8, S/4, S/2
  // with r^4, r^2, r^1. Per rank 2 x 7/8 S (a ring's volume) in 2 log2(8) = 6 steps.
  auto env = algocheck::setup("dgx-h100", 1, 8);
  const Algorithm& rhd = algocheck::algo("rhd");
  Schedule s = rhd.build(env->comm, call(CollectiveKind::AllReduce, kS), channels(1));
  EXPECT_EQ(s.depth(), 6);
  EXPECT_EQ(s.size(), 8u * 6);
  EXPECT_TRUE(algocheck::each_rank_moves(s, 14 * kS / 8, 14 * kS / 8));
  const int mask[6] = {1, 2, 4, 4, 2, 1};
  const int64_t size[6] = {kS / 2, kS / 4, kS / 8, kS / 8, kS / 4, kS / 2};
  for (const Transfer& t : s.transfers()) {
    EXPECT_EQ(t.dst, t.src ^ mask[t.step]);
    EXPECT_EQ(t.bytes.count(), size[t.step]);
    EXPECT_EQ(t.reduce.count() > 0, t.step < 3);
  }
  EXPECT_TRUE(algocheck::correct(rhd, env->comm, call(CollectiveKind::AllReduce, kS), channels(2)));
}

TEST(AlgorithmRhd, NearestPartnersFirstKeepTheBigExchangesInsideServers) {
  // 2 x 8: only partners r^8 sit on the other server, met at the last halving step and the first
  // doubling step with S/16 each: per rank S/8 across, 16 x S/8 = 2 S in all (ring: 2 boundaries
  // x 30/16 S = 3.75 S).
  auto env = algocheck::setup("dgx-h100", 2, 8);
  Schedule s = algocheck::algo("rhd").build(env->comm, call(CollectiveKind::AllReduce, kS), channels(1));
  EXPECT_EQ(algocheck::inter_server_bytes(s, env->comm), 2 * kS);
}

TEST(AlgorithmRhd, OtherCountsFoldTheExtraRanks) {
  // n = 12 = 8 + 4: ranks 0, 2, 4, 6 hand their buffers to 1, 3, 5, 7 (S each, reduced), the 8
  // ranks {1, 3, 5, 7, 8, 9, 10, 11} run the power-of-two exchange (14/8 S each), and 1, 3, 5, 7
  // send the result back. Depth 1 + 6 + 1 = 8.
  auto env = algocheck::setup("dgx-h100", 3, 4);
  const Algorithm& rhd = algocheck::algo("rhd");
  Schedule s = rhd.build(env->comm, call(CollectiveKind::AllReduce, kS), channels(1));
  EXPECT_EQ(s.depth(), 8);
  for (Rank r = 0; r < 12; ++r) {
    const int64_t want = r < 8 && r % 2 == 0 ? kS : r < 8 ? kS + 14 * kS / 8 : 14 * kS / 8;
    EXPECT_EQ(s.bytes_sent(r).count(), want) << r;
    EXPECT_EQ(s.bytes_received(r).count(), want) << r;
  }
  for (auto [nodes, ppn] : {std::pair{3, 4}, {5, 1}, {3, 1}, {3, 2}}) {
    auto e = algocheck::setup("dgx-h100", nodes, ppn);
    EXPECT_TRUE(algocheck::correct(rhd, e->comm, call(CollectiveKind::AllReduce, kS), channels(2))) << nodes * ppn;
  }
}

TEST(AlgorithmRhd, ReduceScatterAndAllGatherHalves) {
  // Each half alone: 7/8 S per rank in 3 steps; rank r ends with (or starts from) its own block.
  auto env = algocheck::setup("dgx-h100", 2, 4);
  const Algorithm& rhd = algocheck::algo("rhd");
  for (CollectiveKind k : {CollectiveKind::ReduceScatter, CollectiveKind::AllGather}) {
    Schedule s = rhd.build(env->comm, call(k, kS), channels(1));
    EXPECT_EQ(s.depth(), 3);
    EXPECT_TRUE(algocheck::each_rank_moves(s, 7 * kS / 8, 7 * kS / 8));
    EXPECT_TRUE(algocheck::correct(rhd, env->comm, call(k, kS), channels(2))) << to_string(k);
  }
  EXPECT_NE(rhd.unsupported(algocheck::setup("dgx-h100", 3, 4)->comm, CollectiveKind::AllGather), "");
}
