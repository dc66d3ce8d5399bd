// Bills of materials against closed forms and published designs: the k-ary fat tree, NVIDIA's DGX
// SuperPOD reference architecture, totals as sums of lines, IB vs RoCE at equal topology and the
// cost step when a 2-tier fabric must become 3-tier.
#include <gtest/gtest.h>

#include <string>

#include "bom/bom.hpp"
#include "config/presets.hpp"
#include "test_clusters.hpp"

namespace {

using gftest::small_server;
using gftest::spec_of;

double quantity_of(const gf::Bom& b, const std::string& group, const std::string& what_prefix) {
  double n = 0;
  for (const auto& l : b.lines)
    if (l.group == group && l.what.rfind(what_prefix, 0) == 0) n += l.quantity;
  return n;
}

// Physical cables of one class: a transceiver line counts two ends per cable, a fibre line metres.
int64_t cables_between(const gf::Bom& b, const std::string& between) {
  double n = 0;
  for (const auto& l : b.lines) {
    const bool ours = l.what.rfind(between + " ", 0) == 0 || l.what.rfind(between + ",", 0) == 0;
    if (l.group != "cabling" || !ours) continue;
    if (l.item.rfind("fibre/", 0) == 0) continue;
    n += l.item.rfind("transceiver/", 0) == 0 ? l.quantity / 2 : l.quantity;
  }
  return static_cast<int64_t>(n);
}

double switches(const gf::Bom& b) { return quantity_of(b, "switches", ""); }

TEST(BomCounts, KaryFatTreeHasFiveKSquaredOverFourSwitches) {
  // Al-Fares et al., SIGCOMM 2008: k-port switches build a 3-tier fat tree of k^3/4 hosts with
  // k pods of k/2 edge and k/2 aggregation switches and (k/2)^2 cores: 5k^2/4 switches, and k^3/4
  // cables in each of the three layers.
  const gf::PriceTable prices = gf::PriceTable::builtin();
  for (int k : {4, 8, 16, 24}) {
    const int64_t hosts = int64_t{k} * k * k / 4;
    gf::Bom b = gf::make_bom(spec_of(small_server(), hosts, "fat_tree", k), prices);
    EXPECT_EQ(quantity_of(b, "compute", "GPU"), hosts) << k;
    EXPECT_EQ(switches(b), 5.0 * k * k / 4) << k;
    EXPECT_EQ(quantity_of(b, "switches", "core"), k * k / 4) << k;
    EXPECT_EQ(cables_between(b, "nic-leaf"), hosts) << k;
    EXPECT_EQ(cables_between(b, "leaf-spine"), hosts) << k;
    EXPECT_EQ(cables_between(b, "spine-core"), hosts) << k;
    EXPECT_EQ(b.cables, 3 * hosts) << k;
  }
}

// NVIDIA DGX SuperPOD reference architecture, compute fabric: per scalable unit of 32 DGX H100, one
// QM9700 leaf per rail (8) and 4 spines; 4 SUs: 32 leaves, 16 spines; 64 SUs (2,048 nodes, 16,384
// GPUs): 512 leaves, 512 spines, 256 cores, and 16,384 cables in each layer (node-leaf, leaf-spine,
// spine-core). Sources: "NVIDIA DGX SuperPOD: Next Generation Scalable Infrastructure for AI
// Leadership, Reference Architecture featuring DGX H100" (RA-11333-001, 2023), compute fabric
// section (8 leaves and 4 spines per SU); the same QM9700 rail-optimized table in the DGX SuperPOD
// B200 reference architecture, "Larger DGX SuperPOD component counts"
// (https://docs.nvidia.com/dgx-superpod/reference-architecture-scalable-infrastructure-b200/latest/dgx-superpod-architecture.html).
// NVIDIA's tables give one node fewer per 4 SUs (a UFM appliance takes its ports); the presets
// keep whole SUs, as the table's larger rows do.
struct SuperPodRow {
  int64_t nodes, leaves, spines, cores, cables_per_layer;
};

TEST(BomCounts, SuperPodMatchesTheReferenceArchitecture) {
  const gf::PriceTable prices = gf::PriceTable::builtin();
  const SuperPodRow rows[] = {{32, 8, 4, 0, 256},          {64, 16, 8, 0, 512},       {128, 32, 16, 0, 1024},
                              {256, 64, 32, 0, 2048},      {512, 128, 128, 64, 4096}, {1024, 256, 256, 128, 8192},
                              {2048, 512, 512, 256, 16384}};
  for (const auto& r : rows) {
    gf::ClusterOverrides over;
    over.nodes = r.nodes;
    gf::Bom b = gf::make_bom(gf::resolve_cluster("dgx-h100", over), prices);
    EXPECT_EQ(quantity_of(b, "compute", "GPU"), 8 * r.nodes);
    EXPECT_EQ(quantity_of(b, "switches", "leaf"), r.leaves) << r.nodes;
    EXPECT_EQ(quantity_of(b, "switches", "spine"), r.spines) << r.nodes;
    EXPECT_EQ(quantity_of(b, "switches", "core"), r.cores) << r.nodes;
    EXPECT_EQ(cables_between(b, "nic-leaf"), r.cables_per_layer) << r.nodes;
    EXPECT_EQ(cables_between(b, "leaf-spine"), r.cables_per_layer) << r.nodes;
    EXPECT_EQ(cables_between(b, "spine-core"), r.cores > 0 ? r.cables_per_layer : 0) << r.nodes;
  }
  // The 16K-GPU check: 1,280 QM9700 in all.
  gf::ClusterOverrides over;
  over.nodes = 2048;
  EXPECT_EQ(switches(gf::make_bom(gf::resolve_cluster("dgx-h100", over), prices)), 1280);
}

double price(const gf::PriceTable& t, const std::string& item) { return t.find(item)->usd; }

TEST(BomCounts, OneScalableUnitCostsWhatItsPartsCost) {
  // One SU in one row of 8 racks of 4 DGX H100 (the default geometry). A rack at position p is
  // |p + 0.5 - 4| + 0.5 racks of 0.6 m from the row's middle network rack, plus 3 m of slack:
  // racks 3 and 4 at 3.6 m, 2 and 5 at 4.2 m, 1 and 6 at 4.8 m (over 3 m: active copper) and racks
  // 0 and 7 at 5.4 m (over 5 m: AOC). So 6 racks x 4 servers x 8 NICs = 192 AEC and 64 AOC; the
  // 256 leaf-spine cables stay in the one network rack (3 m: passive copper). The DGX price holds
  // its 8 NICs.
  const gf::PriceTable t = gf::PriceTable::builtin();
  gf::Bom b = gf::make_bom(gf::resolve_cluster("dgx-h100-superpod-su", gf::ClusterOverrides{}), t);
  const double expected = 32 * price(t, "server/dgx-h100") + 12 * price(t, "switch/quantum2-qm9700") +
                          192 * price(t, "aec/ib-ndr") + 64 * price(t, "aoc/ib-ndr") + 256 * price(t, "dac/ib-ndr");
  EXPECT_DOUBLE_EQ(b.totals().usd, expected);
  const double max_w = 32 * t.find("server/dgx-h100")->max_w + 12 * t.find("switch/quantum2-qm9700")->max_w +
                       192 * t.find("aec/ib-ndr")->max_w + 64 * t.find("aoc/ib-ndr")->max_w;
  EXPECT_DOUBLE_EQ(b.totals().max_w, max_w);
  EXPECT_DOUBLE_EQ(b.totals().usd_per_gpu(), expected / 256);
  EXPECT_TRUE(b.unpriced.empty());
}

TEST(BomCounts, TotalsAreTheSumOfTheLines) {
  const gf::PriceTable t = gf::PriceTable::builtin();
  for (const auto& p : gf::list_presets()) {
    if (p.kind != "cluster") continue;
    gf::Bom b = gf::make_bom(gf::resolve_cluster(p.name, gf::ClusterOverrides{}), t);
    double usd = 0, typ = 0, max = 0;
    for (const auto& l : b.lines) {
      const bool counted = l.priced && !l.included;
      usd += counted ? l.quantity * l.unit_usd : 0;
      typ += counted ? l.quantity * l.unit_typical_w : 0;
      max += counted ? l.quantity * l.unit_max_w : 0;
    }
    EXPECT_NEAR(b.totals().usd, usd, 1e-6 * usd) << p.name;
    EXPECT_NEAR(b.totals().typical_w, typ, 1e-6 * typ) << p.name;
    EXPECT_NEAR(b.totals().max_w, max, 1e-6 * max) << p.name;
    EXPECT_LE(b.totals().typical_w, b.totals().max_w) << p.name;
  }
}

gf::ClusterSpec roce_twin(gf::ClusterSpec s) {
  for (auto& n : s.server.nodes)
    if (n.kind == gf::NodeKind::Nic) n.tech = "roce-400g";
  s.fabric.link = "roce-400g";
  s.fabric.switch_model = "spectrum4-sn5600-400g";
  s.fabric.switch_radix = 64;  // the QM9700's radix, so both fabrics have the same shape
  return s;
}

bool technology_line(const std::string& item) {
  for (const char* c : {"nic/", "switch/", "dac/", "aec/", "aoc/", "transceiver/", "fibre/"})
    if (item.rfind(c, 0) == 0) return true;
  return false;
}

TEST(BomCounts, InfiniBandAndRoceAtEqualTopologyDifferOnlyInTheirTechnologyLines) {
  const gf::PriceTable t = gf::PriceTable::builtin();
  const gf::ClusterSpec ib = gf::resolve_cluster("dgx-h100-superpod", gf::ClusterOverrides{});
  gf::Bom a = gf::make_bom(ib, t), b = gf::make_bom(roce_twin(ib), t);
  ASSERT_EQ(a.lines.size(), b.lines.size());
  double differing = 0;
  for (size_t i = 0; i < a.lines.size(); ++i) {
    const auto &x = a.lines[i], &y = b.lines[i];
    EXPECT_EQ(x.quantity, y.quantity) << x.item << " vs " << y.item;
    EXPECT_EQ(x.what, y.what);
    if (technology_line(x.item)) {
      EXPECT_NE(x.item, y.item);
      differing += y.usd() - x.usd();
    } else {
      EXPECT_EQ(x.item, y.item);
      EXPECT_EQ(x.usd(), y.usd()) << x.item;
    }
  }
  EXPECT_NEAR(b.totals().usd - a.totals().usd, differing, 1e-6);
}

TEST(BomCounts, GoingFromTwoToThreeTiersRaisesTheNetworkCostPerGpu) {
  // 64-port switches, 8 rails: a 2-tier rail-optimized fabric holds at most 64 leaves x 32 down
  // ports = 2,048 NICs = 256 DGX H100 (64 leaves + 32 spines); 512 need a core tier (128 + 128 +
  // 64 switches, the reference architecture's 16-SU row). Switches per GPU: 96 / 2,048 = 0.047 vs
  // 320 / 4,096 = 0.078, and one more cable layer.
  const gf::PriceTable t = gf::PriceTable::builtin();
  gf::ClusterOverrides o256, o512;
  o256.nodes = 256;
  o512.nodes = 512;
  gf::Bom two = gf::make_bom(gf::resolve_cluster("dgx-h100", o256), t);
  gf::Bom three = gf::make_bom(gf::resolve_cluster("dgx-h100", o512), t);
  EXPECT_EQ(switches(two), 96);
  EXPECT_EQ(switches(three), 320);
  auto network_per_gpu = [](const gf::Bom& b) {
    double usd = 0;
    for (const auto& l : b.lines)
      if (l.group == "switches" || l.group == "cabling") usd += l.usd();
    return usd / static_cast<double>(b.counts.gpus);
  };
  EXPECT_GT(network_per_gpu(three), network_per_gpu(two) * 1.3);
  EXPECT_GT(three.totals().usd_per_gpu(), two.totals().usd_per_gpu());
}

TEST(BomCounts, NvlinkDomainsCountSwitchTraysAndSpines) {
  // 16 GB200 NVL72 racks: 16 x 18 NVSwitch chips in trays of 2 = 144 switch trays, 16 spines of
  // 72 GPUs x 18 NVLinks = 1,296 links each; a rack holds one domain's 18 trays.
  gf::Bom b =
      gf::make_bom(gf::resolve_cluster("gb200-nvl72-cluster", gf::ClusterOverrides{}), gf::PriceTable::builtin());
  EXPECT_EQ(quantity_of(b, "nvlink", "2 NVSwitch chips"), 144);
  EXPECT_EQ(quantity_of(b, "nvlink", "copper spine, 1,296 NVLinks"), 16);
  EXPECT_EQ(b.racks, 16);
}

}  // namespace
