// Collectives in flight at once contend in a replay as a scenario's jobs do (replay/contention):
// two transfers through one shared NIC each get half of it, against closed forms; transfers that
// share nothing keep their times alone.
#include <gtest/gtest.h>

#include <algorithm>

#include "config/cluster_yaml.hpp"
#include "config/presets.hpp"
#include "replay/replay.hpp"
#include "replay/trace_loader.hpp"
#include "routing/router.hpp"
#include "topology/cluster_spec.hpp"
#include "training/group_collectives.hpp"

namespace gf {
namespace {

// Two DGX H100 with one compute NIC each (`server: {base: dgx-h100, nics: 1}`): every transfer
// between the servers crosses that NIC's 400 Gb/s port, whichever GPU it leaves from.
ClusterSpec one_nic_spec() {
  return parse_cluster_yaml("name: one-nic\nserver:\n  base: dgx-h100\n  nics: 1\nservers: 2\n", "one-nic.yaml");
}

struct OneNic {
  Cluster cluster = build_cluster(one_nic_spec());
  Router router{cluster};
};

struct Fixture2 {
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

TraceNode p2p(uint64_t id, TraceNodeKind kind, int64_t peer, int64_t bytes, std::vector<uint64_t> deps = {}) {
  TraceNode n;
  n.id = id;
  n.kind = kind;
  n.collective = CollectiveKind::SendRecv;
  n.peer = peer;
  n.bytes = bytes;
  n.deps = std::move(deps);
  return n;
}

// Ranks 0..9: rank a sends `bytes` to rank a + 8 for a in `senders`, after `delay[a]` of compute.
Trace sends(const std::vector<int64_t>& senders, const std::vector<double>& delay, int64_t bytes) {
  Trace t;
  t.format = "test";
  t.ranks.resize(10);
  for (int64_t r = 0; r < 10; ++r) t.ranks[static_cast<size_t>(r)] = {r, "r" + std::to_string(r), {}};
  for (size_t k = 0; k < senders.size(); ++k) {
    const int64_t a = senders[k];
    if (delay[k] > 0)
      t.ranks[static_cast<size_t>(a)].nodes = {comp(0, delay[k]), p2p(1, TraceNodeKind::Send, a + 8, bytes, {0})};
    else
      t.ranks[static_cast<size_t>(a)].nodes = {p2p(1, TraceNodeKind::Send, a + 8, bytes)};
    t.ranks[static_cast<size_t>(a + 8)].nodes = {p2p(1, TraceNodeKind::Recv, a, bytes)};
  }
  finish_trace(t);
  return t;
}

constexpr int64_t kBytes = int64_t{256} << 20;

TEST(ReplayContention, TwoSendsThroughOneNicTakeTwiceAsLong) {
  OneNic f;
  ReplayOptions o;
  o.network_model = "flow";
  // Alone, 256 MiB from GPU 0 to GPU 8 takes T = S / B + a fixed part (B about 46 GB/s: 50 GB/s x
  // 0.92). GPUs 0 and 1 sending at once share the one NIC: each gets B/2, so both end at
  // 2 S / B + the fixed part, within 1 % of 2T for a transfer this large.
  // GPU 1's route to the NIC is a little longer than GPU 0's (under a microsecond), so T is the
  // slower of the two alone.
  const double alone = std::max(
      time_groups(f.cluster, f.router, "flow", {{0, 8}}, CollectiveKind::SendRecv, Bytes(kBytes), "--pg").seconds,
      time_groups(f.cluster, f.router, "flow", {{1, 9}}, CollectiveKind::SendRecv, Bytes(kBytes), "--pg").seconds);
  ASSERT_GT(alone, kBytes / 50e9);
  const ReplayResult both = run_replay(f.cluster, f.router, sends({0, 1}, {0, 0}, kBytes), o);
  EXPECT_NEAR(both.iteration_s, 2 * alone, 0.01 * 2 * alone);
  // Without contention each is timed alone: the later ends at T.
  o.contention = false;
  EXPECT_NEAR(run_replay(f.cluster, f.router, sends({0, 1}, {0, 0}, kBytes), o).iteration_s, alone, 1e-12);
}

TEST(ReplayContention, ALaterSendSharesOnlyWhileBothRun) {
  OneNic f;
  ReplayOptions o;
  o.network_model = "flow";
  // GPU 1 starts T/2 after GPU 0. Closed form (rate B alone, B/2 each while both run): GPU 0 has
  // moved S/2 by T/2, its other S/2 at B/2 takes T, so it ends at 3T/2; by then GPU 1 has moved
  // S/2 and sends the rest alone in T/2, ending at 2T. The replay meets each send's start from the
  // first pass (where the two overlap by T/2) and settles on these.
  const double alone = time_groups(f.cluster, f.router, "flow", {{0, 8}}, CollectiveKind::SendRecv, Bytes(kBytes), "--pg").seconds;
  const ReplayResult r = run_replay(f.cluster, f.router, sends({0, 1}, {0, alone / 2}, kBytes), o);
  EXPECT_NEAR(r.iteration_s, 2 * alone, 0.01 * 2 * alone);
  ASSERT_EQ(r.comm.size(), 1u);
  // Per rank, simulated time summed: sender and receiver of each pair count its duration, 3T/2 each.
  EXPECT_NEAR(r.comm[0].simulated_s, 4 * 1.5 * alone, 0.01 * 6 * alone);
}

TEST(ReplayContention, SendsOnSeparateRailsKeepTheirTimesAlone) {
  Fixture2 f;  // a DGX H100 pair: GPU 0 and GPU 1 leave through their own NICs, on separate rails
  ReplayOptions o;
  o.network_model = "flow";
  const double alone = time_groups(f.cluster, f.router, "flow", {{0, 8}}, CollectiveKind::SendRecv, Bytes(kBytes), "--pg").seconds;
  EXPECT_NEAR(run_replay(f.cluster, f.router, sends({0, 1}, {0, 0}, kBytes), o).iteration_s, alone, 1e-9 * alone);
}

}  // namespace
}  // namespace gf
