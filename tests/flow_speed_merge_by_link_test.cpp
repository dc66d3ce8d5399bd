// The flow model's merging of identical flows (flow_model.hpp) finds its candidate by the flow's
// least link first and goes to the batch's hash table only when a second flow of the batch has the
// same least link (issue 26, sixth pass). Checked here on hand-worked cases: identical flows merge
// whichever path they take to find each other (alone on the link, or in the table after a
// different flow came first), and flows that share the least link but not the path, or the path
// but not the size, never merge.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "model/flow/flow_model.hpp"
#include "model_completions.hpp"
#include "routing/router.hpp"
#include "test_clusters.hpp"
#include "topology/cluster_spec.hpp"

using namespace gf;

namespace {

using gftest::Done;
using gftest::drain;

struct ThreeHosts {
  // Three one-GPU servers on one switch (tests/test_clusters.hpp).
  Cluster c = build_cluster(gftest::spec_of(gftest::small_server(1), 3, "single_switch"));
  Router router{c};
  TransferCost cost{c, ModelParams{}};
  ModelTransfer transfer(int from, int to, Bytes b) const {
    ModelTransfer t;
    t.route = std::make_shared<const Route>(router.route(c.gpu(from), c.gpu(to), 7));
    t.bytes = b;
    return t;
  }
  double bottleneck(const ModelTransfer& t) const {
    double b = 1e300;
    for (LinkId l : t.legs().front().path.links) b = std::min(b, cost.capacity(l));
    return b;
  }
};

}  // namespace

TEST(FlowSpeedMergeByLink, IdenticalFlowsMergeAfterADifferentOneTookTheLink) {
  // One route, started in the order half, full, full, half at one instant. The first half is
  // alone on its least link; the first full moves it into the table; the second full and the
  // second half find theirs there: two solver variables. Four flows share the bottleneck at a
  // quarter each: the halves move B/2 at cap/4, done at 2 W (W = B / cap); the fulls then have
  // B/2 left at cap/2, W more: 3 W.
  ThreeHosts h;
  const Bytes b = Bytes::mib(64);
  const ModelTransfer full = h.transfer(0, 1, b), half = h.transfer(0, 1, Bytes(b.count() / 2));
  // Each its own route object: another connection (one connection's steps go in order,
  // model/flow/connection_queue.hpp), the same path.
  const ModelTransfer full2 = h.transfer(0, 1, b), half2 = h.transfer(0, 1, Bytes(b.count() / 2));
  FlowModel m(h.c);
  m.start(0, half, Time::zero());
  m.start(1, full, Time::zero());
  m.start(2, full2, Time::zero());
  m.start(3, half2, Time::zero());
  const auto done = drain(m, 4);
  const double w = static_cast<double>(b.count()) / h.bottleneck(full), alpha = h.cost.alpha(full).to_s();
  EXPECT_NEAR(done[0].to_s(), alpha + 2 * w, 1e-9);
  EXPECT_NEAR(done[3].to_s(), alpha + 2 * w, 1e-9);
  EXPECT_NEAR(done[1].to_s(), alpha + 3 * w, 1e-9);
  EXPECT_NEAR(done[2].to_s(), alpha + 3 * w, 1e-9);
  EXPECT_EQ(done[0], done[3]);
  EXPECT_EQ(done[1], done[2]);
  EXPECT_EQ(m.peak_flows(), 2u);
}

TEST(FlowSpeedMergeByLink, AFlowAloneOnItsLeastLinkMergesWithTheNextIdenticalOne) {
  // Two identical transfers on one path (two connections: two route objects): the second finds
  // the first beside its least link (no table): one variable of weight 2, each at cap/2, both
  // done at 2 W.
  ThreeHosts h;
  const Bytes b = Bytes::mib(16);
  const ModelTransfer t = h.transfer(0, 1, b), t2 = h.transfer(0, 1, b);
  FlowModel m(h.c);
  m.start(0, t, Time::zero());
  m.start(1, t2, Time::zero());
  const auto done = drain(m, 2);
  const double w = static_cast<double>(b.count()) / h.bottleneck(t);
  EXPECT_NEAR(done[0].to_s(), h.cost.alpha(t).to_s() + 2 * w, 1e-9);
  EXPECT_EQ(done[0], done[1]);
  EXPECT_EQ(m.peak_flows(), 1u);
}

TEST(FlowSpeedMergeByLink, ASharedLeastLinkWithoutTheSamePathDoesNotMerge) {
  // gpu0 -> gpu1 and gpu0 -> gpu2 leave through the same links (the sender's side, its least
  // link among them or not), so they may share the least link but never the path: never one
  // variable. Started as a, b, a: the two a's still merge (two variables at the peak), and they
  // finish together.
  ThreeHosts h;
  const Bytes bytes = Bytes::mib(16);
  const ModelTransfer a = h.transfer(0, 1, bytes), b = h.transfer(0, 2, bytes), a2 = h.transfer(0, 1, bytes);
  ASSERT_NE(a.legs().front().path.links, b.legs().front().path.links);
  FlowModel m(h.c);
  m.start(0, a, Time::zero());
  m.start(1, b, Time::zero());
  m.start(2, a2, Time::zero());
  const auto done = drain(m, 3);
  EXPECT_EQ(m.peak_flows(), 2u);
  EXPECT_EQ(done[0], done[2]);
  // All three leave gpu0 over its own links: a third of the sender's bottleneck each, so all
  // three take 3 W (the same bytes, the same shared bottleneck).
  const double w = static_cast<double>(bytes.count()) / h.bottleneck(a);
  EXPECT_NEAR(done[1].to_s(), h.cost.alpha(b).to_s() + 3 * w, 1e-9);
}
