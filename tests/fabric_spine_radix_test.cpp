// fabric.spine_radix (switches above the leaves with their own port count) and
// fabric.switch_latency (a forwarding-latency override): hand-derived plans, the errors that name
// the key, count/build agreement, and the YAML keys.
#include <gtest/gtest.h>

#include "config/cluster_yaml.hpp"
#include "test_clusters.hpp"
#include "topology/cluster_spec.hpp"

namespace {

using gftest::small_server;
using gftest::spec_of;

gf::InputError count_error(const gf::ClusterSpec& spec) {
  try {
    gf::count_cluster(spec);
  } catch (const gf::InputError& e) {
    return e;
  }
  ADD_FAILURE() << "expected an InputError";
  return gf::InputError({}, "", "");
}

TEST(FabricSpineRadix, SmallLeavesUnderLargeSpines) {
  // 4,096 NICs on 32-port leaves at 1:1: 16 down, 16 up, ceil(4096 / 16) = 256 leaves. A 256-port
  // spine has a port per leaf: spines = the fewest S with 256 x 16 / S <= 256 ports -> S = 16, one
  // cable from every leaf to every spine. Ports: leaves 4096 + 256 x 16 = 8192, spines 4096.
  auto spec = spec_of(small_server(), 4096, "leaf_spine", 32);
  spec.fabric.spine_radix = 256;
  auto c = gf::count_cluster(spec).fabric;
  ASSERT_EQ(c.tiers.size(), 2u);
  EXPECT_EQ(c.tiers[0].switches, 256);
  EXPECT_EQ(c.tiers[0].radix, 32);
  EXPECT_EQ(c.tiers[0].ports_used, 8192);
  EXPECT_EQ(c.tiers[1].switches, 16);
  EXPECT_EQ(c.tiers[1].radix, 256);
  EXPECT_EQ(c.tiers[1].ports_used, 4096);
  EXPECT_EQ(c.cables[1].count, 4096);
  // Non-blocking: 2048 NICs x 400 Gb/s = 819.2 Tb/s across the cut.
  EXPECT_DOUBLE_EQ(c.bisection.to_gbps(), 2048 * 400.0);
}

TEST(FabricSpineRadix, WithoutItTheLeafRadixLimitsTheSpines) {
  // The same design with 32-port spines: a spine joining 256 leaves needs 256 ports.
  auto e = count_error(spec_of(small_server(), 4096, "leaf_spine", 32));
  EXPECT_EQ(e.key(), "fabric.switch_radix");
  EXPECT_NE(e.message().find("needs 256 ports"), std::string::npos) << e.what();
  EXPECT_NE(e.hint().find("spine_radix"), std::string::npos) << e.what();
}

TEST(FabricSpineRadix, TooSmallNamesTheKey) {
  // 256 leaves, spines of 128 ports.
  auto spec = spec_of(small_server(), 4096, "leaf_spine", 32);
  spec.fabric.spine_radix = 128;
  auto e = count_error(spec);
  EXPECT_EQ(e.key(), "fabric.spine_radix");
  EXPECT_NE(e.message().find("needs 256 ports"), std::string::npos) << e.what();
  spec.fabric.spine_radix = 1;
  EXPECT_EQ(count_error(spec).key(), "fabric.spine_radix");
}

TEST(FabricSpineRadix, SpineRadixSetsTheSpineCount) {
  // 32 NICs on 32-port leaves (16 down, 16 up): 2 leaves. Spines of 2 ports (one per leaf): the
  // fewest S with 2 x 16 / S <= 2 is S = 16, one cable each; spines of 32 ports: S = 1, 16 cables
  // from each leaf (the planner takes the fewest spines).
  auto spec = spec_of(small_server(), 32, "leaf_spine", 32);
  spec.fabric.spine_radix = 2;
  EXPECT_EQ(gf::count_cluster(spec).fabric.tiers[1].switches, 16);
  spec.fabric.spine_radix = 32;
  EXPECT_EQ(gf::count_cluster(spec).fabric.tiers[1].switches, 1);
}

TEST(FabricSpineRadix, ThreeTiersUseItForSpinesAndCores) {
  // fat_tree, 8-port leaves (4 down, 4 up), 16-port pod spines and cores (8 down, 8 up), forced to
  // 3 tiers. 64 NICs -> 16 leaves; a pod spine's 8 down ports take 8 leaves -> 2 pods. A pod's 8
  // leaves x 4 uplinks = 32 over 8-down spines -> 4 pod spines, 1 cable each. Pod spine j of each
  // pod spreads its 8 uplinks over core group j: 2 pods fit one 16-port core -> 1 core per group
  // with 8 cables from each pod spine, 4 cores. Pod spine ports: 8 spines x (8 down + 8 up) = 128.
  auto spec = spec_of(small_server(), 64, "fat_tree", 8);
  spec.fabric.spine_radix = 16;
  spec.fabric.tiers = 3;
  auto c = gf::count_cluster(spec).fabric;
  ASSERT_EQ(c.tiers.size(), 3u);
  EXPECT_EQ(c.tiers[0].switches, 16);
  EXPECT_EQ(c.tiers[1].switches, 8);
  EXPECT_EQ(c.tiers[1].radix, 16);
  EXPECT_EQ(c.tiers[1].ports_used, 128);
  EXPECT_EQ(c.tiers[2].switches, 4);
  EXPECT_EQ(c.tiers[2].radix, 16);
  // build() follows the same plan: 64 NIC-leaf + 16 x 4 leaf-spine + 8 x 8 spine-core links (each
  // of the 8 cables to one core its own link), x 2 directions.
  gf::Cluster built = gf::build_cluster(spec);
  EXPECT_EQ(c.links_directed, 2 * (64 + 64 + 64));
  int64_t fabric_links = 0;
  for (const auto& l : built.links())
    if (built.node(l.src).kind == gf::NodeKind::Switch || built.node(l.dst).kind == gf::NodeKind::Switch) ++fabric_links;
  EXPECT_EQ(fabric_links, c.links_directed);
}

TEST(FabricSwitchLatency, OverridesTheModel) {
  // ib-ndr NICs (catalog latency L_ndr) into QM9700 leaves: a NIC-to-leaf link carries the wire
  // plus the switch's forwarding delay; switch_latency 0 leaves the wire alone, 1 us adds 1 us.
  auto spec = spec_of(small_server(), 2, "leaf_spine");
  spec.fabric.switch_latency = gf::Time::zero();
  gf::Cluster zero = gf::build_cluster(spec);
  spec.fabric.switch_latency = gf::Time::us(1);
  gf::Cluster one = gf::build_cluster(spec);
  const gf::Time wire = zero.catalog().tech(*zero.catalog().find("ib-ndr")).latency;
  auto nic_to_leaf = [](const gf::Cluster& c) {
    for (gf::LinkId l : c.out_links(c.find_node("server0/nic0")))
      if (c.node(c.link(l).dst).kind == gf::NodeKind::Switch) return c.link(l).latency;
    return gf::Time::infinity();
  };
  EXPECT_EQ(nic_to_leaf(zero), wire);
  EXPECT_EQ(nic_to_leaf(one), wire + gf::Time::us(1));
}

TEST(FabricSpineRadix, YamlKeysParseAndRoundTrip) {
  const std::string text =
      "server: dgx-h100\nservers: 4\nfabric:\n  kind: leaf_spine\n  switch_radix: 32\n  spine_radix: 256\n"
      "  switch_latency: 250ns\n";
  gf::ClusterSpec s = gf::parse_cluster_yaml(text, "c.yaml");
  EXPECT_EQ(s.fabric.spine_radix, 256);
  ASSERT_TRUE(s.fabric.switch_latency.has_value());
  EXPECT_EQ(*s.fabric.switch_latency, gf::Time::ns(250));
  gf::ClusterSpec again = gf::parse_cluster_yaml(gf::cluster_to_yaml(s), "again.yaml");
  EXPECT_EQ(again.fabric.spine_radix, 256);
  ASSERT_TRUE(again.fabric.switch_latency.has_value());
  EXPECT_EQ(*again.fabric.switch_latency, gf::Time::ns(250));
  // Left out: no override.
  EXPECT_FALSE(gf::parse_cluster_yaml("server: dgx-h100\n", "c.yaml").fabric.switch_latency.has_value());
}

TEST(FabricSpineRadix, YamlErrorsNameTheKey) {
  try {
    gf::parse_cluster_yaml("server: dgx-h100\nservers: 8\nfabric:\n  kind: torus\n  torus_dims: [2, 4]\n  spine_radix: 64\n",
                           "c.yaml");
    FAIL() << "expected an InputError";
  } catch (const gf::InputError& e) {
    EXPECT_EQ(e.key(), "fabric.spine_radix");
    EXPECT_EQ(e.where().line, 6);
  }
  try {
    gf::parse_cluster_yaml("server: dgx-h100\nfabric:\n  switch_latency: 3 furlongs\n", "c.yaml");
    FAIL() << "expected an InputError";
  } catch (const gf::InputError& e) {
    EXPECT_EQ(e.key(), "fabric.switch_latency");
  }
}

}  // namespace
