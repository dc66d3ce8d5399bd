// NCCL_IB_QPS_PER_CONNECTION (issue 19; engine/queue_pairs.hpp): each connection of NCCL's IB
// transport runs over Q queue pairs, each its own ECMP flow. Two servers under two leaves, one
// connection per NIC rail crossing the spines: with one QP a connection sits on the one uplink its
// hash picks, so uplinks stack; with Q QPs each connection's bytes spread over Q hashed uplinks.
//
// Why the times below follow from the uplink loads. n connections of S bytes start together (no
// step latency: Transfer::steps = 0), connection i from NIC i of server 0 to NIC i of server 1,
// through leaf 0, one of k single-cable spines and leaf 1. With Q QPs there are nQ flows of S/Q;
// uplink j carries L_j of them (the spine's cable down to leaf 1 the same L_j), NIC i's link Q.
// Every link runs at the same rate B. Max-min: the most loaded uplink (L = max L_j >= Q, as the
// mean is nQ/k = Q for n = k) gives its flows B/L, the least share anywhere (a NIC gives each of
// its Q flows at least B/Q >= B/L), so they hold B/L until they end together at (S/Q)/(B/L), and
// every other flow has at least B/L and ends no later: T = (L/Q) x S/B. A lone connection (one
// flow per link) takes S/B, so T / T_alone = L/Q, with L counted from the routes themselves.
//
// Over seeds the hash is a uniform draw: L is the largest bin of nQ balls in k bins, whose mean
// is exact by the counting below; the mean of L/Q over seeds must match it, one QP (8 balls in 8
// bins, E[L] = 2.5972) well above four (32 balls, E[L]/4 = 1.7619; both by exact fractions and
// checked by 200,000 random draws, 2.5987 and 1.7627).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "accuracy/validate.hpp"
#include "collective/communicator.hpp"
#include "collective/schedule.hpp"
#include "config/cluster_yaml.hpp"
#include "core/error.hpp"
#include "engine/executor.hpp"
#include "engine/queue_pairs.hpp"
#include "engine/transfer_routes.hpp"
#include "model/flow/flow_model.hpp"
#include "nccl/nccl_env.hpp"
#include "routing/router.hpp"
#include "topology/cluster.hpp"
#include "topology/cluster_spec.hpp"

using namespace gf;

namespace {

// Two DGX H100 on 400G RoCE: 16-port leaves, 1:1 (8 NICs down, 8 up), so each server fills a leaf;
// 2-port spines, so the 8 uplinks of a leaf go to 8 spines, one cable each (fabrics/leaf_spine.cpp).
const char* kTwoLeaves = R"(name: two-leaves
description: 2x DGX H100 on 400G RoCE, one leaf each, 8 single-cable spines
source: test
server:
  base: dgx-h100
  nic_tech: roce-400g
servers: 2
fabric:
  kind: leaf_spine
  link: roce-400g
  switch_model: tomahawk5-400g
  switch_radix: 16
  spine_radix: 2
  oversubscription: 1
)";

constexpr int kRails = 8;  // n connections = k uplinks
constexpr int64_t kBytes = int64_t{1} << 30;

ClusterSpec spec_with(const std::string& yaml, int qps) {
  ClusterSpec spec = parse_cluster_yaml(yaml, "test.yaml");
  spec.server.transport.net.ib_qps = qps;
  spec.server.transport.net.ib_qps_set = qps != 1;
  return spec;
}

// Connection i: rank i (server 0, GPU i) to rank 8 + i (server 1, GPU i), all at once, `n` of them.
Schedule rails(int n) {
  Schedule s("rails", 2 * kRails, 1, Protocol::Simple);
  for (int i = 0; i < n; ++i) {
    Transfer t;
    t.src = i;
    t.dst = kRails + i;
    t.bytes = Bytes(kBytes);
    t.steps = 0;  // no step latency: the time is the bytes' alone
    s.add(t);
  }
  return s;
}

struct RailsRun {
  double ratio;  // T / T_alone
  int most;      // the largest number of flows (legs) on one link
};

RailsRun run_rails(int qps, uint64_t seed) {
  Cluster c = build_cluster(spec_with(kTwoLeaves, qps));
  Router router(c);
  Communicator comm = make_communicator(c, router, 2, kRails);
  const Schedule all = rails(kRails), one = rails(1);
  std::map<LinkId, int> flows;
  for (TransferId id = 0; id < kRails; ++id)
    for (const Leg& leg : transfer_legs(all, id, comm, router, seed))
      for (LinkId l : leg.path.links) ++flows[l];
  int most = 0;
  for (const auto& [l, n] : flows) most = std::max(most, n);
  FlowModel m1(c), m2(c);
  const double t_all = run_schedule(all, comm, router, m1, seed).duration.to_s();
  const double t_one = run_schedule(one, comm, router, m2, seed).duration.to_s();
  return {t_all / t_one, most};
}

// E[largest bin] for `balls` uniform balls in `bins` bins: P(max <= c) = balls! / bins^balls x
// [x^balls] (sum_{j<=c} x^j / j!)^bins, a polynomial power computed term by term.
double expected_largest_bin(int balls, int bins) {
  double mean = 0, below = 0;  // below: P(max <= c - 1)
  for (int c = 1; c <= balls; ++c) {
    std::vector<double> one(static_cast<size_t>(balls) + 1, 0.0), acc(static_cast<size_t>(balls) + 1, 0.0);
    double f = 1;
    for (int j = 0; j <= std::min(c, balls); ++j) {
      one[static_cast<size_t>(j)] = f;  // 1 / j!
      f /= j + 1;
    }
    acc[0] = 1;
    for (int b = 0; b < bins; ++b) {
      std::vector<double> next(acc.size(), 0.0);
      for (size_t i = 0; i < acc.size(); ++i)
        for (size_t j = 0; i + j < acc.size(); ++j) next[i + j] += acc[i] * one[j];
      acc = next;
    }
    // balls! / bins^balls, by logs to stay in range.
    const double scale = std::exp(std::lgamma(balls + 1.0) - balls * std::log(static_cast<double>(bins)));
    const double at_most = acc[static_cast<size_t>(balls)] * scale;
    mean += c * (at_most - below);
    below = at_most;
  }
  return mean;
}

}  // namespace

TEST(Lat10QueuePairs, ClosedFormOfTheLargestBin) {
  // By hand: 2 balls in 2 bins, max 2 with probability 1/2, else 1: E = 1.5. 8 balls in 2 bins:
  // (4 x 70 + 5 x 112 + 6 x 56 + 7 x 16 + 8 x 2) / 256 = 1304 / 256 = 5.09375.
  EXPECT_NEAR(expected_largest_bin(2, 2), 1.5, 1e-12);
  EXPECT_NEAR(expected_largest_bin(8, 2), 5.09375, 1e-12);
  EXPECT_NEAR(expected_largest_bin(8, 8), 2.5972, 1e-4);
  EXPECT_NEAR(expected_largest_bin(32, 8) / 4, 1.7619, 1e-4);
}

TEST(Lat10QueuePairs, EachSeedRunsAtItsMostLoadedUplink) {
  // T / T_alone = L / Q for every seed (derivation at the top), within the flow model's 0.1%
  // completion tolerance.
  for (const int qps : {1, 4})
    for (uint64_t seed = 0; seed < 6; ++seed) {
      const RailsRun r = run_rails(qps, seed);
      EXPECT_GE(r.most, qps);
      EXPECT_NEAR(r.ratio, static_cast<double>(r.most) / qps, 2e-3 * r.most / qps) << "Q " << qps << " seed " << seed;
    }
}

TEST(Lat10QueuePairs, FourQueuePairsSpreadWhatOneStacks) {
  // Mean of T / T_alone over 150 seeds against E[L] / Q; the sample's own standard error sets the
  // tolerance (4 of them, about 0.2), and the two means are far apart (2.60 vs 1.76).
  constexpr int kSeeds = 150;
  for (const int qps : {1, 4}) {
    double sum = 0, sq = 0;
    for (uint64_t seed = 0; seed < kSeeds; ++seed) {
      const double x = run_rails(qps, seed).ratio;
      sum += x;
      sq += x * x;
    }
    const double mean = sum / kSeeds;
    const double se = std::sqrt(std::max(0.0, sq / kSeeds - mean * mean) / kSeeds);
    const double want = expected_largest_bin(kRails * qps, kRails) / qps;
    EXPECT_NEAR(mean, want, 4 * se + 1e-3) << "Q " << qps;
  }
}

TEST(Lat10QueuePairs, OneQueuePairKeepsTheRouteAsItWas) {
  // NCCL's default: one leg, share 1, the hash of the connection's key alone.
  Cluster c1 = build_cluster(spec_with(kTwoLeaves, 1));
  Router r1(c1);
  Communicator comm = make_communicator(c1, r1, 2, kRails);
  const Schedule s = rails(kRails);
  for (TransferId id = 0; id < kRails; ++id) {
    const Route r = transfer_legs(s, id, comm, r1, 7);
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(r[0].share, 1.0);
  }
  // Q = 4: four legs of a quarter each, QP 0's the same links as the one-QP route.
  Cluster c4 = build_cluster(spec_with(kTwoLeaves, 4));
  Router r4(c4);
  Communicator comm4 = make_communicator(c4, r4, 2, kRails);
  for (TransferId id = 0; id < kRails; ++id) {
    const Route one = transfer_legs(s, id, comm, r1, 7);
    const Route four = transfer_legs(s, id, comm4, r4, 7);
    ASSERT_EQ(four.size(), 4u);
    for (const Leg& leg : four) EXPECT_EQ(leg.share, 0.25);
    EXPECT_EQ(four[0].path.links, one[0].path.links);
  }
}

TEST(Lat10QueuePairs, OnlyNcclsIbTransportHasQueuePairs) {
  // EFA (aws-ofi-nccl) and TCP (sockets, TCPX) have no such setting; NCCL_NET=Socket replaces the
  // IB transport on the same NICs; a route inside a server crosses no NIC.
  for (const std::string& tech : {std::string("efa-100g"), std::string("eth-400g-tcp")}) {
    std::string yaml = kTwoLeaves;
    for (size_t at = yaml.find("roce-400g"); at != std::string::npos; at = yaml.find("roce-400g"))
      yaml.replace(at, 9, tech);
    yaml.replace(yaml.find("tomahawk5-400g"), 14, tech == "efa-100g" ? "efa-fabric" : "tomahawk5-400g");
    Cluster c = build_cluster(spec_with(yaml, 4));
    Router router(c);
    Communicator comm = make_communicator(c, router, 2, kRails);
    const Route r = transfer_legs(rails(1), 0, comm, router, 0);
    EXPECT_EQ(connection_queue_pairs(c, r), 1) << tech;
    EXPECT_EQ(r.size(), 1u) << tech;
  }
  ClusterSpec socket = spec_with(kTwoLeaves, 4);
  socket.server.transport.net.socket = true;
  Cluster cs = build_cluster(socket);
  Router rs(cs);
  Communicator comm_s = make_communicator(cs, rs, 2, kRails);
  EXPECT_EQ(transfer_legs(rails(1), 0, comm_s, rs, 0).size(), 1u);
  // Inside server 0 (rank 0 to rank 1 over NVLink): no NIC, one QP's worth of legs.
  Cluster c4 = build_cluster(spec_with(kTwoLeaves, 4));
  Router r4(c4);
  Communicator comm4 = make_communicator(c4, r4, 2, kRails);
  Schedule inside("inside", 2 * kRails, 1, Protocol::Simple);
  Transfer t;
  t.src = 0;
  t.dst = 1;
  t.bytes = Bytes(kBytes);
  inside.add(t);
  const Route nvlink = transfer_legs(inside, 0, comm4, r4, 0);
  EXPECT_EQ(connection_queue_pairs(c4, nvlink), 1);
  for (const Leg& leg : nvlink) EXPECT_LT(leg.share, 1.0 + 1e-12);
}

TEST(Lat10QueuePairs, EnvironmentVariableAndItsErrors) {
  NcclSettings s;
  apply_nccl_env(s, {{"NCCL_IB_QPS_PER_CONNECTION", "4"}, {"NCCL_IB_SPLIT_DATA_ON_QPS", "0"}}, "--env");
  EXPECT_EQ(s.net.ib_qps, 4);
  EXPECT_TRUE(s.net.ib_qps_set);
  EXPECT_EQ(s.net.ib_split_data, 0);
  EXPECT_TRUE(changes_cluster(s));
  EXPECT_TRUE(s.ignored.empty());
  const std::string line = net_transport_line(s.net, 8, 0, 4);
  EXPECT_NE(line.find("4 queue pairs per IB/RoCE connection"), std::string::npos) << line;
  for (const char* bad : {"0", "129", "four", ""}) {
    NcclSettings t;
    try {
      apply_nccl_env(t, {{"NCCL_IB_QPS_PER_CONNECTION", bad}}, "--env");
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("NCCL_IB_QPS_PER_CONNECTION"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("1 to 128"), std::string::npos) << e.what();
    }
  }
}

TEST(Lat10QueuePairs, ADataSetCarriesTheNcclVariablesItsRunSet) {
  // validation/datasets.yaml `env:`: applied as `perf --env` applies them; a bad value is an error
  // at its line naming the key.
  const std::string head =
      "measured_dir: data\nfiles:\n  - file: t.txt\n    cluster: c.yaml\n    tables:\n"
      "      - name: a\n        collective: all_reduce\n        nodes: 2\n        gpus_per_node: 8\n";
  const ValidationManifest m = parse_manifest(
      head + "        env: {NCCL_IB_QPS_PER_CONNECTION: 4, NCCL_IB_SPLIT_DATA_ON_QPS: 0}\n", "/x/datasets.yaml");
  ASSERT_EQ(m.datasets.size(), 1u);
  EXPECT_EQ(m.datasets[0].nccl.net.ib_qps, 4);
  EXPECT_EQ(m.datasets[0].nccl.applied.size(), 2u);
  try {
    parse_manifest(head + "        env: {NCCL_IB_QPS_PER_CONNECTION: 0}\n", "/x/datasets.yaml");
    ADD_FAILURE() << "accepted 0 queue pairs";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("/x/datasets.yaml:10"), std::string::npos) << what;
    EXPECT_NE(what.find("NCCL_IB_QPS_PER_CONNECTION"), std::string::npos) << what;
  }
}

