// A group transfer's legs (engine/transfer_routes.hpp): the source side's legs run toward the
// reduction point and the destination side's back from it. CollNet Direct's in-network
// all-reduce is a transfer from a group to the same group; both of its sides used to come out
// reversed, so its uplinks carried nothing and its downlinks twice the bytes.
#include <gtest/gtest.h>

#include "collective/algorithm.hpp"
#include "config/presets.hpp"
#include "topology/cluster_spec.hpp"
#include "engine/transfer_routes.hpp"

using namespace gf;

TEST(TransferRoutes, GroupToSameGroupGoesUpThenDown) {
  Cluster c = build_cluster(resolve_cluster("dgx-h100-2node"));
  Router router(c);
  Communicator comm = make_communicator(c, router, 2, 8);
  CollectiveCall call;
  call.kind = CollectiveKind::AllReduce;
  call.bytes = Bytes::mib(1);
  Schedule s = find_algorithm("collnet_direct")->build(comm, call, {Protocol::Simple, 2});
  int checked = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const Transfer& t = s.transfer(static_cast<TransferId>(i));
    if (!is_group(t.src) || t.src != t.dst) continue;
    const Route r = transfer_legs(s, static_cast<TransferId>(i), comm, router, 0, RoutingPolicy::Ecmp, nullptr);
    // A group of one GPU per server on 2 servers: 2 legs up (GPU -> ... -> switch), 2 down.
    const size_t members = s.groups()[static_cast<size_t>(group_index(t.src))].ranks.size();
    ASSERT_EQ(r.size(), 2 * members);
    for (size_t k = 0; k < r.size(); ++k) {
      const NodeId first = c.link(r[k].path.links.front()).src, last = c.link(r[k].path.links.back()).dst;
      if (k < members) {
        EXPECT_EQ(c.node(first).kind, NodeKind::Gpu);
        EXPECT_EQ(c.node(last).kind, NodeKind::Switch);
      } else {
        EXPECT_EQ(c.node(first).kind, NodeKind::Switch);
        EXPECT_EQ(c.node(last).kind, NodeKind::Gpu);
      }
    }
    ++checked;
  }
  EXPECT_GT(checked, 0);
}

TEST(TransferRoutes, ACacheServesEveryProtocolOfOnePatternAndStartsAfreshOnAnother) {
  // The tuner runs one algorithm once per protocol; the schedules differ in protocol only, so a
  // route found for the first is the route of the others (one shared object, not a copy). A
  // schedule with other rank groups (NVLS reduces in the switch) or without PXN routes afresh.
  Cluster c = build_cluster(resolve_cluster("dgx-h100-2node"));
  Router router(c);
  Communicator comm = make_communicator(c, router, 2, 8);
  CollectiveCall a2a{CollectiveKind::AllToAll, Bytes::mib(1)};
  Schedule simple = find_algorithm("direct")->build(comm, a2a, {Protocol::Simple, 1});
  Schedule ll = find_algorithm("direct")->build(comm, a2a, {Protocol::LL, 1});
  ASSERT_EQ(simple.size(), ll.size());
  RouteCache cache(simple, comm, router, 0);
  // Held, so that no later route can be allocated where one of these was.
  std::vector<std::shared_ptr<const Route>> first;
  for (size_t i = 0; i < simple.size(); ++i) first.push_back(cache.route(static_cast<TransferId>(i)));
  cache.use(ll);
  for (size_t i = 0; i < ll.size(); ++i) EXPECT_EQ(cache.route(static_cast<TransferId>(i)), first[i]) << i;
  // The same pattern without PXN: other routes for the sends that cross servers, so none are kept.
  Schedule no_pxn = find_algorithm("direct")->build(comm, a2a, {Protocol::Simple, 1});
  no_pxn.set_pxn(false);
  cache.use(no_pxn);
  for (size_t i = 0; i < no_pxn.size(); ++i) EXPECT_NE(cache.route(static_cast<TransferId>(i)), first[i]) << i;
  // A schedule with rank groups: its group endpoints mean other legs, so the cache starts again
  // and gives the legs transfer_legs gives.
  CollectiveCall ar{CollectiveKind::AllReduce, Bytes::mib(1)};
  Schedule nvls = find_algorithm("nvlstree")->build(comm, ar, {Protocol::Simple, 1});
  ASSERT_FALSE(nvls.groups().empty());
  cache.use(nvls);
  for (size_t i = 0; i < nvls.size(); ++i) {
    const Route want = transfer_legs(nvls, static_cast<TransferId>(i), comm, router, 0);
    const Route& got = *cache.route(static_cast<TransferId>(i));
    ASSERT_EQ(got.size(), want.size()) << i;
    for (size_t k = 0; k < want.size(); ++k) EXPECT_EQ(got[k].path.links, want[k].path.links) << i;
  }
}
