// Replay of small hand-built traces (replay/replay, replay/trace_loader): the iteration time from
// the DAG's critical path, collectives starting when the last rank arrives, one compute node at a
// time per rank, and the checks on bad traces (cycles, unknown groups, unmatched calls).
#include <gtest/gtest.h>

#include "config/presets.hpp"
#include "core/error.hpp"
#include "replay/replay.hpp"
#include "replay/trace_loader.hpp"
#include "routing/router.hpp"
#include "topology/cluster_spec.hpp"
#include "training/group_collectives.hpp"

namespace gf {
namespace {

struct Fixture {
  Cluster cluster = build_cluster(resolve_cluster("dgx-h100", 2));
  Router router{cluster};
};

TraceNode comp(uint64_t id, double s, std::vector<uint64_t> deps = {}) {
  TraceNode n;
  n.id = id;
  n.duration_s = s;
  n.deps = std::move(deps);
  return n;
}

TraceNode coll(uint64_t id, CollectiveKind k, int64_t bytes, std::string pg, std::vector<uint64_t> deps) {
  TraceNode n;
  n.id = id;
  n.kind = TraceNodeKind::Collective;
  n.collective = k;
  n.bytes = bytes;
  n.pg = std::move(pg);
  n.deps = std::move(deps);
  return n;
}

Trace two_ranks(std::vector<TraceNode> r0, std::vector<TraceNode> r1) {
  Trace t;
  t.format = "test";
  t.ranks.resize(2);
  t.ranks[0] = {0, "r0", std::move(r0)};
  t.ranks[1] = {1, "r1", std::move(r1)};
  return t;
}

TEST(ReplayEngine, ComputeOnlyIsTheLongestChainAndOneNodeAtATime) {
  Fixture f;
  // Rank 0: a (1 ms) then b (2 ms) and c (3 ms), both after a; one compute stream, so b and c run
  // one after the other: 1 + 2 + 3 = 6 ms. Rank 1: 4 ms.
  Trace t = two_ranks({comp(1, 1e-3), comp(2, 2e-3, {1}), comp(3, 3e-3, {1})}, {comp(9, 4e-3)});
  finish_trace(t);
  const ReplayResult r = run_replay(f.cluster, f.router, t, {});
  EXPECT_NEAR(r.iteration_s, 6e-3, 1e-15);
  EXPECT_EQ(r.slowest_rank, 0);
  EXPECT_NEAR(r.compute_s, (6e-3 + 4e-3) / 2, 1e-15);  // mean per rank
  // A GPU twice as fast halves every compute node.
  ReplayOptions o;
  o.gpu_ratio = 2;
  EXPECT_NEAR(run_replay(f.cluster, f.router, t, o).iteration_s, 3e-3, 1e-15);
}

TEST(ReplayEngine, CollectiveStartsWhenTheLastRankArrives) {
  Fixture f;
  // Rank 0 computes 10 us, rank 1 30 us, then both all-reduce 1 MiB on the world group: the
  // all-reduce starts at 30 us and lasts what the network model gives those two GPUs alone.
  const int64_t bytes = 1 << 20;
  Trace t = two_ranks({comp(0, 10e-6), coll(1, CollectiveKind::AllReduce, bytes, "", {0})},
                      {comp(0, 30e-6), coll(1, CollectiveKind::AllReduce, bytes, "", {0})});
  finish_trace(t);
  const double ar =
      time_groups(f.cluster, f.router, "analytical", {{0, 1}}, CollectiveKind::AllReduce, Bytes(bytes), "--pg").seconds;
  ASSERT_GT(ar, 0);
  const ReplayResult r = run_replay(f.cluster, f.router, t, {});
  EXPECT_NEAR(r.iteration_s, 30e-6 + ar, 1e-15);
  ASSERT_EQ(r.comm.size(), 1u);
  EXPECT_EQ(r.comm[0].calls, 2);  // one per rank
  EXPECT_NEAR(r.comm[0].simulated_s, 2 * ar, 1e-15);
}

TEST(ReplayEngine, SendMeetsItsReceive) {
  Fixture f;
  // Rank 0 sends after 5 us of compute to rank 8 (the second server's first GPU: across the fabric);
  // rank 8's compute after the receive ends at 5 us + the send + 7 us.
  Trace t;
  t.format = "test";
  t.ranks.resize(9);
  for (int64_t r = 0; r < 9; ++r) t.ranks[static_cast<size_t>(r)] = {r, "r" + std::to_string(r), {}};
  TraceNode s;
  s.id = 1;
  s.kind = TraceNodeKind::Send;
  s.collective = CollectiveKind::SendRecv;
  s.peer = 8;
  s.bytes = 1 << 16;
  s.deps = {0};
  TraceNode rv = s;
  rv.kind = TraceNodeKind::Recv;
  rv.peer = 0;
  rv.deps = {};
  t.ranks[0].nodes = {comp(0, 5e-6), s};
  t.ranks[8].nodes = {rv, comp(2, 7e-6, {1})};
  finish_trace(t);
  const double p2p =
      time_groups(f.cluster, f.router, "analytical", {{0, 8}}, CollectiveKind::SendRecv, Bytes(1 << 16), "--pg").seconds;
  EXPECT_NEAR(run_replay(f.cluster, f.router, t, {}).iteration_s, 5e-6 + p2p + 7e-6, 1e-15);
}

TEST(ReplayEngine, CycleIsAnErrorNamingANodeOnIt) {
  Trace t = two_ranks({comp(1, 1e-6, {3}), comp(2, 1e-6, {1}), comp(3, 1e-6, {2}), comp(4, 1e-6)}, {comp(0, 1e-6)});
  try {
    finish_trace(t);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where().file, "r0");
    EXPECT_TRUE(e.key() == "node 1" || e.key() == "node 2" || e.key() == "node 3") << e.key();
    EXPECT_NE(e.message().find("dependency cycle"), std::string::npos);
  }
}

TEST(ReplayEngine, MissingDependencyAndUnknownGroupAreErrors) {
  Trace t = two_ranks({comp(1, 1e-6, {7})}, {comp(0, 1e-6)});
  EXPECT_THROW(finish_trace(t), InputError);
  Trace g = two_ranks({coll(1, CollectiveKind::AllReduce, 64, "dp", {})}, {coll(1, CollectiveKind::AllReduce, 64, "dp", {})});
  g.groups = {{"tp", {0, 1}}};
  g.groups_file = "comm_group.json";
  try {
    finish_trace(g);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.key(), "node 1");
    EXPECT_NE(e.message().find("unknown process group 'dp'"), std::string::npos);
  }
}

TEST(ReplayEngine, RanksDisagreeingOnACollectiveAreAnError) {
  Fixture f;
  Trace t = two_ranks({coll(1, CollectiveKind::AllReduce, 64, "", {}), coll(2, CollectiveKind::AllReduce, 64, "", {1})},
                      {coll(1, CollectiveKind::AllReduce, 64, "", {})});
  finish_trace(t);
  try {
    run_replay(f.cluster, f.router, t, {});
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where().file, "r0");
    EXPECT_EQ(e.key(), "node 2");  // rank 0's second all-reduce has no partner on rank 1
  }
  Trace s = two_ranks({coll(1, CollectiveKind::AllReduce, 64, "", {})}, {coll(1, CollectiveKind::AllReduce, 128, "", {})});
  finish_trace(s);
  EXPECT_THROW(run_replay(f.cluster, f.router, s, {}), InputError);
}

TEST(ReplayEngine, CrossedOrdersDeadlockWithAClearError) {
  Fixture f;
  // Rank 0 runs A on group "x" then B on "y"; rank 1 runs B then A: each waits for the other.
  Trace t = two_ranks({coll(1, CollectiveKind::AllReduce, 64, "x", {}), coll(2, CollectiveKind::AllReduce, 64, "y", {1})},
                      {coll(1, CollectiveKind::AllReduce, 64, "y", {}), coll(2, CollectiveKind::AllReduce, 64, "x", {1})});
  finish_trace(t);
  try {
    run_replay(f.cluster, f.router, t, {});
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(e.message().find("replay deadlock"), std::string::npos);
  }
}

}  // namespace
}  // namespace gf
