// A server whose NICs are not all alike: each NIC's own `tech` sets its port's speed, the counts
// and the summary say so, and a ring all-reduce runs at the pace of its slowest rail.
#include <gtest/gtest.h>

#include "collective/communicator.hpp"
#include "config/presets.hpp"
#include "routing/router.hpp"
#include "routing/topo_summary.hpp"
#include "topology/cluster_spec.hpp"
#include "workload/sweep.hpp"

namespace {

// Two DGX H100 on the preset's rail-optimized NDR fabric, NIC `slow` of every server set to HDR.
gf::ClusterSpec two_dgx(int slow) {
  gf::ClusterSpec spec = gf::resolve_cluster("dgx-h100-2node", gf::ClusterOverrides{});
  if (slow >= 0) {
    int k = 0;
    for (auto& n : spec.server.nodes)
      if (n.kind == gf::NodeKind::Nic && k++ == slow) n.tech = "ib-hdr";
  }
  return spec;
}

// The fabric link leaving a NIC (its only neighbour outside its server).
const gf::Link& nic_port(const gf::Cluster& c, const std::string& nic) {
  gf::NodeId id = c.find_node(nic);
  for (gf::LinkId l : c.out_links(id))
    if (c.node(c.link(l).dst).server < 0) return c.link(l);
  throw std::logic_error("no fabric link at " + nic);
}

double busbw(const gf::ClusterSpec& spec, int64_t bytes) {
  gf::Cluster c = gf::build_cluster(spec);
  gf::Router r(c);
  gf::Communicator comm = gf::make_communicator(c, r, static_cast<int>(c.servers()), c.gpus_per_server());
  gf::SweepOptions o;
  o.call.kind = gf::CollectiveKind::AllReduce;
  o.min_bytes = o.max_bytes = gf::Bytes(bytes);
  o.algo = "ring";
  o.proto = "simple";
  return gf::run_sweep(comm, r, o).at(0).busbw_gBps;
}

TEST(FailNicTech, EachNicPortRunsAtItsOwnTechnology) {
  const gf::Cluster c = gf::build_cluster(two_dgx(3));
  // NDR is 400 Gb/s = 50 GB/s a direction, HDR 200 Gb/s = 25 GB/s (link catalog).
  EXPECT_DOUBLE_EQ(nic_port(c, "server0/nic3").bandwidth.to_gbps(), 200.0);
  EXPECT_DOUBLE_EQ(nic_port(c, "server1/nic3").bandwidth.to_gbps(), 200.0);
  EXPECT_DOUBLE_EQ(nic_port(c, "server0/nic2").bandwidth.to_gbps(), 400.0);
  EXPECT_DOUBLE_EQ(nic_port(c, "server1/nic7").bandwidth.to_gbps(), 400.0);
}

TEST(FailNicTech, CountsAndSummaryNameBothTechnologies) {
  const gf::ClusterSpec spec = two_dgx(3);
  const gf::TopoSummary s = gf::summarize(spec, nullptr);
  ASSERT_EQ(s.nic_groups.size(), 2u);
  EXPECT_EQ(s.nic_groups[0].tech, "ib-ndr");
  EXPECT_EQ(s.nic_groups[0].per_server, 7);
  EXPECT_EQ(s.nic_groups[1].tech, "ib-hdr");
  EXPECT_EQ(s.nic_groups[1].per_server, 1);
  // 7 x 400 + 1 x 200 Gb/s over 8 GPUs = 375 Gb/s per GPU.
  EXPECT_DOUBLE_EQ(s.nic_bandwidth_per_gpu.to_gbps(), 375.0);
  int64_t ndr = 0, hdr = 0;
  for (const auto& cable : s.counts.fabric.cables) {
    if (cable.between != "nic-leaf") continue;
    if (cable.tech == "ib-ndr") ndr += cable.count;
    if (cable.tech == "ib-hdr") hdr += cable.count;
  }
  EXPECT_EQ(ndr, 14);  // 7 NICs x 2 servers
  EXPECT_EQ(hdr, 2);
}

TEST(FailNicTech, RingAllReduceRunsAtTheSlowestRail) {
  // NCCL splits a collective's data evenly over its channels (src/enqueue.cc: every channel gets
  // the same share of each step), and its topology search gives every ring channel the same
  // speed (src/graph/search.cc, ncclTopoCompute: one bwIntra / bwInter for every channel of a graph), so a ring whose
  // channels cross a rail at half speed finishes when that rail's channels do. Two servers, 16
  // ranks: the ring is bound by the NICs (8 x 50 GB/s out of a server against 450 GB/s of
  // NVLink), so the channels on the HDR rail take twice as long and busbw halves: 0.5 of the
  // all-NDR figure, within 10% for what NVLink and latency add to both.
  const int64_t bytes = int64_t{1} << 30;
  const double ndr = busbw(two_dgx(-1), bytes);
  const double mixed = busbw(two_dgx(3), bytes);
  EXPECT_NEAR(mixed / ndr, 0.5, 0.05) << "all NDR " << ndr << " GB/s, one HDR rail " << mixed << " GB/s";
}

}  // namespace
