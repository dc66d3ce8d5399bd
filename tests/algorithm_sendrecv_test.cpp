// Send/receive (algorithms/sendrecv.cpp) as nccl-tests' sendrecv_perf runs it.
#include <gtest/gtest.h>

#include "algorithm_check.hpp"

using namespace gf;
using algocheck::call;
using algocheck::channels;

namespace {
constexpr int64_t kS = 1 << 20;
}

TEST(AlgorithmSendRecv, EveryRankSendsItsBufferToTheNext) {
  // n transfers of S, r -> (r+1) mod n, all at once: S out and S in per rank, 1 step.
  auto env = algocheck::setup("dgx-h100", 2, 8);
  const Algorithm& sr = algocheck::algo("sendrecv");
  Schedule s = sr.build(env->comm, call(CollectiveKind::SendRecv, kS), channels(1));
  EXPECT_EQ(s.size(), 16u);
  EXPECT_EQ(s.depth(), 1);
  EXPECT_TRUE(algocheck::each_rank_moves(s, kS, kS));
  for (const Transfer& t : s.transfers()) EXPECT_EQ(t.dst, (t.src + 1) % 16);
  // Ranks 7 -> 8 and 15 -> 0 cross servers: 2 S across.
  EXPECT_EQ(algocheck::inter_server_bytes(s, env->comm), 2 * kS);
  EXPECT_TRUE(algocheck::correct(sr, env->comm, call(CollectiveKind::SendRecv, kS), channels(3)));
}

TEST(AlgorithmSendRecv, TwoRanksExchange) {
  // Two servers of one GPU: 0 -> 1 and 1 -> 0, both across the network.
  auto env = algocheck::setup("dgx-h100", 2, 1);
  Schedule s = algocheck::algo("sendrecv").build(env->comm, call(CollectiveKind::SendRecv, kS), channels(1));
  EXPECT_EQ(algocheck::inter_server_bytes(s, env->comm), 2 * kS);
  EXPECT_NE(algocheck::algo("sendrecv").unsupported(env->comm, CollectiveKind::AllToAll), "");
}
