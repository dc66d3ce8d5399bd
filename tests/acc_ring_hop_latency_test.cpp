// Ring step latency by hop (issue 19): in the steady-state ring every edge waits on the same
// lock-step walk, whose steps inside a server cost NCCL's NVLink figure and only those that cross
// servers its network figure (tuning.cc's ring estimate counts them the same way).
#include <gtest/gtest.h>

#include "collective/algorithm.hpp"
#include "config/presets.hpp"
#include "engine/executor.hpp"
#include "model/analytical/analytical_model.hpp"

using namespace gf;

TEST(AccRingHopLatency, OnlyTheStepsThatCrossServersPayTheNetworkLatency) {
  // dgx-h100-superpod-su: 32 DGX H100 = 256 ranks, all-reduce 1 MiB, ring, Simple, 16 channels:
  // 2(n-1) = 510 steps, of which 2(nodes-1) = 62 cross servers. NCCL's Ring/Simple figures
  // (tuning.cc): base 8.4 us, NVLink 3.4 us and NET 14 us a step:
  //   8.4 + 448 x 3.4 + 62 x 14 = 2399.6 us
  // (all 510 steps at 14 us gave 7148.4 us). Above it: the bandwidth term, 2 x 255/256 MiB over 16
  // channels through 400 Gb/s NICs at 0.92 (a few us), and rounding each edge up to whole steps
  // of its class (under one 14 us step).
  Cluster c = build_cluster(resolve_cluster("dgx-h100-superpod-su"));
  Router router(c);
  Communicator comm = make_communicator(c, router, 32, 8);
  CollectiveCall call;
  call.kind = CollectiveKind::AllReduce;
  call.bytes = Bytes::mib(1);
  Schedule s = find_algorithm("ring")->build(comm, call, {Protocol::Simple, 16});
  AnalyticalModel model(c);
  const double us = run_schedule(s, comm, router, model).duration.to_us();
  const double path = 8.4 + 448 * 3.4 + 62 * 14.0;
  EXPECT_GE(us, path);
  EXPECT_LE(us, path + 14.0 + 8.0);
}

TEST(AccRingHopLatency, OneServerRingIsChargedItsNvlinkStepsOnly) {
  // 1 DGX H100 at 8 ranks is built step by step; forced steady, its 14 steps at 3.4 us + 8.4 us
  // base are the same 56 us the step-by-step form pays (plus its bandwidth term).
  Cluster c = build_cluster(resolve_cluster("dgx-h100-2node"));
  Router router(c);
  Communicator comm = make_communicator(c, router, 1, 8);
  CollectiveCall call;
  call.kind = CollectiveKind::AllReduce;
  call.bytes = Bytes(8 * 1024);
  Schedule s = find_algorithm("ring")->build_steady(comm, call, {Protocol::Simple, 1});
  AnalyticalModel model(c);
  const double us = run_schedule(s, comm, router, model).duration.to_us();
  EXPECT_NEAR(us, 8.4 + 14 * 3.4, 0.5);
}
