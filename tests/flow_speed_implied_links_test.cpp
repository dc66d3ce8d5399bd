// The flow model leaves out of its max-min problem the links whose constraint another link on all
// of their flows implies (src/model/flow/implied_links.hpp): a peer host's GPU -> NIC join
// (10 PB/s) behind its NIC's 400 Gb/s port. These tests check which links qualify, that rates,
// finish times and link loads are those of the full problem (by closed forms, and bit for bit
// against a model that keeps every link), and that a leg breaking the rule puts the link back.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "../bench/peer_ring.hpp"
#include "collective/algorithm.hpp"
#include "model/flow/flow_model.hpp"
#include "model/flow/implied_links.hpp"
#include "model/flow/maxmin_solver.hpp"
#include "engine/executor.hpp"

using namespace gf;

namespace {

const std::string kClusterFile = std::string(GPUFABRIC_SOURCE_DIR) + "/bench/clusters/peer-leafspine.yaml";

// The peer platform at N = 32 (two leaves): capacities are the YAML's, since the peer parameters
// set every efficiency to 1: 400 Gb/s = 50e9 B/s per direction on the network, 10,000,000 GB/s =
// 1e16 B/s on a host's GPU-NIC join.
constexpr double kNet = 50e9, kHost = 1e16;

struct PeerNet {
  Cluster c = build_cluster(gfpeer::peer_cluster_spec(kClusterFile, 32));
  Router router{c};
  TransferCost cost{c, gfpeer::peer_model_params()};
  // Server s's links: GPU -> NIC, NIC -> GPU, NIC -> leaf, leaf -> NIC.
  LinkId gpu_to_nic(int s) const { return c.out_links(c.gpu(s)).front(); }
  LinkId nic_to_gpu(int s) const { return c.link(gpu_to_nic(s)).reverse; }
  LinkId nic_to_leaf(int s) const {
    for (LinkId l : c.out_links(c.link(gpu_to_nic(s)).dst))
      if (l != nic_to_gpu(s)) return l;
    return -1;
  }
  LinkId leaf_to_nic(int s) const { return c.link(nic_to_leaf(s)).reverse; }
};

struct Done final : CompletionSink {
  std::vector<Time> at = std::vector<Time>(8, Time::infinity());
  void completed(TransferId id, Time t) override { at[static_cast<size_t>(id)] = t; }
};

ModelTransfer transfer(Route r, Bytes b) {
  ModelTransfer t;
  t.route = std::make_shared<const Route>(std::move(r));
  t.bytes = b;
  return t;
}

Time after_seconds(Time from, double s) { return from + Time::ps(static_cast<int64_t>(std::ceil(s * 1e12))); }

}  // namespace

TEST(FlowSpeedImpliedLinks, APeerHostsJoinIsImpliedByItsNicPort) {
  PeerNet n;
  ASSERT_DOUBLE_EQ(n.cost.capacity(n.gpu_to_nic(0)), kHost);
  ASSERT_DOUBLE_EQ(n.cost.capacity(n.nic_to_leaf(0)), kNet);
  const std::vector<LinkId> cover = implied_link_covers(n.c, n.cost);
  std::vector<bool> host_join(n.c.links().size(), false);
  for (int s = 0; s < 32; ++s) {
    // A path into the NIC from its GPU can only leave by the NIC's one other link, its port
    // (50e9 < 1e16); a path out of the NIC to its GPU can only have come in by the port's
    // downlink (the NIC's one in-link besides the GPU's).
    EXPECT_EQ(cover[static_cast<size_t>(n.gpu_to_nic(s))], n.nic_to_leaf(s)) << "server " << s;
    EXPECT_EQ(cover[static_cast<size_t>(n.nic_to_gpu(s))], n.leaf_to_nic(s)) << "server " << s;
    host_join[static_cast<size_t>(n.gpu_to_nic(s))] = host_join[static_cast<size_t>(n.nic_to_gpu(s))] = true;
  }
  // Every other link has a choice of ways on at one end and a 1e16 join on the other: none.
  for (size_t l = 0; l < cover.size(); ++l)
    if (!host_join[l]) {
      EXPECT_EQ(cover[l], -1) << "link " << l;
    }
}

TEST(FlowSpeedImpliedLinks, TwoFlowsThroughALeftOutJoinShareThePortAsBefore) {
  // gpu0 -> gpu1 and gpu0 -> gpu2 (same leaf: GPU -> NIC -> leaf -> NIC -> GPU, 2 us) both cross
  // gpu0's join (left out of the solver) and its NIC port (kept): 25e9 B/s each, so both finish
  // at alpha + B / 25e9. The join's load counts both flows: 2 flows per 1e16 B/s.
  PeerNet n;
  FlowModel m(n.c, gfpeer::peer_model_params());
  const Bytes b = Bytes::mib(64);
  const ModelTransfer t1 = transfer(n.router.route(n.c.gpu(0), n.c.gpu(1), 1), b);
  const ModelTransfer t2 = transfer(n.router.route(n.c.gpu(0), n.c.gpu(2), 2), b);
  const Time alpha = n.cost.alpha(t1);
  ASSERT_EQ(alpha, Time::us(2));
  m.start(0, t1, Time::zero());
  m.start(1, t2, Time::zero());
  Done d;
  m.advance_to(alpha, d);
  EXPECT_DOUBLE_EQ(m.link_load(n.gpu_to_nic(0)) * kHost, 2.0);
  EXPECT_DOUBLE_EQ(m.link_load(n.nic_to_leaf(0)) * kNet, 2.0);
  EXPECT_DOUBLE_EQ(m.link_load(n.nic_to_gpu(1)) * kHost, 1.0);  // left out, one flow
  while (!m.next_event_time().is_infinite()) m.advance_to(m.next_event_time(), d);
  const Time expected = after_seconds(alpha, static_cast<double>(b.count()) / (kNet / 2));
  EXPECT_EQ(d.at[0], expected);
  EXPECT_EQ(d.at[1], expected);
  EXPECT_DOUBLE_EQ(m.link_load(n.gpu_to_nic(0)), 0.0);
  // Carried bytes count every link of the path, left out or not.
  EXPECT_DOUBLE_EQ(m.carried_bytes()[static_cast<size_t>(n.gpu_to_nic(0))], 2.0 * static_cast<double>(b.count()));
}

TEST(FlowSpeedImpliedLinks, ALegEndingBesideALeftOutLinkPutsItBackForLiveFlows) {
  // F1 = gpu0 -> gpu1 runs at its port's 50e9 B/s and left gpu0's join out. At 3 us, F2 starts on
  // a hand-made path that is the join alone (it ends at the NIC, so its join is not implied by
  // the port): the join goes back into the problem for F1 too. On the join F1 keeps its 50e9
  // (its port is tighter) and F2 gets the rest, 1e16 - 50e9: 1e13 B take 1e13 / (1e16 - 5e10) s
  // = 1,000,005.0000 ns, 5,000 ps more than the 1e16 it would get if F1 were not counted there.
  PeerNet n;
  FlowModel m(n.c, gfpeer::peer_model_params());
  const ModelTransfer f1 = transfer(n.router.route(n.c.gpu(0), n.c.gpu(1), 1), Bytes::mib(64));
  Route join_only{Leg{Path{{n.gpu_to_nic(0)}}, 1.0}};
  const ModelTransfer f2 = transfer(join_only, Bytes(10'000'000'000'000));
  m.start(0, f1, Time::zero());
  Done d;
  const Time t2 = Time::us(3);
  m.advance_to(t2, d);
  EXPECT_DOUBLE_EQ(m.link_load(n.gpu_to_nic(0)) * kHost, 1.0);  // F1, on the side table
  m.start(1, f2, t2);
  ASSERT_EQ(n.cost.alpha(f2), Time::zero());  // no latency on the join: it activates at once
  m.advance_to(t2, d);
  EXPECT_DOUBLE_EQ(m.link_load(n.gpu_to_nic(0)) * kHost, 2.0);  // both, in the solver now
  while (!m.next_event_time().is_infinite()) m.advance_to(m.next_event_time(), d);
  EXPECT_EQ(d.at[1], after_seconds(t2, 1e13 / (kHost - kNet)));
  EXPECT_GT((d.at[1] - after_seconds(t2, 1e13 / kHost)).picoseconds(), 4'000);
  // F1 alone on its port all along: alpha (2 us) + 64 MiB / 50e9.
  EXPECT_EQ(d.at[0], after_seconds(Time::us(2), static_cast<double>(Bytes::mib(64).count()) / kNet));
}

TEST(FlowSpeedImpliedLinks, AllToAllTimesAreBitForBitThoseOfTheFullProblem) {
  // A direct all-to-all on 32 peer hosts (every GPU sends to all 31 others at once, so every
  // join and port carries 31 flows, 16 of them across the spines, with unequal shares where the
  // spine paths collide), run once leaving implied links out and once keeping every link: every
  // finish time and carried byte count must be the same, to the bit.
  PeerNet n;
  const Communicator comm = make_communicator(n.c, n.router, 32, 1);
  CollectiveCall call;
  call.kind = CollectiveKind::AllToAll;
  call.bytes = Bytes::mib(4);
  const Algorithm* direct = find_algorithm("direct");
  ASSERT_NE(direct, nullptr);
  const Schedule s = direct->build(comm, call, AlgorithmOptions{});
  FlowModel fast(n.c, gfpeer::peer_model_params());
  FlowModel full(n.c, gfpeer::peer_model_params());
  full.keep_implied_links();
  const ScheduleRun a = run_schedule(s, comm, n.router, fast);
  const ScheduleRun b = run_schedule(s, comm, n.router, full);
  ASSERT_EQ(a.finish.size(), b.finish.size());
  ASSERT_GT(a.finish.size(), 31u);
  for (size_t i = 0; i < a.finish.size(); ++i) EXPECT_EQ(a.finish[i], b.finish[i]) << "transfer " << i;
  EXPECT_EQ(a.duration, b.duration);
  for (size_t l = 0; l < n.c.links().size(); ++l)
    EXPECT_EQ(fast.carried_bytes()[l], full.carried_bytes()[l]) << "link " << l;
}

TEST(FlowSpeedImpliedLinks, SolverTakesAResourceIntoALiveVariable) {
  // v1 on A (10), v2 on B (4). Adding A to v2: A is shared at level 5, B runs out first at 4, so
  // v2 = 4 and v1 gets A's remaining 10 - 4 = 6 (was 10 alone on A).
  MaxMinSolver s;
  const auto a = s.add_resource(10), b = s.add_resource(4);
  const MaxMinSolver::ResourceId ra[] = {a}, rb[] = {b};
  const auto v1 = s.add_variable(ra), v2 = s.add_variable(rb);
  std::vector<MaxMinSolver::VarId> changed;
  s.solve(changed);
  EXPECT_DOUBLE_EQ(s.rate(v1), 10);
  EXPECT_DOUBLE_EQ(s.rate(v2), 4);
  s.add_resource_to(v2, a);
  changed.clear();
  s.solve(changed);
  EXPECT_DOUBLE_EQ(s.rate(v1), 6);
  EXPECT_DOUBLE_EQ(s.rate(v2), 4);
  EXPECT_EQ(changed, std::vector<MaxMinSolver::VarId>{v1});
  EXPECT_EQ(s.users(a), 2);
  EXPECT_DOUBLE_EQ(s.weight_on(a), 2);
  ASSERT_EQ(s.resources_of(v2).size(), 2u);
  // Removing v2 takes it off both.
  s.remove_variable(v2);
  changed.clear();
  s.solve(changed);
  EXPECT_DOUBLE_EQ(s.rate(v1), 10);
  EXPECT_EQ(s.users(a), 1);
}
