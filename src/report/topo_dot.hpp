// A drawing of a cluster in Graphviz's DOT language (`gpufabric topo --format dot`; `dot -Tsvg`
// turns it into a picture). Small clusters are drawn node by node: each server a box holding its
// GPUs, NVSwitches, PCIe switches, CPUs and NICs, the fabric's switches ranked by tier, every link
// once (both directions are one cable), coloured by technology family and as wide as the log of
// its bandwidth. Large clusters are drawn aggregated, so 16,384 GPUs stay readable: all servers
// are one box with their count and contents, each fabric tier and group one box with its switch
// count, and each pair of boxes one edge with its cable count and bandwidth.
#pragma once

#include <string>

#include <vector>

#include "routing/path.hpp"
#include "topology/cluster.hpp"

namespace gf {

// Nodes above which the drawing is aggregated.
constexpr size_t kDotMaxNodes = 400;

// `title` names the graph. `aggregate` forces the aggregated drawing at any size.
std::string topo_dot(const Cluster& c, const std::string& title, bool aggregate = false);

// `topo --path A B --format dot|svg`: the routes between two GPUs (every equal-cost path given)
// over the cluster: their cables red and thick, their nodes filled, every other node and cable
// grey. Above kDotMaxNodes only the servers and switches the routes cross are drawn (the title
// says so), as the whole cluster would not be legible.
std::string topo_dot_routes(const Cluster& c, const std::string& title, const std::vector<Path>& routes);

}  // namespace gf
