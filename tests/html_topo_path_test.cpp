// `gpufabric topo --path A B --format dot|svg`: the routes between two GPUs highlighted (red,
// thick, their nodes filled) and every other node and cable grey; at large scale only what the
// routes cross is drawn.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "config/presets.hpp"
#include "report/topo_dot.hpp"
#include "routing/router.hpp"

namespace gf {
namespace {

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

const std::string kRedCable = "[color=\"#d62728\", penwidth=";
const std::string kGreyCable = "[color=\"#c8c8c8\", penwidth=";
const std::string kRedNode = "color=\"#d62728\", penwidth=2, style=filled";

std::set<std::pair<NodeId, NodeId>> cables(const Cluster& c, const std::vector<Path>& routes) {
  std::set<std::pair<NodeId, NodeId>> out;
  for (const Path& p : routes)
    for (LinkId id : p.links) out.insert({std::min(c.link(id).src, c.link(id).dst), std::max(c.link(id).src, c.link(id).dst)});
  return out;
}

TEST(TopoPath, RailRouteIsRedAndEverythingElseGrey) {
  // gpu0 and gpu8 are GPU 0 of servers 0 and 1; on the rail-optimized 2-node fabric both NIC 0s
  // sit on rail 0's one leaf, so there is one route and one switch on it.
  const Cluster c = build_cluster(resolve_cluster("dgx-h100-2node"));
  const Router r(c);
  const std::vector<Path> routes = r.equal_cost_paths(c.find_node("gpu0"), c.find_node("gpu8"), 1024);
  ASSERT_EQ(routes.size(), 1u);
  const std::string dot = topo_dot_routes(c, "two: gpu0 to gpu8", routes);
  const size_t red = cables(c, routes).size();
  EXPECT_EQ(count(dot, kRedCable), red);
  // Every cable is drawn once, red or grey; a bundle of parallel cables is one edge (the 8 rail
  // leaves' 2 cables to the spine: 8 edges fewer than cables, as tests/topo_dot_test.cpp).
  EXPECT_EQ(count(dot, kGreyCable) + red, c.links().size() / 2 - 8);
  // A route of `red` cables in a row crosses red + 1 nodes, each filled.
  EXPECT_EQ(count(dot, kRedNode), red + 1);
  EXPECT_EQ(count(dot, " [label=\""), c.nodes().size());
  EXPECT_NE(dot.find("1 route in red, the rest grey"), std::string::npos);
}

TEST(TopoPath, LargeClusterDrawsOnlyWhatTheRoutesCross) {
  // 64 DGX H100 (512 NICs, above kDotMaxNodes nodes in all) on the default rail-optimized fat
  // tree: GPU 0 of server 0 and of server 63 share rail 0 but not its leaf (a 64-port leaf takes
  // 32 NICs down), so the routes go up to the spines: several equal-cost routes, all drawn red.
  const Cluster c = build_cluster(resolve_cluster("dgx-h100", 64));
  ASSERT_GT(c.nodes().size(), kDotMaxNodes);
  const Router r(c);
  const std::vector<Path> routes = r.equal_cost_paths(c.find_node("gpu0"), c.find_node("gpu504"), 1024);
  ASSERT_GT(routes.size(), 1u);
  const std::string dot = topo_dot_routes(c, "big", routes);
  EXPECT_EQ(count(dot, kRedCable), cables(c, routes).size());
  EXPECT_EQ(count(dot, "subgraph \"cluster_server"), 2u);  // the two end servers only
  EXPECT_NE(dot.find(std::to_string(routes.size()) + " equal-cost routes in red (only the servers and switches"),
            std::string::npos);
  EXPECT_LT(count(dot, " [label=\""), c.nodes().size() / 4);
}

}  // namespace
}  // namespace gf
