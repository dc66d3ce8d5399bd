// Replay's split of overlapping collectives into parts that share no link, and its reuse of one
// server's timing for every server's copy (replay/server_local): the replay with them gives the
// same iteration as the replay that runs each overlapping set whole, on the flow and analytical
// models; and what counts as local.
#include <gtest/gtest.h>

#include <string>

#include "config/presets.hpp"
#include "replay/replay.hpp"
#include "replay/server_local.hpp"
#include "replay/trace_loader.hpp"
#include "routing/router.hpp"
#include "topology/cluster_spec.hpp"

namespace gf {
namespace {

TraceNode comp(uint64_t id, double s, std::vector<uint64_t> deps = {}) {
  TraceNode n;
  n.id = id;
  n.duration_s = s;
  n.deps = std::move(deps);
  return n;
}

TraceNode coll(uint64_t id, std::string pg, int64_t bytes, std::vector<uint64_t> deps) {
  TraceNode n;
  n.id = id;
  n.kind = TraceNodeKind::Collective;
  n.collective = CollectiveKind::AllReduce;
  n.pg = std::move(pg);
  n.bytes = bytes;
  n.deps = std::move(deps);
  return n;
}

TraceNode p2p(uint64_t id, TraceNodeKind kind, int64_t peer, int64_t tag, int64_t bytes, std::vector<uint64_t> deps) {
  TraceNode n;
  n.tag = tag;
  n.id = id;
  n.kind = kind;
  n.collective = CollectiveKind::SendRecv;
  n.peer = peer;
  n.bytes = bytes;
  n.deps = std::move(deps);
  return n;
}

// Two DGX H100, 16 ranks, TP groups of 4 (two per server) and pairs (ranks 0-1, 4-5, 8-9, 12-13).
// Phase 1: after 1 ms of compute every TP group all-reduces 64 MiB and every pair 16 MiB at once:
// on each server a part of four all-reduces, the pairs' sharing their GPUs' NVLink ports with the
// TP groups'; the two servers' parts share nothing, and server 1's is server 0's shifted. Phase 2:
// rank 0 sends rank 8 two messages of 32 MiB at once (both through GPU 0's NIC) while server 1's TP
// groups all-reduce again and server 0's compute: a part that crosses both servers.
Trace two_servers() {
  Trace t;
  t.format = "test";
  t.ranks.resize(16);
  constexpr int64_t kAr = int64_t{64} << 20, kPair = int64_t{16} << 20, kSend = int64_t{32} << 20;
  for (int64_t r = 0; r < 16; ++r) {
    auto& nodes = t.ranks[static_cast<size_t>(r)].nodes;
    t.ranks[static_cast<size_t>(r)].rank = r;
    t.ranks[static_cast<size_t>(r)].file = "r" + std::to_string(r);
    const std::string pg = "tp" + std::to_string(r / 4);
    nodes = {comp(0, 1e-3), coll(1, pg, kAr, {0})};
    if (r % 4 < 2) nodes.push_back(coll(4, "pair" + std::to_string(r / 2), kPair, {0}));
    if (r < 8) nodes.push_back(comp(2, 2e-3, {1}));
    else nodes.push_back(coll(2, pg, kAr, {1}));
    if (r == 0) {
      nodes.push_back(p2p(3, TraceNodeKind::Send, 8, 0, kSend, {1}));
      nodes.push_back(p2p(5, TraceNodeKind::Send, 8, 1, kSend, {1}));
    }
    if (r == 8) {
      nodes.push_back(p2p(3, TraceNodeKind::Recv, 0, 0, kSend, {}));
      nodes.push_back(p2p(5, TraceNodeKind::Recv, 0, 1, kSend, {}));
    }
  }
  finish_trace(t);
  return t;
}

// Server 1's CPU-to-CPU link at half its bandwidth: servers are no longer alike, so replay runs
// every overlapping set whole. No route between GPUs uses that link (NVLink inside a server, the
// GPU's own PCIe switch to its NIC across), so every transfer's time is as on the uniform cluster.
Cluster with_server1_socket_link_halved() {
  Cluster c = build_cluster(resolve_cluster("dgx-h100", 2));
  const int64_t nps = c.nodes_per_server();
  for (size_t i = 0; i < c.links().size(); ++i) {
    const Link& k = c.links()[i];
    const int64_t a = static_cast<int64_t>(k.src), b = static_cast<int64_t>(k.dst);
    if (a / nps == 1 && b / nps == 1 && a < 2 * nps && b < 2 * nps &&
        c.catalog().tech(k.tech).family == LinkFamily::InterSocket) {
      c.set_capacity(static_cast<LinkId>(i), Bandwidth::bytes_per_s(k.bandwidth.bytes_per_second() / 2), k.lanes);
      return c;
    }
  }
  ADD_FAILURE() << "no CPU-to-CPU link on server 1";
  return c;
}

TEST(ReplayServerLocal, SplitSetsGiveTheWholeSetsIteration) {
  const Cluster uniform = build_cluster(resolve_cluster("dgx-h100", 2));
  const Router ru(uniform);
  const Cluster odd = with_server1_socket_link_halved();
  const Router ro(odd);
  ASSERT_TRUE(ServerLocality(uniform, ru).enabled());
  ASSERT_FALSE(ServerLocality(odd, ro).enabled());
  const Trace t = two_servers();
  for (const char* model : {"flow", "analytical"}) {
    ReplayOptions o;
    o.network_model = model;
    const ReplayResult split = run_replay(uniform, ru, t, o);
    const ReplayResult whole = run_replay(odd, ro, t, o);
    // Sets whose parts share no link: each part runs as it does inside the whole set.
    EXPECT_NEAR(split.iteration_s, whole.iteration_s, 1e-12 * whole.iteration_s) << model;
    EXPECT_NEAR(split.uncontended_iteration_s, whole.uncontended_iteration_s, 1e-12 * whole.iteration_s) << model;
    // Contention is there to be kept: the two all-reduces of a server slow each other.
    EXPECT_GT(split.iteration_s, split.uncontended_iteration_s) << model;
    // Server 1's all-reduces are timed as server 0's: positions 0-3, 4-7, 0-1 and 4-5, plus the
    // send (both alike), against 4 TP groups + 4 pairs + 1 send when each group is its own.
    EXPECT_EQ(split.timed, 5) << model;
    EXPECT_EQ(whole.timed, 9) << model;
  }
}

TEST(ReplayServerLocal, WhatStaysInsideAServer) {
  const Cluster c = build_cluster(resolve_cluster("dgx-h100", 2));
  const Router r(c);
  const ServerLocality s(c, r);
  EXPECT_EQ(s.server_of({0, 1, 2, 3}), 0);
  EXPECT_EQ(s.server_of({12, 13, 14, 15}), 1);
  EXPECT_EQ(s.server_of({0, 8}), -1);      // across servers: the network
  EXPECT_EQ(s.server_of({7, 8, 9}), -1);
}

}  // namespace
}  // namespace gf
