// Failed and degraded components (topology/faults.hpp): names as topo prints them, errors with
// a did-you-mean, and closed forms of what a failure costs.
#include <gtest/gtest.h>

#include <gpufabric/simulation.hpp>

#include "collective/communicator.hpp"
#include "routing/router.hpp"
#include "test_clusters.hpp"
#include "topology/faults.hpp"
#include "workload/sweep.hpp"

namespace {

gf::Cluster dgx2() { return gf::build_cluster(gf::resolve_cluster("dgx-h100-2node", gf::ClusterOverrides{})); }

gf::InputError error_of(const gf::Cluster& c, const std::string& name) {
  try {
    gf::component_links(c, name, "--fail");
  } catch (const gf::InputError& e) {
    return e;
  }
  ADD_FAILURE() << "expected an InputError for " << name;
  return gf::InputError({}, "", "");
}

TEST(FailFaults, NamesAsTopoPrintsThem) {
  const gf::Cluster c = dgx2();
  // dgx-h100-2node: 8 rail leaves (one per rail), each with 2 NICs below and 2 cables to the one
  // spine (16 leaf-spine cables in `topo`), each cable its own link (topology/bundle.hpp).
  EXPECT_EQ(gf::component_links(c, "server1/nic3", "--fail").links.size(), 1u);  // its leaf cable
  EXPECT_EQ(gf::component_links(c, "leaf0", "--fail").links.size(), 4u);         // 2 NICs + 2 spine cables
  EXPECT_EQ(gf::component_links(c, "spine0", "--fail").links.size(), 16u);       // 2 per leaf
  const auto bundle = gf::component_links(c, "leaf0-spine0", "--fail");
  ASSERT_EQ(bundle.links.size(), 2u);
  EXPECT_EQ(c.link(bundle.links[0]).lanes, 1);
  EXPECT_EQ(gf::component_links(c, "leaf0-spine0#2", "--fail").cable, 2);
  EXPECT_EQ(gf::component_links(c, "leaf0-spine0#2", "--fail").links, std::vector<gf::LinkId>{bundle.links[1]});
  EXPECT_EQ(gf::component_links(c, "spine0-leaf0", "--fail").links, bundle.links);
}

TEST(FailFaults, UnknownNamesSayWhatWasMeant) {
  const gf::Cluster c = dgx2();
  auto e = error_of(c, "leaf00");
  EXPECT_EQ(e.key(), "--fail");
  EXPECT_NE(e.hint().find("leaf0"), std::string::npos) << e.what();
  e = error_of(c, "server1/nci3");
  EXPECT_NE(e.hint().find("server1/nic3"), std::string::npos) << e.what();
  EXPECT_NE(error_of(c, "leaf0-spine0#3").message().find("2 parallel cables"), std::string::npos);
  EXPECT_NE(error_of(c, "leaf0-leaf1").message().find("not cabled"), std::string::npos);
  EXPECT_NE(error_of(c, "server0/gpu1").hint().find("goodput"), std::string::npos);
  EXPECT_NE(error_of(c, "server2/nic0").message().find("server2/nic0"), std::string::npos);
  EXPECT_NE(error_of(c, "leaf0-spine9").message().find("spine9"), std::string::npos);
  for (const char* bad : {"x=0", "x=1", "x=-0.5", "x=abc", "x", "=0.5", "x=nan"})
    EXPECT_THROW(gf::parse_fault("--degrade", bad), gf::InputError) << bad;
  EXPECT_DOUBLE_EQ(gf::parse_fault("--degrade", "server1/nic3=0.25").keep, 0.25);
}

TEST(FailFaults, OneCableOfABundle) {
  gf::Cluster c = dgx2();
  const auto bundle = gf::component_links(c, "leaf0-spine0", "--fail").links;
  ASSERT_EQ(bundle.size(), 2u);
  const double full = c.link(bundle[0]).bandwidth.bytes_per_second();
  gf::apply_faults(c, {gf::parse_fault("--fail", "leaf0-spine0#2")});
  // 2 cables of 50 GB/s: the second is down, the first untouched.
  EXPECT_TRUE(c.is_down(bundle[1]));
  EXPECT_FALSE(c.is_down(bundle[0]));
  EXPECT_DOUBLE_EQ(c.link(bundle[0]).bandwidth.bytes_per_second(), full);
  gf::apply_faults(c, {gf::parse_fault("--fail", "leaf0-spine0#1")});
  EXPECT_TRUE(c.is_down(bundle[0]));
  for (gf::LinkId o : c.out_links(c.find_node("leaf0"))) EXPECT_TRUE(o != bundle[0] && o != bundle[1]);
}

double ring_busbw(const gf::Simulation& sim) {
  gf::SweepOptions o;
  o.call.kind = gf::CollectiveKind::AllReduce;
  o.min_bytes = o.max_bytes = gf::Bytes::gib(1);
  o.algo = "ring";
  o.proto = "simple";
  return sim.sweep(sim.communicator(), o).at(0).busbw_gBps;
}

TEST(FailFaults, RingAllReduceWithOneRailAtHalfBandwidth) {
  // As for a slower NIC (fail_nic_tech_test): NCCL gives every ring channel an equal share of the
  // data, so the channels on the half-speed rail set the pace; two DGX H100 are NIC-bound, so
  // busbw halves (within 10% for the NVLink and latency parts both runs share).
  const auto healthy = gf::Simulation::load("dgx-h100-2node", {});
  const auto slow = gf::Simulation::load("dgx-h100-2node", {}, {gf::parse_fault("--degrade", "server0/nic3=0.5")});
  EXPECT_NEAR(ring_busbw(slow) / ring_busbw(healthy), 0.5, 0.05);
}

// 24 one-GPU servers on 16-port leaves at 4:1 (12 NICs down, 3 up: fabric_common's split), two
// leaves, and 2-port spines, so 3 spines with one cable from each leaf.
gf::ClusterSpec three_spines() {
  auto spec = gftest::spec_of(gftest::small_server(), 24, "leaf_spine", 16);
  spec.fabric.oversubscription = 4;
  spec.fabric.spine_radix = 2;
  return spec;
}

double alltoall_us(const gf::ClusterSpec& spec, const std::vector<gf::FaultRequest>& faults, size_t* paths) {
  gf::Cluster c = gf::build_cluster(spec);
  gf::apply_faults(c, faults);
  gf::Router r(c);
  *paths = r.equal_cost_paths(c.gpu(0), c.gpu(23), 64).size();
  auto comm = gf::make_communicator(c, r, 24, 1);
  gf::SweepOptions o;
  o.call.kind = gf::CollectiveKind::AllToAll;
  o.min_bytes = o.max_bytes = gf::Bytes::mib(24 * 16);
  o.routing = gf::RoutingPolicy::Spray;
  return gf::run_sweep(comm, r, o).at(0).time.to_us();
}

TEST(FailFaults, LeafSpineWithOneOfThreeSpinesDown) {
  // Equal-cost routes between the leaves: one per spine, 3, then 2 (ECMP over k - 1).
  // All-to-all of S per rank: 12 x 12 flows of S/24 cross from each leaf to the other over its 3
  // uplinks (150 GB/s), 1.04 GB/s a flow, while a NIC could give its 23 flows 2.2 GB/s: the
  // uplinks bind. Sprayed evenly over the spines, the crossing takes 144 S/24 / (k x 50 GB/s), so
  // one spine down makes it k / (k - 1) = 1.5 times longer (within 3% for the intra-leaf part and
  // latency).
  size_t before = 0, after = 0;
  const double t0 = alltoall_us(three_spines(), {}, &before);
  const double t1 = alltoall_us(three_spines(), {gf::parse_fault("--fail", "spine0")}, &after);
  EXPECT_EQ(before, 3u);
  EXPECT_EQ(after, 2u);
  EXPECT_NEAR(t1 / t0, 1.5, 0.045) << t0 << " us, then " << t1 << " us";
}

TEST(FailFaults, TheOnlyPathDownLeavesGpusUnreachable) {
  // Rail-optimized: rail 0's NICs hang off leaf0 only, but every server has 7 other rails, so a
  // leaf down reroutes; all 8 NICs of server1 down cut it off.
  auto sim = gf::Simulation::load("dgx-h100-2node", {}, {gf::parse_fault("--fail", "leaf0")});
  EXPECT_TRUE(sim.unreachable(sim.communicator()).empty());
  std::vector<gf::FaultRequest> all;
  for (int n = 0; n < 8; ++n) all.push_back(gf::parse_fault("--fail", "server1/nic" + std::to_string(n)));
  auto cut = gf::Simulation::load("dgx-h100-2node", {}, all);
  const auto lost = cut.unreachable(cut.communicator());
  ASSERT_EQ(lost.size(), 8u);
  EXPECT_EQ(lost.front(), 8);
  EXPECT_EQ(lost.back(), 15);
}

}  // namespace
