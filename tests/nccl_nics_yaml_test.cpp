// Cluster YAML for the NICs NCCL uses: `nics:` / `nic_tech:` over a built-in server, and a NIC's
// `role:` (storage and management ports are not compute rails).
#include <gtest/gtest.h>

#include "collective/communicator.hpp"
#include "config/cluster_yaml.hpp"
#include "core/error.hpp"
#include "routing/router.hpp"
#include "topology/cluster_spec.hpp"

using namespace gf;

namespace {

ClusterSpec parse(const std::string& text) { return parse_cluster_yaml(text, "c.yaml"); }

std::string error_of(const std::string& text) {
  try {
    count_cluster(parse(text));
  } catch (const InputError& e) {
    return std::to_string(e.where().line) + " " + e.key();
  }
  return "no error";
}

double inter_gBps(const ClusterSpec& spec) {
  const Cluster c = build_cluster(spec);
  const Router r(c);
  return make_communicator(c, r, 2, c.gpus_per_server()).inter_bw.to_gBps();
}

}  // namespace

TEST(NicsYaml, FewerNicsKeepEveryOtherRail) {
  const ClusterSpec spec = parse("servers: 2\nserver: {base: hgx-h100, nics: 4}\n");
  EXPECT_EQ(spec.server.compute_nics(), 4);
  std::vector<std::string> labels;
  std::vector<int> rails;
  for (const ServerNode& n : spec.server.nodes)
    if (n.compute_nic()) labels.push_back(n.label), rails.push_back(n.rail);
  // 8 NICs, 4 kept: every second in rail order, rails renumbered 0-3.
  EXPECT_EQ(labels, (std::vector<std::string>{"mlx5_0", "mlx5_2", "mlx5_4", "mlx5_6"}));
  EXPECT_EQ(rails, (std::vector<int>{0, 1, 2, 3}));
  // 4 NDR NICs (50 GB/s per direction each) for 8 GPUs: 25 GB/s per GPU.
  EXPECT_NEAR(inter_gBps(spec), 4 * 50.0 / 8, 1e-9);
}

TEST(NicsYaml, MoreNicsAreTwinsOnTheSamePcieSwitch) {
  const ClusterSpec spec = parse("servers: 2\nserver: {base: hgx-h100, nics: 16, nic_tech: ib-hdr}\n");
  EXPECT_EQ(spec.server.compute_nics(), 16);
  // 16 HDR NICs (25 GB/s per direction) for 8 GPUs: 50 GB/s per GPU.
  EXPECT_NEAR(inter_gBps(spec), 16 * 25.0 / 8, 1e-9);
  // The twin of nic0 hangs off the switch nic0 hangs off.
  const ServerTemplate& t = spec.server;
  const int nic0 = t.index_of("nic0"), twin = t.index_of("nic0_1");
  ASSERT_GE(twin, 0);
  auto parent = [&](int n) {
    for (const ServerLink& l : t.links)
      if (l.a == n || l.b == n) return l.a == n ? l.b : l.a;
    return -1;
  };
  EXPECT_EQ(parent(twin), parent(nic0));
}

TEST(NicsYaml, NicsThatCannotBeMadeAreErrorsAtTheKey) {
  EXPECT_EQ(error_of("server:\n  base: hgx-h100\n  nics: 3\n"), "3 server.nics");
  EXPECT_EQ(error_of("server:\n  name: x\n  nics: 4\n  nodes: [{name: gpu0, kind: gpu}]\n"), "3 server.nics");
}

TEST(NicRoleYaml, StorageNicIsKeptButNotARail) {
  const std::string text =
      "servers: 2\n"
      "server:\n"
      "  name: box\n"
      "  nodes:\n"
      "    - {name: cpu0, kind: cpu, numa: 0}\n"
      "    - {name: pcie0, kind: pcie_switch, numa: 0}\n"
      "    - {name: gpu0, kind: gpu, numa: 0}\n"
      "    - {name: nic0, kind: nic, numa: 0, rail: 0, tech: ib-ndr, label: mlx5_0}\n"
      "    - {name: nic1, kind: nic, numa: 0, tech: ib-ndr, label: mlx5_1, role: storage}\n"
      "  links:\n"
      "    - {a: pcie0, b: cpu0, tech: pcie-gen5-x16}\n"
      "    - {a: gpu0, b: pcie0, tech: pcie-gen5-x16}\n"
      "    - {a: nic0, b: pcie0, tech: pcie-gen5-x16}\n"
      "    - {a: nic1, b: cpu0, tech: pcie-gen5-x16}\n";
  const ClusterSpec spec = parse(text);
  EXPECT_EQ(spec.server.compute_nics(), 1);
  EXPECT_EQ(count_cluster(spec).nics, 2);  // one per server: the storage ports are not cabled
  // One GPU, one 50 GB/s compute NIC: the storage port would have doubled it.
  EXPECT_NEAR(inter_gBps(spec), 50.0, 1e-9);
  // Written back, the role survives.
  EXPECT_NE(cluster_to_yaml(spec).find("role: storage"), std::string::npos);
  EXPECT_EQ(error_of("server:\n  name: x\n  nodes:\n    - {name: gpu0, kind: gpu, role: storage}\n"),
            "4 server.nodes[0].role");
  EXPECT_EQ(error_of("server:\n  name: x\n  nodes:\n    - {name: gpu0, kind: gpu}\n    - {name: n, kind: nic, tech: "
                     "ib-ndr, role: storrage}\n"),
            "5 server.nodes[1].role");
}
