// The NVSwitch 8-GPU servers: hardware counts derived by hand from the datasheets cited in each
// builder, checked against the templates the builders produce.
#include <gtest/gtest.h>

#include <set>

#include "test_clusters.hpp"
#include "topology/cluster_spec.hpp"
#include "topology/servers/servers.hpp"

namespace gf {
namespace {

struct Counts {
  int gpus = 0, nics = 0;
  int nvlinks_gpu0 = 0;   // NVLink lanes from gpu0 into NVSwitch chips
  double nic_gbps = 0;    // all scale-out ports, Gb/s per direction
  std::set<int> rails;
};

Counts count(const ServerTemplate& t) {
  LinkCatalog cat = LinkCatalog::builtin();
  t.validate(cat, {});
  Counts c;
  c.gpus = t.count(NodeKind::Gpu);
  c.nics = t.count(NodeKind::Nic);
  int gpu0 = t.index_of("gpu0");
  for (const auto& l : t.links) {
    int other = l.a == gpu0 ? l.b : l.b == gpu0 ? l.a : -1;
    if (other >= 0 && t.nodes[other].kind == NodeKind::NvSwitch) c.nvlinks_gpu0 += l.lanes;
  }
  for (const auto& n : t.nodes) {
    if (n.kind != NodeKind::Nic) continue;
    c.nic_gbps += cat.tech(*cat.find(n.tech)).per_lane.to_gbps();
    c.rails.insert(n.rail);
  }
  return c;
}

// Every GPU must end up NV-connected to all others and the graph must build on its own.
void builds(const ServerTemplate& t) {
  Cluster c = build_cluster(gftest::spec_of(t, 1));
  EXPECT_EQ(c.gpu_count(), 8);
}

TEST(ServerDgxA100, Counts) {
  // 8 A100; 6 NVSwitch x 2 NVLink3 = 12 links (12 x 25 GB/s = 300 GB/s each way = 600 GB/s
  // bidirectional, the datasheet figure); 8 HDR ports x 200 Gb/s / 8 GPUs = 200 Gb/s per GPU.
  ServerTemplate t = make_dgx_a100();
  Counts c = count(t);
  EXPECT_EQ(c.gpus, 8);
  EXPECT_EQ(c.nics, 8);
  EXPECT_EQ(t.count(NodeKind::NvSwitch), 6);
  EXPECT_EQ(c.nvlinks_gpu0, 12);
  EXPECT_DOUBLE_EQ(c.nic_gbps / c.gpus, 200);
  EXPECT_EQ(c.rails.size(), 8u);
  EXPECT_EQ(t.gpu.arch, "ampere");
  builds(t);
}

TEST(ServerHgxA100, SameBoardOwnName) {
  ServerTemplate t = make_hgx_a100();
  Counts c = count(t);
  EXPECT_EQ(t.name, "hgx-a100");
  EXPECT_EQ(c.gpus, 8);
  EXPECT_EQ(c.nvlinks_gpu0, 12);
  EXPECT_DOUBLE_EQ(c.nic_gbps / c.gpus, 200);
  builds(t);
}

TEST(ServerOciA100, SixteenHundredGigPorts) {
  // BM.GPU4.8: 16 x 100 Gb/s RoCE = 1.6 Tb/s per node = 200 Gb/s per GPU, two ports per GPU.
  ServerTemplate t = make_oci_a100();
  Counts c = count(t);
  EXPECT_EQ(c.nics, 16);
  EXPECT_DOUBLE_EQ(c.nic_gbps, 1600);
  EXPECT_DOUBLE_EQ(c.nic_gbps / c.gpus, 200);
  EXPECT_EQ(c.nvlinks_gpu0, 12);
  EXPECT_EQ(c.rails.size(), 16u);
  EXPECT_DOUBLE_EQ(t.gpu.memory_bw.to_gBps(), 1555);  // the 40 GB A100
  builds(t);
}

TEST(ServerDgxH100, Counts) {
  // 4 NVSwitch chips, 5+4+4+5 = 18 NVLink4 per GPU (18 x 25 = 450 GB/s each way);
  // 8 x 400 Gb/s NDR / 8 GPUs = 400 Gb/s per GPU.
  ServerTemplate t = make_dgx_h100();
  Counts c = count(t);
  EXPECT_EQ(c.gpus, 8);
  EXPECT_EQ(c.nics, 8);
  EXPECT_EQ(c.nvlinks_gpu0, 18);
  EXPECT_DOUBLE_EQ(c.nic_gbps / c.gpus, 400);
  builds(t);
}

TEST(ServerHgxH100AndH200, SameFabricDifferentMemory) {
  Counts h100 = count(make_hgx_h100()), h200 = count(make_hgx_h200());
  EXPECT_EQ(h100.nvlinks_gpu0, 18);
  EXPECT_EQ(h200.nvlinks_gpu0, 18);
  EXPECT_DOUBLE_EQ(h200.nic_gbps / h200.gpus, 400);
  EXPECT_DOUBLE_EQ(make_hgx_h100().gpu.memory_bw.to_gBps(), 3350);
  EXPECT_DOUBLE_EQ(make_hgx_h200().gpu.memory_bw.to_gBps(), 4800);
  builds(make_hgx_h200());
}

TEST(ServerAwsP5, ThirtyTwoEfaPorts) {
  // 32 EFAv2 x 100 Gb/s = 3,200 Gb/s per instance = 4 ports, 400 Gb/s, per GPU; rails 0..31.
  ServerTemplate t = make_aws_p5();
  Counts c = count(t);
  EXPECT_EQ(c.nics, 32);
  EXPECT_DOUBLE_EQ(c.nic_gbps, 3200);
  EXPECT_DOUBLE_EQ(c.nic_gbps / c.gpus, 400);
  EXPECT_EQ(*c.rails.begin(), 0);
  EXPECT_EQ(*c.rails.rbegin(), 31);
  EXPECT_EQ(c.nvlinks_gpu0, 18);
  builds(t);
}

TEST(ServerGcpA3Mega, TcpxoIsTcpButGpuDirect) {
  // 8 x 200 Gb/s = 1.6 Tb/s of GPU NICs (the "1.8 Tbps" per VM includes the host NIC). TCPXO is
  // TCP (Ethernet-TCP family, not RoCE) but GPU-direct: no host staging, so the catalog marks it
  // rdma: true and the models do not charge it the TCP efficiency.
  ServerTemplate t = make_gcp_a3_mega();
  Counts c = count(t);
  EXPECT_DOUBLE_EQ(c.nic_gbps / c.gpus, 200);
  LinkCatalog cat = LinkCatalog::builtin();
  for (const auto& n : t.nodes)
    if (n.kind == NodeKind::Nic) {
      const LinkTech& tech = cat.tech(*cat.find(n.tech));
      EXPECT_EQ(tech.family, LinkFamily::EthernetTcp) << n.name;
      EXPECT_TRUE(tech.rdma) << n.name;
    }
  builds(t);
}

TEST(ServerDgxB200, Counts) {
  // 2 NVSwitch chips x 9 NVLink5 = 18 per GPU; 18 x 50 GB/s = 900 GB/s each way = 1.8 TB/s
  // bidirectional; 8 x 400 Gb/s / 8 = 400 Gb/s per GPU; HBM3e 8 TB/s.
  ServerTemplate t = make_dgx_b200();
  Counts c = count(t);
  EXPECT_EQ(t.count(NodeKind::NvSwitch), 2);
  EXPECT_EQ(c.nvlinks_gpu0, 18);
  LinkCatalog cat = LinkCatalog::builtin();
  EXPECT_DOUBLE_EQ(cat.tech(*cat.find("nvlink5")).per_lane.to_gBps() * c.nvlinks_gpu0, 900);
  EXPECT_DOUBLE_EQ(c.nic_gbps / c.gpus, 400);
  EXPECT_DOUBLE_EQ(t.gpu.memory_bw.to_gBps(), 8000);
  builds(t);
}

TEST(ServerOciB300, SixteenPortsOf400) {
  // 8 x 2 x 400 Gb/s = 6.4 Tb/s per node = 800 Gb/s per GPU (validation header).
  ServerTemplate t = make_oci_b300();
  Counts c = count(t);
  EXPECT_EQ(c.nics, 16);
  EXPECT_DOUBLE_EQ(c.nic_gbps, 6400);
  EXPECT_DOUBLE_EQ(c.nic_gbps / c.gpus, 800);
  EXPECT_EQ(c.nvlinks_gpu0, 18);
  builds(t);
}

}  // namespace
}  // namespace gf
