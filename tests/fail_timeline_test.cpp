// Stall, abort or continue (workload/failure_timeline.hpp): the transport's retry clock against
// the fabric's rerouting time, in closed form.
#include <gtest/gtest.h>

#include "config/presets.hpp"
#include "topology/cluster_spec.hpp"
#include "topology/faults.hpp"
#include "workload/failure_timeline.hpp"

namespace {

// dgx-h100-2node: InfiniBand NDR rail leaves under one spine.
gf::FailureTimeline timeline_of(const std::string& spec, const gf::FailureResponse& r) {
  gf::Cluster c = gf::build_cluster(gf::resolve_cluster("dgx-h100-2node", gf::ClusterOverrides{}));
  const auto applied =
      gf::apply_faults(c, {gf::parse_fault(spec.find('=') == std::string::npos ? "--fail" : "--degrade", spec)});
  return gf::failure_timeline(c, applied.at(0), r);
}

// 4.096 us x 2^20 = 4.294967 s per try; 7 tries = 30.06 s (NCCL's defaults).
constexpr double kAckS = 4.096e-6 * 1048576;

TEST(FailTimeline, TransportClock) {
  const gf::FailureResponse r;
  EXPECT_NEAR(r.ack_timeout().to_s(), kAckS, 1e-9);
  EXPECT_NEAR(r.give_up().to_s(), 7 * kAckS, 1e-8);
}

TEST(FailTimeline, ANicDownAbortsOrMovesToAnotherNic) {
  gf::FailureResponse r;
  auto t = timeline_of("server1/nic3", r);
  EXPECT_EQ(t.outcome, gf::FailureTimeline::Outcome::Aborts);
  EXPECT_NEAR(t.stall.to_s(), 7 * kAckS, 1e-8);
  r.nccl = gf::NcclOnFailure::Resilient;
  t = timeline_of("server1/nic3", r);
  EXPECT_EQ(t.outcome, gf::FailureTimeline::Outcome::Continues);
  EXPECT_EQ(t.stall, gf::Time::ms(500));  // resiliency's initial delay
}

TEST(FailTimeline, AFabricLinkStallsUntilTheFirstRetryAfterRerouting) {
  gf::FailureResponse r;
  // Subnet manager, 10 s: retries at 4.29, 8.59, 12.88 s; the third is the first after 10 s.
  auto t = timeline_of("leaf0-spine0", r);
  EXPECT_EQ(t.outcome, gf::FailureTimeline::Outcome::Continues);
  EXPECT_NEAR(t.stall.to_s(), 3 * kAckS, 1e-8);
  // Adaptive routing re-routes in 1 ms, but the lost packet still waits for its first retry.
  r.routing = gf::RoutingPolicy::Adaptive;
  EXPECT_NEAR(timeline_of("leaf0-spine0", r).stall.to_s(), kAckS, 1e-8);
  // A reroute slower than 7 tries (30.06 s): the transport gives up first.
  r.reconverge = gf::Time::s(40);
  t = timeline_of("leaf0-spine0", r);
  EXPECT_EQ(t.outcome, gf::FailureTimeline::Outcome::Aborts);
  EXPECT_NEAR(t.stall.to_s(), 7 * kAckS, 1e-8);
  // A shorter ACK timeout (NCCL_IB_TIMEOUT=14 before NCCL 2.14: 67 ms) resumes sooner: 10 s / 67.1 ms
  // -> the 150th retry, but only 7 are allowed: abort at 0.47 s.
  r.reconverge.reset();
  r.routing = gf::RoutingPolicy::Ecmp;
  r.ib_timeout = 14;
  t = timeline_of("leaf0-spine0", r);
  EXPECT_EQ(t.outcome, gf::FailureTimeline::Outcome::Aborts);
  EXPECT_NEAR(t.stall.to_s(), 7 * 4.096e-6 * 16384, 1e-9);
}

TEST(FailTimeline, DegradedNeverStalls) {
  const auto t = timeline_of("server1/nic3=0.5", {});
  EXPECT_EQ(t.outcome, gf::FailureTimeline::Outcome::Continues);
  EXPECT_EQ(t.stall, gf::Time::zero());
}

}  // namespace
