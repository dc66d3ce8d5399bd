// Servers without an in-server NVSwitch: the GB200 NVL72 tray, PCIe-only servers, AMD xGMI and
// Intel Gaudi. Counts derived by hand from the datasheets cited in each builder.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "test_clusters.hpp"
#include "topology/cluster_spec.hpp"
#include "topology/server_registry.hpp"
#include "topology/servers/servers.hpp"

namespace gf {
namespace {

// Lanes from gpu0 to other GPUs, to NIC ports and its total NIC rate (Gb/s), from the template.
struct Gpu0 {
  int peer_lanes = 0, port_lanes = 0;
};
Gpu0 gpu0_links(const ServerTemplate& t) {
  Gpu0 g;
  int gpu0 = t.index_of("gpu0");
  for (const auto& l : t.links) {
    int other = l.a == gpu0 ? l.b : l.b == gpu0 ? l.a : -1;
    if (other < 0) continue;
    if (t.nodes[other].kind == NodeKind::Gpu) g.peer_lanes += l.lanes;
    if (t.nodes[other].kind == NodeKind::Nic) g.port_lanes += l.lanes;
  }
  return g;
}
double nic_gbps(const ServerTemplate& t) {
  LinkCatalog cat = LinkCatalog::builtin();
  double sum = 0;
  for (const auto& n : t.nodes)
    if (n.kind == NodeKind::Nic) sum += cat.tech(*cat.find(n.tech)).per_lane.to_gbps();
  return sum;
}
Cluster one(const ServerTemplate& t) { return build_cluster(gftest::spec_of(t, 1)); }

TEST(ServerGb200Nvl72, TrayAndDomain) {
  // 4 GPUs + 2 Grace per tray, 4 x 400 Gb/s IB = 400 Gb/s per GPU; no NVSwitch in the tray. The
  // domain: 18 trays x 4 = 72 GPUs, 18 chips, 18 links per GPU = 1 to each chip, 18 x 50 GB/s =
  // 900 GB/s each way.
  ServerTemplate t = make_gb200_nvl72();
  t.validate(LinkCatalog::builtin(), {});
  EXPECT_EQ(t.count(NodeKind::Gpu), 4);
  EXPECT_EQ(t.count(NodeKind::Cpu), 2);
  EXPECT_EQ(t.count(NodeKind::Nic), 4);
  EXPECT_EQ(t.count(NodeKind::NvSwitch), 0);
  EXPECT_DOUBLE_EQ(nic_gbps(t) / 4, 400);
  ASSERT_TRUE(t.scale_up.has_value());
  EXPECT_EQ(t.scale_up->servers_per_domain * t.count(NodeKind::Gpu), 72);
  EXPECT_EQ(t.scale_up->switch_chips, 18);
  EXPECT_EQ(t.scale_up->links_per_gpu, 18);
  EXPECT_EQ(t.gpu.model, "GB200");
  EXPECT_EQ(t.gpu.arch, "blackwell");
  // In the built graph every GPU has 18 NVLink lanes into the domain's fabric switches.
  Cluster c = one(t);
  int lanes = 0;
  for (LinkId l : c.out_links(c.gpu(0)))
    if (c.node(c.link(l).dst).kind == NodeKind::NvSwitch) lanes += c.link(l).lanes;
  EXPECT_EQ(lanes, 18);
}

TEST(ServerPcie8Gpu, NoNvlinkFourNics) {
  // 8 GPUs, no GPU-GPU links; 4 x 200 Gb/s RoCE / 8 GPUs = 100 Gb/s per GPU; 4 PCIe switches.
  ServerTemplate t = make_pcie_8gpu();
  t.validate(LinkCatalog::builtin(), {});
  EXPECT_EQ(t.count(NodeKind::Gpu), 8);
  EXPECT_EQ(t.count(NodeKind::PcieSwitch), 4);
  EXPECT_EQ(gpu0_links(t).peer_lanes, 0);
  EXPECT_DOUBLE_EQ(nic_gbps(t) / 8, 100);
  EXPECT_EQ(t.default_fabric, "leaf_spine");
  EXPECT_EQ(one(t).gpu_count(), 8);
}

TEST(ServerPcie8GpuRootport, EightNumaNodesNoSwitchForGpus) {
  // 2 sockets x 4 NUMA nodes (NPS4) = 8 root complexes; GPUs straight on them; the only PCIe
  // "switches" are the 2 dual-port NIC cards; 4 x 100 Gb/s / 8 GPUs = 50 Gb/s per GPU.
  ServerTemplate t = make_pcie_8gpu_rootport();
  t.validate(LinkCatalog::builtin(), {});
  EXPECT_EQ(t.count(NodeKind::Cpu), 8);
  EXPECT_EQ(t.count(NodeKind::PcieSwitch), 2);
  EXPECT_EQ(gpu0_links(t).peer_lanes, 0);
  EXPECT_DOUBLE_EQ(nic_gbps(t) / 8, 50);
  EXPECT_EQ(one(t).gpu_count(), 8);
}

TEST(ServerMi300x, XgmiFullMesh) {
  // 7 xGMI links per GPU, one to each peer: 7 x 64 GB/s = 448 GB/s each way (896 GB/s
  // bidirectional, the datasheet's aggregate); 8 x 400 Gb/s / 8 = 400 Gb/s per GPU.
  ServerTemplate t = make_mi300x();
  t.validate(LinkCatalog::builtin(), {});
  EXPECT_EQ(gpu0_links(t).peer_lanes, 7);
  LinkCatalog cat = LinkCatalog::builtin();
  EXPECT_DOUBLE_EQ(cat.tech(*cat.find("xgmi-mi300x")).per_lane.to_gBps() * 7, 448);
  EXPECT_DOUBLE_EQ(nic_gbps(t) / 8, 400);
  EXPECT_EQ(t.gpu.arch, "cdna3");
  EXPECT_EQ(one(t).gpu_count(), 8);
}

TEST(ServerMi355x, XgmiFullMeshPollara) {
  // 7 links x 76.8 GB/s = 537.6 GB/s each way (7 x 153.6 = 1,075.2 GB/s bidirectional);
  // 8 Pollara 400 = 3.2 Tb/s per node (validation header).
  ServerTemplate t = make_mi355x();
  t.validate(LinkCatalog::builtin(), {});
  EXPECT_EQ(gpu0_links(t).peer_lanes, 7);
  LinkCatalog cat = LinkCatalog::builtin();
  EXPECT_NEAR(cat.tech(*cat.find("xgmi-mi355x")).per_lane.to_gBps() * 7, 537.6, 1e-9);
  EXPECT_DOUBLE_EQ(nic_gbps(t), 3200);
  EXPECT_EQ(one(t).gpu_count(), 8);
}

TEST(ServerGaudi2, TwentyFourPortsPerChip) {
  // 24 ports per chip: 7 peers x 3 = 21 inside, 3 out; 8 chips x 3 = 24 scale-out ports
  // (rails 0..23) x 100 Gb/s / 8 = 300 Gb/s per chip.
  ServerTemplate t = make_gaudi2();
  t.validate(LinkCatalog::builtin(), {});
  Gpu0 g = gpu0_links(t);
  EXPECT_EQ(g.peer_lanes, 21);
  EXPECT_EQ(g.port_lanes, 3);
  EXPECT_EQ(g.peer_lanes + g.port_lanes, 24);
  EXPECT_EQ(t.count(NodeKind::Nic), 24);
  EXPECT_DOUBLE_EQ(nic_gbps(t) / 8, 300);
  int max_rail = 0;
  for (const auto& n : t.nodes)
    if (n.kind == NodeKind::Nic) max_rail = std::max(max_rail, n.rail);
  EXPECT_EQ(max_rail, 23);
  EXPECT_EQ(one(t).gpu_count(), 8);
}

TEST(ServerGaudi3, TwoHundredGigPorts) {
  // Same wiring at 200 GbE: 24 ports x 200 Gb/s / 8 = 600 Gb/s of scale-out per chip.
  ServerTemplate t = make_gaudi3();
  t.validate(LinkCatalog::builtin(), {});
  EXPECT_EQ(gpu0_links(t).peer_lanes, 21);
  EXPECT_DOUBLE_EQ(nic_gbps(t) / 8, 600);
  EXPECT_EQ(one(t).gpu_count(), 8);
}

TEST(ServerRegistry, EveryServerDescribedCitedAndBuildable) {
  std::set<std::string> names;
  for (const auto& p : server_registry()) {
    ServerTemplate t = p.make();
    EXPECT_EQ(t.name, p.name);
    EXPECT_TRUE(names.insert(p.name).second) << p.name;
    EXPECT_FALSE(t.description.empty()) << p.name;
    EXPECT_FALSE(t.source.empty()) << p.name;
    EXPECT_FALSE(t.gpu.source.empty()) << p.name;
    EXPECT_GT(t.gpu.bf16_tflops, 0) << p.name;
    EXPECT_GT(t.gpu.memory_bw.to_gBps(), 0) << p.name;
    EXPECT_TRUE(t.default_fabric == "rail_optimized" || t.default_fabric == "leaf_spine") << p.name;
    // Every CPU root complex carries the core list nvidia-smi prints.
    for (const auto& n : t.nodes)
      if (n.kind == NodeKind::Cpu) {
        EXPECT_FALSE(n.cpu_affinity.empty()) << p.name << "/" << n.name;
      }
    EXPECT_NO_THROW(one(t)) << p.name;
  }
  // The 17 of wave 1, mi325x, and issue 18's a40-8gpu, hgx-h20, h200-nvl, hgx-b300, gb300-nvl72.
  EXPECT_EQ(names.size(), 23u);
  EXPECT_NE(find_server("gb200-nvl72"), nullptr);
}

}  // namespace
}  // namespace gf
