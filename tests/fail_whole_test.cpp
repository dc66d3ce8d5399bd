// A whole server and an NVSwitch chip (topology/whole_faults.hpp): names as topo prints them,
// errors with a did-you-mean, and the closed forms of what they cost.
#include <gtest/gtest.h>

#include <gpufabric/simulation.hpp>

#include "collective/communicator.hpp"
#include "routing/router.hpp"
#include "topology/faults.hpp"
#include "workload/sweep.hpp"

namespace {

gf::Cluster preset(const std::string& name) { return gf::build_cluster(gf::resolve_cluster(name, gf::ClusterOverrides{})); }

gf::InputError error_of(const gf::Cluster& c, const std::string& name, const std::string& flag = "--fail") {
  try {
    gf::apply_faults(const_cast<gf::Cluster&>(c), {gf::parse_fault(flag, name)});
  } catch (const gf::InputError& e) {
    return e;
  }
  ADD_FAILURE() << "expected an InputError for " << name;
  return gf::InputError({}, "", "");
}

TEST(FailWhole, AServerIsEveryLinkToTheRestOfTheCluster) {
  const gf::Cluster c = preset("dgx-h100-2node");
  // A DGX H100 reaches the rest only through its 8 NICs, one cable each (rail-optimized).
  const auto s = gf::component_links(c, "server1", "--fail");
  EXPECT_EQ(s.scope, gf::AppliedFault::Scope::Server);
  EXPECT_EQ(s.server, 1);
  ASSERT_EQ(s.links.size(), 8u);
  for (gf::LinkId l : s.links)
    EXPECT_NE(c.node(c.link(l).src).server, c.node(c.link(l).dst).server) << c.node_name(c.link(l).src);
  auto sim = gf::Simulation::load("dgx-h100-2node", {}, {gf::parse_fault("--fail", "server1")});
  const auto lost = sim.unreachable(sim.communicator());
  ASSERT_EQ(lost.size(), 8u);  // gpu8 .. gpu15
  EXPECT_EQ(lost.front(), 8);
  EXPECT_EQ(lost.back(), 15);
  EXPECT_TRUE(sim.faults().front().down);
}

TEST(FailWhole, WrongNamesSayWhatWasMeant) {
  const gf::Cluster c = preset("dgx-h100-2node");
  auto e = error_of(c, "server2");
  EXPECT_NE(e.message().find("the cluster has 2 servers"), std::string::npos) << e.what();
  EXPECT_NE(e.hint().find("server0 .. server1"), std::string::npos) << e.what();
  EXPECT_NE(error_of(c, "servr1").hint().find("'server1'"), std::string::npos);
  EXPECT_NE(error_of(c, "server0/nvswich2").hint().find("'server0/nvswitch2'"), std::string::npos);
  EXPECT_NE(error_of(c, "server1/nvswitch4").hint().find("server1/nvswitch"), std::string::npos);
  e = error_of(c, "server1=0.5", "--degrade");
  EXPECT_NE(e.message().find("whole server"), std::string::npos) << e.what();
  EXPECT_NE(error_of(c, "server1#2").message().find("#k names one cable"), std::string::npos);
  const gf::Cluster rack = preset("gb200-nvl72-rack");
  e = error_of(rack, "nvl-domain0/switch-tray9");
  EXPECT_NE(e.message().find("9 NVSwitch switch trays"), std::string::npos) << e.what();
  EXPECT_NE(error_of(rack, "nvl-domain0/nvswitch18").message().find("18 NVSwitch chips"), std::string::npos);
  EXPECT_NE(error_of(rack, "nvl-domain0/switch-try3").hint().find("'nvl-domain0/switch-tray3'"), std::string::npos);
  EXPECT_NE(error_of(rack, "nvl-domain0/switch-tray3=latency:+1us", "--degrade").message().find("not modelled"),
            std::string::npos);
}

TEST(FailWhole, AnNvl72SwitchTrayTakesItsShareOfEveryGpusNvlinks) {
  // GB200 NVL72: each GPU has 18 NVLink5 links, one to each of the 18 chips, bonded here into one
  // link to the domain's plane; a switch tray is 2 chips, so each GPU keeps 16/18 of that link,
  // and a chip at half speed leaves 1 - (1/18)(1 - 0.5) = 35/36 of it.
  gf::Cluster c = preset("gb200-nvl72-rack");
  const gf::NodeId gpu = c.gpu(5);
  const auto plane_link = [&]() {
    for (gf::LinkId l : c.out_links(gpu))
      if (c.node(c.link(l).dst).kind == gf::NodeKind::NvSwitch) return l;
    return gf::LinkId{-1};
  };
  const gf::LinkId l = plane_link();
  ASSERT_GE(l, 0);
  const double full = c.link(l).bandwidth.bytes_per_second();
  EXPECT_EQ(c.link(l).lanes, 18);
  const auto applied = gf::apply_faults(c, {gf::parse_fault("--fail", "nvl-domain0/switch-tray3")});
  EXPECT_EQ(applied.front().scope, gf::AppliedFault::Scope::NvSwitch);
  EXPECT_NE(applied.front().effect.find("keeps 16 of its 18 NVLinks"), std::string::npos) << applied.front().effect;
  EXPECT_NEAR(c.link(l).bandwidth.bytes_per_second() / full, 16.0 / 18, 1e-9);
  EXPECT_NEAR(c.link(c.link(l).reverse).bandwidth.bytes_per_second() / full, 16.0 / 18, 1e-9);
  EXPECT_EQ(c.link(l).lanes, 16);
  gf::Cluster d = preset("gb200-nvl72-rack");
  gf::apply_faults(d, {gf::parse_fault("--degrade", "nvl-domain0/nvswitch7=0.5")});
  EXPECT_NEAR(d.link(l).bandwidth.bytes_per_second() / full, 35.0 / 36, 1e-9);
}

double ring_busbw(const gf::Simulation& sim) {
  gf::SweepOptions o;
  o.call.kind = gf::CollectiveKind::AllReduce;
  o.min_bytes = o.max_bytes = gf::Bytes::gib(1);
  o.algo = "ring";
  o.proto = "simple";
  return sim.sweep(sim.communicator(), o).at(0).busbw_gBps;
}

TEST(FailWhole, OneNvswitchChipDownLeavesEachGpuTheRestOfItsNvlinks) {
  // One DGX H100 (NVIDIA DGX H100 User Guide, system topology): 4 NVSwitch chips, each GPU's 18
  // NVLinks split 5/4/4/5 over them. GPU-to-GPU traffic spreads over the chips in proportion to
  // their bandwidth, so with chip k down each GPU sends and receives at (18 - lanes_k)/18 of its
  // NVLink bandwidth, and a ring all-reduce of 1 GiB, bound by that bandwidth, keeps that fraction
  // of its busbw: 13/18 with chip 0 (5 links) down, 14/18 with chip 1 (4 links), within 2% for the
  // latency both runs share.
  gf::ClusterOverrides one;
  one.nodes = 1;
  const double healthy = ring_busbw(gf::Simulation::load("dgx-h100-2node", one));
  const double chip0 = ring_busbw(gf::Simulation::load("dgx-h100-2node", one, {gf::parse_fault("--fail", "server0/nvswitch0")}));
  const double chip1 = ring_busbw(gf::Simulation::load("dgx-h100-2node", one, {gf::parse_fault("--fail", "server0/nvswitch1")}));
  EXPECT_NEAR(chip0 / healthy, 13.0 / 18, 0.02 * 13 / 18) << healthy << " " << chip0;
  EXPECT_NEAR(chip1 / healthy, 14.0 / 18, 0.02 * 14 / 18) << healthy << " " << chip1;
}

TEST(FailWhole, TheJobRunsOnTheServersLeftAsOnAClusterThatSize) {
  // A rail-optimized DGX H100 cluster is the same from every server, so a ring all-reduce over
  // servers {0, 2, 3} with server1 down is the 3-server job: same time (within 1%, for the ECMP
  // hashes that differ with the servers' numbers). Its busbw, 2(n-1)/n x S / t, is NIC-bound and
  // so within 3% of the 4-server job's (the ring's per-rank bytes, 2(n-1)/n S, barely move).
  gf::ClusterOverrides four;
  four.nodes = 4;
  gf::ClusterOverrides three;
  three.nodes = 3;
  gf::SweepOptions o;
  o.call.kind = gf::CollectiveKind::AllReduce;
  o.min_bytes = o.max_bytes = gf::Bytes::gib(1);
  o.algo = "ring";
  o.proto = "simple";
  const auto failed = gf::Simulation::load("dgx-h100-2node", four, {gf::parse_fault("--fail", "server1")});
  const std::vector<int64_t> left{0, 2, 3};
  const std::vector<int> positions{0, 1, 2, 3, 4, 5, 6, 7};
  const auto comm = gf::make_communicator(failed.cluster(), failed.router(), left, positions);
  EXPECT_TRUE(failed.unreachable(comm).empty());
  const auto rest = failed.sweep(comm, o).at(0);
  const auto small = gf::Simulation::load("dgx-h100-2node", three);
  const auto whole = gf::Simulation::load("dgx-h100-2node", four);
  const auto t3 = small.sweep(small.communicator(), o).at(0);
  const auto t4 = whole.sweep(whole.communicator(), o).at(0);
  EXPECT_NEAR(rest.time.to_us() / t3.time.to_us(), 1.0, 0.01);
  EXPECT_NEAR(rest.busbw_gBps / t4.busbw_gBps, 1.0, 0.03);
}

}  // namespace
