// CollNet Direct (algorithms/collnet_direct.cpp): SHARP reduction in the InfiniBand switches, each
// GPU heading one slice, exchanged directly over NVSwitch.
#include <gtest/gtest.h>

#include "algorithm_check.hpp"
#include "collective/trees.hpp"

using namespace gf;
using algocheck::call;
using algocheck::channels;

namespace {
constexpr int64_t kS = 1 << 20;  // divides by 8 slices x 8 chunks x 2 channels
}

TEST(AlgorithmCollNetDirect, ClosedForms) {
  // 2 x 8 H100 on NDR with Quantum-2 (SHARP). Per rank, p = 8:
  //   scatter: its slice-l part to each of the p-1 other heads: (p-1)/p x S out, (p-1)/p x S in;
  //   network: its own slice, S/p, to the switch and back;
  //   broadcast: its reduced slice to p-1 GPUs: (p-1)/p x S out and, from the others, in.
  // (2(p-1) + 1)/p x S = 15/8 MiB each way.
  auto env = algocheck::setup("dgx-h100", 2, 8);
  const Algorithm& a = algocheck::algo("collnet_direct");
  ASSERT_EQ(a.unsupported(env->comm, CollectiveKind::AllReduce), "");
  Schedule s = a.build(env->comm, call(CollectiveKind::AllReduce, kS), channels(1));
  EXPECT_TRUE(algocheck::each_rank_moves(s, 15 * kS / 8, 15 * kS / 8));
  // Scatter, network, broadcast: 3 steps whatever the number of servers, + 7 for the chunks that
  // follow the first on every edge.
  EXPECT_EQ(s.depth(), 3 + kPipelineChunks - 1);
  // Per slice (8) and chunk (8): 2 servers x 7 scatters, 1 network op, 2 x 7 broadcasts = 29.
  EXPECT_EQ(s.size(), static_cast<size_t>(8 * 8 * 29));
  // One network group per local index, holding that GPU of every server.
  ASSERT_EQ(s.groups().size(), 8u);
  for (int l = 0; l < 8; ++l) {
    EXPECT_EQ(s.groups()[static_cast<size_t>(l)].where, ReductionPoint::NetworkSwitch);
    EXPECT_EQ(s.groups()[static_cast<size_t>(l)].ranks, (std::vector<Rank>{l, 8 + l}));
  }
  // Nothing goes GPU to GPU across servers: the network part is all in-switch reduction.
  EXPECT_EQ(algocheck::inter_server_bytes(s, env->comm), 0);
  EXPECT_TRUE(algocheck::correct(a, env->comm, call(CollectiveKind::AllReduce, kS), channels(2)));
}

TEST(AlgorithmCollNetDirect, ManyServersStillThreeSteps) {
  const Algorithm& a = algocheck::algo("collnet_direct");
  auto four = algocheck::setup("dgx-h100", 4, 4);
  EXPECT_EQ(a.build(four->comm, call(CollectiveKind::AllReduce, kS), channels(1)).depth(), 3 + kPipelineChunks - 1);
  EXPECT_TRUE(algocheck::correct(a, four->comm, call(CollectiveKind::AllReduce, kS)));
  // One GPU per server: only the network step, once per chunk.
  auto solo = algocheck::setup("dgx-h100", 4, 1);
  EXPECT_EQ(a.build(solo->comm, call(CollectiveKind::AllReduce, kS), channels(1)).depth(), kPipelineChunks);
  EXPECT_TRUE(algocheck::correct(a, solo->comm, call(CollectiveKind::AllReduce, kS)));
}

TEST(AlgorithmCollNetDirect, NeedsSharpSwitchesAndNvSwitch) {
  const Algorithm& a = algocheck::algo("collnet_direct");
  // AWS EFA's switches do not reduce; one server has no network to reduce in; PCIe servers lack
  // the NVSwitch the direct exchange needs.
  EXPECT_NE(a.unsupported(algocheck::setup("aws-p5", 2, 8)->comm, CollectiveKind::AllReduce).find("SHARP"), std::string::npos);
  EXPECT_NE(a.unsupported(algocheck::setup("dgx-h100", 1, 8)->comm, CollectiveKind::AllReduce), "");
  EXPECT_NE(a.unsupported(algocheck::setup("dgx-h100", 2, 8)->comm, CollectiveKind::AllGather), "");
}
