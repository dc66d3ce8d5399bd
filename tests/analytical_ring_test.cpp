// The analytical model on a ring all-reduce inside one DGX H100, against the closed form.
#include <gtest/gtest.h>

#include <cmath>

#include "collective/algorithm.hpp"
#include "config/presets.hpp"
#include "model/analytical/analytical_model.hpp"
#include "engine/executor.hpp"

using namespace gf;

TEST(AnalyticalRing, AllReduceOnOneDgxH100MatchesClosedForm) {
  ClusterSpec spec = resolve_cluster("dgx-h100");
  Cluster c = build_cluster(spec);
  Router router(c);
  Communicator comm = make_communicator(c, router, 1, 8);
  const int n = 8, C = 4;
  CollectiveCall call;
  call.kind = CollectiveKind::AllReduce;
  call.bytes = Bytes::mib(64);
  Schedule s = find_algorithm("ring")->build(comm, call, {Protocol::Simple, C});
  AnalyticalModel model(c);
  ScheduleRun run = run_schedule(s, comm, router, model);
  // Closed form. Each ring edge is NVLink sprayed over the 4 NVSwitch chips: 18 lanes x 25 GB/s =
  // 450 GB/s per direction, x NCCL's Hopper NVLink efficiency 20.6/25, shared by C channels.
  // Each step moves ceil(S / C / n) bytes; 2(n-1) steps; each step also pays NCCL's NVLink/Simple
  // step latency, 3.4 us; the call pays Ring/Simple's base latency, 8.4 us, once.
  const double bw = 450e9 * (20.6 / 25.0) / C;
  const double chunk = std::ceil(64.0 * 1024 * 1024 / C / n);
  const double expected_s = 8.4e-6 + 2 * (n - 1) * (3.4e-6 + chunk / bw);
  EXPECT_NEAR(run.duration.to_s(), expected_s, expected_s * 1e-6);
  // And so busbw = S / t x 2(n-1)/n approaches 450 x 0.824 = 370.8 GB/s for large S.
  double busbw = 64.0 * 1024 * 1024 / run.duration.to_s() * 2 * (n - 1) / n / 1e9;
  EXPECT_LT(busbw, 370.8);
  EXPECT_GT(busbw, 300.0);
}

TEST(AnalyticalRing, TwoServersCrossTheNicsOnce) {
  // 2 DGX H100, 1 GPU each: the ring is gpu0 <-> gpu8 through the NICs (400 Gb/s = 50 GB/s, x the
  // network efficiency), each step paying NCCL's NET/Simple step latency 14 us plus the path's
  // wire and switch time: 2 x 150 ns of PCIe Gen5 each side, NIC -> rail leaf 60 ns + Quantum-2's
  // 130 ns, leaf -> NIC 60 ns = 0.85 us (the IB verbs transport adds nothing).
  Cluster c = build_cluster(resolve_cluster("dgx-h100-2node"));
  Router router(c);
  Communicator comm = make_communicator(c, router, 2, 1);
  CollectiveCall call;
  call.bytes = Bytes::mib(8);
  Schedule s = find_algorithm("ring")->build(comm, call, {Protocol::Simple, 1});
  AnalyticalModel model(c);
  ScheduleRun run = run_schedule(s, comm, router, model);
  const double bw = 50e9 * ModelParams{}.net_efficiency;
  const double chunk = 8.0 * 1024 * 1024 / 2;
  const double expected_s = 8.4e-6 + 2 * (14e-6 + 0.85e-6 + chunk / bw);  // 2(n-1) = 2 steps
  EXPECT_NEAR(run.duration.to_s(), expected_s, expected_s * 1e-6);
}
