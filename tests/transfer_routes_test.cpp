// A group transfer's legs (workload/transfer_routes.hpp): the source side's legs run toward the
// reduction point and the destination side's back from it. CollNet Direct's in-network
// all-reduce is a transfer from a group to the same group; both of its sides used to come out
// reversed, so its uplinks carried nothing and its downlinks twice the bytes.
#include <gtest/gtest.h>

#include "collective/algorithm.hpp"
#include "config/presets.hpp"
#include "topology/cluster_spec.hpp"
#include "workload/transfer_routes.hpp"

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
