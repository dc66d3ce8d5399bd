// An NVLink domain's switch chips are built as one switch plane (cluster_builder.cpp,
// build_scale_up). Two checks: the built graph (one plane node per domain, one bonded link per GPU
// with every NVLink's bandwidth, the counts the summary reports), and that folding the chips
// changes no time: the same transfers on a hand-built domain of separate chips, each transfer
// spread over the chips by bandwidth as Router::scale_up_route spreads it, and on one plane of
// their summed lanes finish at the same picosecond in the flow and analytical models.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "model/analytical/analytical_model.hpp"
#include "model/flow/flow_model.hpp"
#include "model/transfer_cost.hpp"
#include "packet_test_net.hpp"
#include "test_clusters.hpp"
#include "topology/cluster_spec.hpp"
#include "topology/servers/servers.hpp"

using namespace gf;

namespace {

// Two NVL72 domains: 36 trays of 4 GPUs, 18 chips and 18 NVLink5 lanes per GPU per domain.
TEST(ScaleUpPlane, OneNodePerDomainAndOneBondedLinkPerGpu) {
  const ClusterSpec spec = gftest::spec_of(make_gb200_nvl72(), 36);
  const ClusterCounts counts = count_cluster(spec);
  const Cluster c = build_cluster(spec);
  std::vector<NodeId> planes;
  for (NodeId n = 0; n < static_cast<NodeId>(c.nodes().size()); ++n)
    if (c.node(n).kind == NodeKind::NvSwitch) planes.push_back(n);
  ASSERT_EQ(planes.size(), 2u);
  const double lane = c.catalog().tech(*c.catalog().find("nvlink5")).per_lane.bytes_per_second();
  for (int64_t g = 0; g < c.gpu_count(); ++g) {
    int to_plane = 0;
    for (LinkId l : c.out_links(c.gpu(g))) {
      if (c.node(c.link(l).dst).kind != NodeKind::NvSwitch) continue;
      ++to_plane;
      EXPECT_EQ(c.link(l).lanes, 18);
      EXPECT_DOUBLE_EQ(c.link(l).bandwidth.bytes_per_second(), 18 * lane);
      // Trays 0-17 sit in domain 0, 18-35 in domain 1 (GPU g is in tray g / 4).
      EXPECT_EQ(c.link(l).dst, planes[static_cast<size_t>(g / 4 / 18)]);
    }
    EXPECT_EQ(to_plane, 1) << "gpu " << g;
  }
  // The summary still counts the physical chips; the link estimate matches what was built.
  EXPECT_EQ(counts.scale_up_switches, 36);
  EXPECT_EQ(counts.links_directed, static_cast<int64_t>(c.links().size()));
}

// Four GPUs on three chips, one lane each, against the same four on one plane of three lanes.
// Transfers g0 -> g1 (48 MiB), g0 -> g2 (24 MiB) and g3 -> g1 (12 MiB) all start at 0 and compete
// on g0's and g1's ports; on the chips each is three legs of share 1/3, one per chip.
struct Domain {
  testnet::Net n{4, 0, LinkFamily::NvLink};
  NodeId plane = -1;
  std::vector<NodeId> chips;
  explicit Domain(bool folded) {
    if (folded) {
      plane = n.c.add_fabric_node(NodeKind::NvSwitch, 1, -1, "plane");
      for (NodeId g : n.gpu) n.c.connect(g, plane, n.tech, 3);
    } else {
      for (int k = 0; k < 3; ++k) chips.push_back(n.c.add_fabric_node(NodeKind::NvSwitch, 1, -1, "chip" + std::to_string(k)));
      for (NodeId g : n.gpu)
        for (NodeId chip : chips) n.c.connect(g, chip, n.tech, 1);
    }
    n.c.finalize();
  }
  LinkId between(NodeId a, NodeId b) const {
    for (LinkId l : n.c.out_links(a))
      if (n.c.link(l).dst == b) return l;
    return -1;
  }
  ModelTransfer transfer(int a, int b, Bytes bytes) const {
    Route r;
    const NodeId ga = n.gpu[static_cast<size_t>(a)], gb = n.gpu[static_cast<size_t>(b)];
    if (plane >= 0) {
      r.push_back({Path{{between(ga, plane), between(plane, gb)}}, 1.0});
    } else {
      for (NodeId chip : chips) r.push_back({Path{{between(ga, chip), between(chip, gb)}}, 1.0 / 3.0});
    }
    ModelTransfer t;
    t.route = std::make_shared<const Route>(std::move(r));
    t.bytes = bytes;
    return t;
  }
};

std::vector<Time> run(Model& m, const Domain& d) {
  m.start(0, d.transfer(0, 1, Bytes::mib(48)), Time::zero());
  m.start(1, d.transfer(0, 2, Bytes::mib(24)), Time::zero());
  m.start(2, d.transfer(3, 1, Bytes::mib(12)), Time::zero());
  return testnet::drain(m, 3);
}

TEST(ScaleUpPlane, FoldingTheChipsChangesNoTime) {
  const Domain chips(false), plane(true);
  {
    FlowModel a(chips.n.c, testnet::params()), b(plane.n.c, testnet::params());
    const std::vector<Time> ta = run(a, chips), tb = run(b, plane);
    for (size_t i = 0; i < 3; ++i) {
      ASSERT_FALSE(ta[i].is_infinite());
      // Completion times are rounded up to the next picosecond: a share of 1/3 may land one
      // picosecond on the other side.
      EXPECT_NEAR(static_cast<double>(ta[i].picoseconds()), static_cast<double>(tb[i].picoseconds()), 2.0) << i;
    }
    // And they are the sharing worked out by hand, with C the capacity of a GPU's link to the
    // plane (3 lanes at NVLink's efficiency) and every transfer's latency phase the same: g0's
    // link splits C/2 : C/2 between g0 -> g1 and g0 -> g2, g1's between g0 -> g1 and g3 -> g1.
    // g3 -> g1 ends after 12 MiB / (C/2) = 24 MiB / C; g0 -> g2 after 48 MiB / C; g0 -> g1 has
    // 24 MiB left then, alone at C: 72 MiB / C. So the three ends are 24 MiB / C apart.
    const double cap = TransferCost(plane.n.c, testnet::params()).capacity(plane.between(plane.n.gpu[0], plane.plane));
    const double gap_ps = static_cast<double>(Bytes::mib(24).count()) / cap * 1e12;
    EXPECT_NEAR(static_cast<double>((tb[1] - tb[2]).picoseconds()), gap_ps, 2.0);
    EXPECT_NEAR(static_cast<double>((tb[0] - tb[1]).picoseconds()), gap_ps, 2.0);
  }
  {
    AnalyticalModel a(chips.n.c, testnet::params()), b(plane.n.c, testnet::params());
    const std::vector<Time> ta = run(a, chips), tb = run(b, plane);
    for (size_t i = 0; i < 3; ++i)
      EXPECT_NEAR(static_cast<double>(ta[i].picoseconds()), static_cast<double>(tb[i].picoseconds()), 2.0) << i;
  }
}

}  // namespace
