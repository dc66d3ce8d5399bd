// `gpufabric topo --format dot`: the drawing holds every node and every cable once (small), or
// one box per tier and group with the cables between them counted (large), and a hostile name
// stays inside its label.
#include <gtest/gtest.h>

#include <regex>
#include <string>

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
