// An all-to-all's transfers that stay inside the NVLink domain reach kAllToAllScaleUpEfficiency of
// the links' bandwidth; ones that cross the network are not discounted (TransferCost::inflation).
#include <gtest/gtest.h>

#include "collective/algorithm.hpp"
#include "collective/nccl_constants.hpp"
#include "config/presets.hpp"
#include "model/analytical/analytical_model.hpp"
#include "model/flow/flow_model.hpp"
#include "engine/executor.hpp"

using namespace gf;

namespace {

// Seconds of a direct all-to-all of `bytes`, one channel, Simple; `efficiency` overrides the
// schedule's scale-up efficiency (the algorithm's own when negative).
double alltoall_seconds(const char* preset, int nodes, int ppn, Bytes bytes, double efficiency, bool flow) {
  Cluster c = build_cluster(resolve_cluster(preset));
  Router router(c);
  Communicator comm = make_communicator(c, router, nodes, ppn);
  CollectiveCall call;
  call.kind = CollectiveKind::AllToAll;
  call.bytes = bytes;
  Schedule s = find_algorithm("direct")->build(comm, call, {Protocol::Simple, 1});
  if (efficiency >= 0) s.set_scale_up_efficiency(efficiency);
  if (flow) {
    FlowModel model(c);
    return run_schedule(s, comm, router, model).duration.to_s();
  }
  AnalyticalModel model(c);
  return run_schedule(s, comm, router, model).duration.to_s();
}

// The wire time of the extra S bytes: time(2S) - time(S), the latencies cancelling.
double wire_seconds(const char* preset, int nodes, int ppn, double efficiency, bool flow) {
  const Bytes s = Bytes::mib(64);
  return alltoall_seconds(preset, nodes, ppn, Bytes(2 * s.count()), efficiency, flow) -
         alltoall_seconds(preset, nodes, ppn, s, efficiency, flow);
}

}  // namespace

TEST(AllToAllScaleUp, TheDirectAlgorithmSetsTheFittedEfficiency) {
  Cluster c = build_cluster(resolve_cluster("dgx-h100"));
  Router router(c);
  Communicator comm = make_communicator(c, router, 1, 8);
  CollectiveCall call;
  call.kind = CollectiveKind::AllToAll;
  call.bytes = Bytes::mib(1);
  EXPECT_EQ(find_algorithm("direct")->build(comm, call, {Protocol::Simple, 1}).scale_up_efficiency(),
            kAllToAllScaleUpEfficiency);
  EXPECT_EQ(find_algorithm("pairwise")->build(comm, call, {Protocol::Simple, 1}).scale_up_efficiency(),
            kAllToAllScaleUpEfficiency);
  call.kind = CollectiveKind::AllReduce;  // other collectives keep the links' full rate
  EXPECT_EQ(find_algorithm("ring")->build(comm, call, {Protocol::Simple, 1}).scale_up_efficiency(), 1.0);
}

TEST(AllToAllScaleUp, InsideOneServerTheWireTimeGrowsByOneOverTheEfficiency) {
  // One DGX H100, 8 GPUs on NVSwitch: every transfer is NVLink only, so the wire time of the same
  // bytes is 1/0.85 of what it is at efficiency 1 (latencies equal, cancelled by the 2S - S
  // difference), in both models.
  for (bool flow : {false, true}) {
    const double full = wire_seconds("dgx-h100", 1, 8, 1.0, flow);
    const double discounted = wire_seconds("dgx-h100", 1, 8, 0.85, flow);
    ASSERT_GT(full, 0);
    EXPECT_NEAR(discounted / full, 1.0 / 0.85, 1e-6) << (flow ? "flow" : "analytical");
  }
}

TEST(AllToAllScaleUp, TransfersThatCrossTheNetworkAreNotDiscounted) {
  // Two DGX H100 servers, one GPU each: both transfers cross the InfiniBand fabric, so the
  // efficiency changes nothing.
  for (bool flow : {false, true}) {
    const double full = wire_seconds("dgx-h100-2node", 2, 1, 1.0, flow);
    const double discounted = wire_seconds("dgx-h100-2node", 2, 1, 0.5, flow);
    ASSERT_GT(full, 0);
    EXPECT_DOUBLE_EQ(discounted, full) << (flow ? "flow" : "analytical");
  }
}
