// How many channels NCCL gives one peer pair of an all-to-all (collective/p2p_channels.hpp), and
// the direct schedule built on it. Expected counts follow NCCL 2.21-2.28's rule by hand:
// network peer: net = 2, halved while net x nranks > 4 x channels, then max(NICs per GPU, net);
// take the minimum with the local peers' count; round up to a power of 2; cap at `channels`.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <utility>

#include "algorithm_check.hpp"
#include "collective/p2p_channels.hpp"

using namespace gf;

TEST(P2pChannels, TwoDgxH100ServersGiveEachPairTwoChannels) {
  // 16 ranks, 16 channels, 1 NIC per GPU: 2 x 16 = 32 <= 4 x 16 = 64, so net stays 2;
  // max(1, 2) = 2; NVSwitch peers allow more, so 2.
  auto env = algocheck::setup("dgx-h100", 2, 8);
  EXPECT_EQ(p2p_parts_per_peer(env->comm, 16), 2);
  // The tuner's one-channel schedules: capped at 1.
  EXPECT_EQ(p2p_parts_per_peer(env->comm, 1), 1);
}

TEST(P2pChannels, OneServerGetsEveryChannel) {
  // No network peer: NVSwitch peers take 2 x 18 lanes = 36, capped at the 16 channels.
  auto env = algocheck::setup("dgx-h100", 1, 8);
  EXPECT_EQ(p2p_parts_per_peer(env->comm, 16), 16);
}

TEST(P2pChannels, ManyRanksHalveTheNetworkChannelsDownToTheNicCount) {
  // 32 DGX H100 = 256 ranks, 16 channels: 2 x 256 = 512 > 64, so net halves to 1 (the loop stops
  // at 1); one NIC per GPU: max(1, 1) = 1.
  auto dgx = algocheck::setup("dgx-h100", 32, 8);
  EXPECT_EQ(p2p_parts_per_peer(dgx->comm, 16), 1);
  // 32 p5 = 256 ranks, 64 channels: 2 x 256 = 512 > 256, so 1; but each GPU drives 4 EFA
  // interfaces (32 per server / 8 GPUs): max(4, 1) = 4.
  auto p5 = algocheck::setup("aws-p5", 32, 8);
  EXPECT_EQ(p2p_parts_per_peer(p5->comm, 64), 4);
}

TEST(P2pChannels, PciePeersAllowTwo) {
  // One PCIe server: no network peer, PCIe peers take 2.
  auto env = algocheck::setup("pcie-8gpu", 1, 8);
  EXPECT_EQ(p2p_parts_per_peer(env->comm, 4), 2);
}

TEST(P2pChannels, PartsOfOnePairSitOnDistinctChannelsAndRoundsCycleOverAll) {
  // Round r's parts take channels r x parts + k (mod channels): with 2 parts of 16 channels,
  // round 1 -> {2, 3}, round 8 -> {0, 1} (16 mod 16), and rounds 0..7 cover all 16 once.
  EXPECT_EQ(p2p_channel(1, 0, 2, 16), 2);
  EXPECT_EQ(p2p_channel(1, 1, 2, 16), 3);
  EXPECT_EQ(p2p_channel(8, 0, 2, 16), 0);
  std::set<int> seen;
  for (int r = 0; r < 8; ++r)
    for (int k = 0; k < 2; ++k) seen.insert(p2p_channel(r, k, 2, 16));
  EXPECT_EQ(seen.size(), 16u);
}

TEST(P2pChannels, DirectSplitsEachPairIntoItsParts) {
  // 2 DGX H100, 16 ranks, 16 channels: 2 parts per pair (above), so 16 x 15 x 2 = 480 transfers,
  // where spreading every pair over every channel made 16 x 15 x 16 = 3,840. Each pair's two parts
  // carry its block S/16 together, on two different channels.
  constexpr int64_t kS = 1 << 20;
  auto env = algocheck::setup("dgx-h100", 2, 8);
  const Algorithm& direct = algocheck::algo("direct");
  Schedule s = direct.build(env->comm, algocheck::call(CollectiveKind::AllToAll, kS), algocheck::channels(16));
  EXPECT_EQ(s.size(), 480u);
  std::map<std::pair<int, int>, int64_t> bytes;
  std::map<std::pair<int, int>, std::set<int>> chans;
  for (const Transfer& t : s.transfers()) {
    bytes[{t.src, t.dst}] += t.bytes.count();
    chans[{t.src, t.dst}].insert(t.channel);
  }
  EXPECT_EQ(bytes.size(), 240u);
  for (const auto& [pair, b] : bytes) EXPECT_EQ(b, kS / 16);
  for (const auto& [pair, c] : chans) EXPECT_EQ(c.size(), 2u);
  EXPECT_TRUE(algocheck::correct(direct, env->comm, algocheck::call(CollectiveKind::AllToAll, kS), algocheck::channels(16)));
}
