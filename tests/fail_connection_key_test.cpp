// Which transfers are one connection, whose steps the flow model sends in order
// (model/flow/connection_queue.hpp): those sharing one route object, which the engine's RouteCache
// hands out per (source, destination, channel). NCCL runs its double binary tree on twice its
// channels, tree 1 on channel c + nChannels as a copy of channel c (NVIDIA/nccl
// src/graph/connect.cc, connectTrees), and keeps a connector per channel and peer
// (src/transport.cc), so the two trees' steps on one edge are two connections. The tree builders
// label tree t's transfers c + t C; they route as channel c (the same NIC and path).
#include <gtest/gtest.h>

#include <set>

#include "algorithm_check.hpp"
#include "engine/transfer_routes.hpp"

using namespace gf;

namespace {

std::vector<std::vector<LinkId>> links_of(const Route& r) {
  std::vector<std::vector<LinkId>> out;
  for (const Leg& l : r) out.push_back(l.path.links);
  return out;
}

}  // namespace

TEST(FailConnectionKey, ACopiedChannelIsItsOwnConnectionOnTheSamePath) {
  // Two servers, one GPU each, across the fabric; a schedule of 2 channels whose transfers 0 and 2
  // are channel 0, transfer 1 channel 2 (tree 1's copy of channel 0) and transfer 3 channel 1.
  auto env = algocheck::setup("dgx-h100", 2, 8);
  Schedule s("trees", env->comm.nranks, 2, Protocol::Simple);
  const Rank a = 0, b = 8;  // local GPU 0 of each server: rail 0
  for (int16_t ch : {0, 2, 0, 1}) {
    Transfer t;
    t.src = a;
    t.dst = b;
    t.bytes = Bytes::kib(64);
    t.channel = ch;
    s.add(t);
  }
  RouteCache routes(s, env->comm, env->router, 0);
  // One connection per (source, destination, channel): 0 and 2 share their route object, 1 has its own ...
  EXPECT_EQ(routes.route(0).get(), routes.route(2).get());
  EXPECT_NE(routes.route(0).get(), routes.route(1).get());
  // ... on channel 0's path: the same NIC (channel / ppn = 0) and the same ECMP hash (keyed on 0).
  EXPECT_EQ(links_of(*routes.route(1)), links_of(*routes.route(0)));
  EXPECT_NE(routes.route(3).get(), routes.route(0).get());
}

TEST(FailConnectionKey, TreeOneRunsOnTheUpperHalfOfTheChannels) {
  // 2 x 8 ranks, C = 2 channels: per channel each tree climbs and descends its 15 edges (14 chain
  // edges inside the servers, 1 between them) with K = 8 chunks of a 1 MiB half: 15 x 2 x 8 = 240
  // transfers per tree and channel, on labels 0..3, tree 1 on c + 2.
  auto env = algocheck::setup("dgx-h100", 2, 8);
  const Schedule s = algocheck::algo("tree").build(env->comm, algocheck::call(CollectiveKind::AllReduce, 4 << 20),
                                                   {Protocol::Simple, 2});
  ASSERT_EQ(s.channels(), 2);
  int per_label[4] = {0, 0, 0, 0};
  for (const Transfer& t : s.transfers()) {
    ASSERT_GE(t.channel, 0);
    ASSERT_LT(t.channel, 4);
    ++per_label[t.channel];
  }
  for (int n : per_label) EXPECT_EQ(n, 240);
  // Each tree's edge pairs: tree 0 and tree 1 of channel 0 share edges inside a server (the same
  // chain), which are then distinct connections (distinct route objects on the same path).
  RouteCache routes(s, env->comm, env->router, 0);
  std::set<const Route*> conns[4];
  for (TransferId id = 0; id < static_cast<TransferId>(s.size()); ++id)
    conns[s.transfer(id).channel].insert(routes.route(id).get());
  for (const Route* r : conns[0]) EXPECT_EQ(conns[2].count(r), 0u);
  for (const Route* r : conns[1]) EXPECT_EQ(conns[3].count(r), 0u);
}
