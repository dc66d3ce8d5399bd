// Servers for the catalog GPUs issue 18 found missing: each is built from its datasheet's figures,
// its GPU is the training catalog's, and its NVLink and NICs carry what the datasheet says.
#include <gtest/gtest.h>

#include "topology/cluster.hpp"
#include "topology/cluster_spec.hpp"
#include "topology/link_tech.hpp"
#include "topology/server_registry.hpp"
#include "training/gpu_catalog.hpp"

using namespace gf;

namespace {

ServerTemplate server(const std::string& name) {
  const ServerPreset* p = find_server(name);
  if (!p) throw std::runtime_error("no server " + name);
  ServerTemplate t = p->make();
  t.validate(LinkCatalog::builtin(), {name, 0, 0});
  return t;
}

// Bandwidth one direction of the NVLink links (all lanes) between two nodes of `t`, in GB/s.
double nvlink_between(const ServerTemplate& t, const std::string& a, const std::string& b) {
  const LinkCatalog cat = LinkCatalog::builtin();
  double total = 0;
  for (const ServerLink& l : t.links) {
    const std::string &x = t.nodes[static_cast<size_t>(l.a)].name, &y = t.nodes[static_cast<size_t>(l.b)].name;
    if ((x == a && y == b) || (x == b && y == a))
      if (cat.tech(*cat.find(l.tech)).family == LinkFamily::NvLink)
        total += cat.tech(*cat.find(l.tech)).per_lane.to_gBps() * l.lanes;
  }
  return total;
}

double nic_gbps(const ServerTemplate& t) {
  const LinkCatalog cat = LinkCatalog::builtin();
  for (const ServerNode& n : t.nodes)
    if (n.compute_nic()) return cat.tech(*cat.find(n.tech)).per_lane.to_gbps();
  return 0;
}

}  // namespace

TEST(CatalogServers, EveryNewServerUsesACatalogGpu) {
  for (const char* name : {"a40-8gpu", "hgx-h20", "h200-nvl", "hgx-b300", "gb300-nvl72"}) {
    const ServerTemplate t = server(name);
    EXPECT_TRUE(find_training_gpu(t.gpu.model).has_value()) << name << ": " << t.gpu.model;
    const TrainingGpu g = *find_training_gpu(t.gpu.model);
    EXPECT_DOUBLE_EQ(t.gpu.memory_bw.to_gBps(), g.memory_gBps) << name;
    EXPECT_DOUBLE_EQ(t.gpu.bf16_tflops, g.bf16_tflops) << name;
  }
}

TEST(CatalogServers, A40PairsShareABridgeNotA100NvLink) {
  const ServerTemplate t = server("a40-8gpu");
  EXPECT_EQ(t.count(NodeKind::Gpu), 8);
  EXPECT_EQ(t.count(NodeKind::NvSwitch), 0);
  // NVIDIA A40 datasheet: NVLink 112.5 GB/s bidirectional between the bridged pair: 56.25 a way.
  EXPECT_DOUBLE_EQ(nvlink_between(t, "gpu0", "gpu1"), 56.25);
  EXPECT_DOUBLE_EQ(nvlink_between(t, "gpu0", "gpu2"), 0.0);
  EXPECT_DOUBLE_EQ(nvlink_between(t, "gpu6", "gpu7"), 56.25);
}

TEST(CatalogServers, H200NvlFourWayBridgeGivesEachGpu900GBps) {
  const ServerTemplate t = server("h200-nvl");
  // H200 NVL product brief: a 4-way bridge, 900 GB/s bidirectional per GPU = 450 a way, over its
  // 3 bridge peers; none to the other group.
  double per_gpu = 0;
  for (const char* peer : {"gpu1", "gpu2", "gpu3"}) per_gpu += nvlink_between(t, "gpu0", peer);
  EXPECT_DOUBLE_EQ(per_gpu, 450.0);
  EXPECT_DOUBLE_EQ(nvlink_between(t, "gpu0", "gpu4"), 0.0);
  EXPECT_DOUBLE_EQ(nvlink_between(t, "gpu5", "gpu7"), 150.0);
}

TEST(CatalogServers, BlackwellUltraServersHave800GNics) {
  // HGX B300 spec and GB300 NVL72 datasheet: one ConnectX-8 SuperNIC at 800 Gb/s per GPU.
  const ServerTemplate hgx = server("hgx-b300");
  EXPECT_EQ(hgx.compute_nics(), 8);
  EXPECT_DOUBLE_EQ(nic_gbps(hgx), 800.0);
  const ServerTemplate gb = server("gb300-nvl72");
  EXPECT_EQ(gb.count(NodeKind::Gpu), 4);
  EXPECT_EQ(gb.compute_nics(), 4);
  EXPECT_DOUBLE_EQ(nic_gbps(gb), 800.0);
  ASSERT_TRUE(gb.scale_up.has_value());
  EXPECT_EQ(gb.scale_up->servers_per_domain * gb.count(NodeKind::Gpu), 72);
}

TEST(CatalogServers, HgxH20IsTheHgxH100BoardWithH20) {
  const ServerTemplate t = server("hgx-h20");
  const ServerTemplate h100 = server("hgx-h100");
  EXPECT_EQ(t.links.size(), h100.links.size());
  EXPECT_EQ(t.gpu.model, "H20-96GB");
  // H20 product brief: NVLink 900 GB/s bidirectional, as H100: 18 NVLink4 of 25 GB/s a way.
  double to_switches = 0;
  for (int k = 0; k < 4; ++k) to_switches += nvlink_between(t, "gpu0", "nvswitch" + std::to_string(k));
  EXPECT_DOUBLE_EQ(to_switches, 450.0);
}
