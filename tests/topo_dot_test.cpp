// `gpufabric topo --format dot`: the drawing holds every node and every cable once (small), or
// one box per tier and group with the cables between them counted (large), and a hostile name
// stays inside its label.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "config/presets.hpp"
#include "report/topo_dot.hpp"

namespace gf {
namespace {

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(TopoDot, SmallClusterDrawsEveryNodeAndEveryCableOnce) {
  // Links are stored in both directions (Cluster::connect adds a link and its reverse), so the
  // cables are half the directed links, and each is one " -- " edge, except that the parallel
  // cables of a bundle are one edge: each of the 8 rail leaves has 2 cables to the one spine, so
  // 8 edges fewer, each labelled "2 x ib-ndr" with the bundle's 100 GB/s.
  const Cluster c = build_cluster(resolve_cluster("dgx-h100-2node"));
  const std::string dot = topo_dot(c, "two");
  EXPECT_EQ(dot.rfind("graph \"two\" {", 0), 0u);
  EXPECT_EQ(count(dot, " -- "), c.links().size() / 2 - 8);
  EXPECT_EQ(count(dot, "label=\"2 x ib-ndr\\n100 GB/s\""), 8u);
  EXPECT_EQ(count(dot, " [label=\""), c.nodes().size());
  EXPECT_EQ(count(dot, "subgraph \"cluster_server"), 2u);
  // NVLink edges are drawn in NVLink's colour; the 8 NDR NIC cables per server to the rail leaves
  // in InfiniBand's.
  EXPECT_NE(dot.find("#76b900"), std::string::npos);
  EXPECT_GE(count(dot, "label=\"ib-ndr\\n50 GB/s\""), 16u);
}

TEST(TopoDot, LargeClusterIsAggregatedByTierAndGroup) {
  // 2,048 DGX H100 (16,384 NICs) on the default rail-optimized fat tree of 64-port switches: 8
  // rails of 64 leaves (32 NICs down each), 16 spine groups (more than 8: drawn as one box) and a
  // core tier. Edges: servers to each of the 8 rail groups (16,384 / 8 = 2,048 cables each), each
  // rail group to the spine box (64 leaves x 32 up = 2,048) and the spine box to the core
  // (16,384), so 8 + 8 + 1 = 17 edges.
  const Cluster c = build_cluster(resolve_cluster("dgx-h100", 2048));
  const std::string dot = topo_dot(c, "big");
  EXPECT_EQ(count(dot, " -- "), 17u);
  EXPECT_EQ(count(dot, "label=\"2048 x ib-ndr\\n102.4 TB/s\""), 16u);  // 2,048 x 50 GB/s
  EXPECT_NE(dot.find("2048 x dgx-h100\\n8 GPUs, 8 NICs each\\n16384 GPUs"), std::string::npos);
  EXPECT_NE(dot.find("tier 2, 16 groups"), std::string::npos);
  EXPECT_LT(dot.size(), 8000u);  // readable: a few dozen lines at 16,384 GPUs
}

// One drawn edge, read back from the DOT text: its colour, pen width, the technology named on
// the label's first line and the bandwidth on its second.
struct Edge {
  std::string colour, tech;
  double pen = 0, bytes_per_s = 0;
};

std::vector<Edge> edges(const std::string& dot) {
  std::vector<Edge> out;
  const std::regex e(R"re( -- \w+ \[color="(#[0-9a-f]{6})", penwidth=([0-9.]+), label="([^"\\]+)\\n([0-9.]+) (GB|TB)/s")re");
  for (auto it = std::sregex_iterator(dot.begin(), dot.end(), e); it != std::sregex_iterator(); ++it)
    out.push_back({(*it)[1], (*it)[3], std::stod((*it)[2]), std::stod((*it)[4]) * ((*it)[5] == "TB" ? 1e12 : 1e9)});
  return out;
}

TEST(TopoDot, ColourIsTheTechnologyAndWidthTheLogOfBandwidth) {
  // docs/reports.md, "Drawings": NVLink #76b900, InfiniBand #1f77b4, PCIe #808080; a cable's pen
  // width is 1 + log4(its bandwidth / 10 GB/s), so bandwidths in the ratio 4^k differ by k in
  // width. Every edge is checked, the count of each kind derived from dgx-h100-2node: per server
  // 8 GPUs x 4 NVSwitch chips, and 8 NICs each on its own rail leaf.
  const Cluster c = build_cluster(resolve_cluster("dgx-h100-2node"));
  const std::vector<Edge> all = edges(topo_dot(c, "two"));
  ASSERT_EQ(all.size(), c.links().size() / 2 - 8);  // every edge parsed (bundles: the test above)
  const Edge* nvlink = nullptr;
  const Edge* ib = nullptr;
  size_t nvlinks = 0, ibs = 0;
  for (const Edge& e : all) {
    if (e.tech.rfind("nvlink", 0) == 0) {
      EXPECT_EQ(e.colour, "#76b900") << e.tech;
      ++nvlinks;
      nvlink = &e;
    } else if (e.tech.find("ib-") != std::string::npos) {  // "ib-ndr", or a bundle's "2 x ib-ndr"
      EXPECT_EQ(e.colour, "#1f77b4") << e.tech;
      if (e.tech.rfind("ib-", 0) == 0) {
        ++ibs;
        ib = &e;
      }
    } else if (e.tech.rfind("pcie", 0) == 0) {
      EXPECT_EQ(e.colour, "#808080") << e.tech;
    }
    // The width rule on every single cable (a bundle's width is one cable's, checked below).
    if (e.tech.find(" x ") == std::string::npos) {
      EXPECT_NEAR(e.pen, std::max(0.5, 1 + std::log(e.bytes_per_s / 1e10) / std::log(4.0)), 0.006) << e.tech;
    }
  }
  EXPECT_EQ(nvlinks, 2u * 8 * 4);
  EXPECT_EQ(ibs, 2u * 8);
  ASSERT_TRUE(nvlink && ib);
  // The NVLink cable's and the NDR cable's widths differ by log4 of their bandwidths' ratio
  // (widths are written to 2 decimals: 0.01 of slack).
  EXPECT_GT(nvlink->bytes_per_s, ib->bytes_per_s);
  EXPECT_NEAR(nvlink->pen - ib->pen, std::log(nvlink->bytes_per_s / ib->bytes_per_s) / std::log(4.0), 0.01);
}

TEST(TopoDot, AggregatedDrawingIsBoundedWhateverTheGpuCount) {
  // The aggregated drawing has one box for all servers and, per (kind, tier) of fabric node, one
  // box per group, or one box when the tier has more than 8 groups: at most 1 + 8 x (kinds and
  // tiers) boxes, and an edge per pair of boxes (or a box with itself) and technology at most:
  // B (B + 1) / 2 x technologies. Both depend on the fabric's shape, not on its size: checked at
  // 16,384 GPUs (2,048 DGX H100) and 4,096 (512).
  for (int64_t servers : {512, 2048}) {
    const Cluster c = build_cluster(resolve_cluster("dgx-h100", servers));
    std::set<std::pair<int, int>> kind_tiers;
    std::set<int> techs;
    for (const Node& n : c.nodes())
      if (n.server < 0) kind_tiers.insert({static_cast<int>(n.kind), n.tier});
    for (const Link& l : c.links()) techs.insert(static_cast<int>(l.tech));
    const size_t boxes = 1 + 8 * kind_tiers.size();
    const std::string dot = topo_dot(c, "big");
    EXPECT_LE(count(dot, " [shape="), boxes) << servers;
    EXPECT_LE(count(dot, " -- "), boxes * (boxes + 1) / 2 * techs.size()) << servers;
    // Read back: 1 + 8 + 1 + 1 boxes at 16,384 GPUs (servers, 8 rail groups of leaves, the spine
    // tier's 16 groups as one box, the core), far under the bound.
    if (servers == 2048) {
      EXPECT_EQ(count(dot, " [shape="), 11u);
    }
  }
}

TEST(TopoDot, HostileNamesStayInsideTheirLabel) {
  // A quote, a backslash and a newline in a user's name: escaped, so the label cannot close early
  // and add attributes or nodes.
  const Cluster c = build_cluster(resolve_cluster("dgx-h100-2node"));
  const std::string dot = topo_dot(c, "x\" shape=none];\nevil [label=\"\\");
  EXPECT_EQ(dot.rfind("graph \"x\\\" shape=none];\\nevil [label=\\\"\\\\\" {", 0), 0u) << dot.substr(0, 80);
  EXPECT_EQ(dot.find("\nevil"), std::string::npos);
}

}  // namespace
}  // namespace gf
