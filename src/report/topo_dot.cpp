#include "report/topo_dot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <tuple>
#include <vector>

#include "topology/bundle.hpp"

namespace gf {

namespace {

// DOT string literal: quotes and backslashes escaped, a newline written as DOT's line break and
// other control characters dropped, so any name a user gave stays inside its label.
std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char ch : s) {
    if (ch == '\n') {
      out += "\\n";
      continue;
    }
    if (static_cast<unsigned char>(ch) < 0x20) continue;
    if (ch == '"' || ch == '\\') out += '\\';
    out += ch;
  }
  return out + "\"";
}

// Colour per technology family: NVLink green (NVIDIA's), PCIe grey, socket links brown, the
// network families each their own.
const char* colour(LinkFamily f) {
  switch (f) {
    case LinkFamily::NvLink: return "#76b900";
    case LinkFamily::NvLinkC2C: return "#4e7a00";
    case LinkFamily::Pcie: return "#808080";
    case LinkFamily::Xgmi: return "#ed1c24";
    case LinkFamily::InterSocket: return "#8b5a2b";
    case LinkFamily::InfiniBand: return "#1f77b4";
    case LinkFamily::RoCE: return "#ff7f0e";
    case LinkFamily::EthernetTcp: return "#9467bd";
    case LinkFamily::Efa: return "#d62728";
    case LinkFamily::GaudiRoce: return "#17becf";
  }
  return "#000000";
}

const char* shape(NodeKind k) {
  switch (k) {
    case NodeKind::Gpu: return "box";
    case NodeKind::NvSwitch: return "octagon";
    case NodeKind::PcieSwitch: return "diamond";
    case NodeKind::Cpu: return "house";
    case NodeKind::Nic: return "ellipse";
    case NodeKind::Switch: return "hexagon";
  }
  return "box";
}

std::string gbps(double bytes_per_s) {
  char buf[32];
  if (bytes_per_s >= 1e12) std::snprintf(buf, sizeof buf, "%.1f TB/s", bytes_per_s / 1e12);
  else std::snprintf(buf, sizeof buf, "%.4g GB/s", bytes_per_s / 1e9);
  return buf;
}

// Line width 1 at 10 GB/s, one more per factor of 4: 50 GB/s NDR ~2.2, 450 GB/s NVLink ~3.7.
double width(double bytes_per_s) { return std::max(0.5, 1.0 + std::log(bytes_per_s / 1e10) / std::log(4.0)); }

// An edge of `cables` cables of `tech`, each of `lanes` bonded lanes, carrying `bytes_per_s` in all.
// `paint`/`pen` replace the technology's colour and the width (a highlighted drawing's).
std::string edge_attrs(const Cluster& c, TechId tech, int lanes, int cables, double bytes_per_s,
                       const char* paint = nullptr, double pen = 0) {
  const LinkTech& t = c.catalog().tech(tech);
  std::string label = t.name;
  if (lanes > 1) label += " x" + std::to_string(lanes);
  if (cables > 1) label = std::to_string(cables) + " x " + label;
  label += "\n" + gbps(bytes_per_s);
  char w[16];
  std::snprintf(w, sizeof w, "%.2f", pen > 0 ? pen : width(bytes_per_s / std::max(1, cables)));
  return std::string(" [color=") + quoted(paint ? paint : colour(t.family)) + ", penwidth=" + w + ", label=" +
         quoted(label) + (paint ? ", fontcolor=" + quoted(paint) : std::string()) + ", fontsize=8]";
}

// Each cable once: links come in both directions; the one from the lower node id stands for both.
bool first_of_pair(const Link& l) { return l.src < l.dst; }

// Routes to highlight: the cables (as node pairs, lower id first) and nodes they cross. With
// `only_touched`, nodes off the routes are left out, except the end servers' own nodes.
struct Highlight {
  std::set<std::pair<NodeId, NodeId>> cables;
  std::set<NodeId> nodes;
  std::set<int64_t> servers;  // servers with a node on a route
  bool only_touched = false;
  size_t routes = 0;
};

// Off-route nodes and cables are drawn in this grey, route ones in this red and thicker.
constexpr const char* kGrey = "#c8c8c8";
constexpr const char* kRoute = "#d62728";

std::string node_attrs(const Cluster& c, NodeId id, const Highlight* h) {
  std::string a = "[label=" + quoted(c.node_name(id)) + ", shape=" + shape(c.node(id).kind);
  if (h) {
    if (h->nodes.count(id)) a += std::string(", color=\"") + kRoute + "\", penwidth=2, style=filled, fillcolor=\"#fde0dd\"";
    else a += std::string(", color=\"") + kGrey + "\", fontcolor=\"" + kGrey + "\"";
  }
  return a + "]";
}

bool drawn(const Cluster& c, NodeId id, const Highlight* h) {
  if (!h || !h->only_touched) return true;
  const Node& n = c.node(id);
  return n.server >= 0 ? h->servers.count(n.server) > 0 : h->nodes.count(id) > 0;
}

std::string detailed(const Cluster& c, const std::string& title, const Highlight* h = nullptr) {
  std::string out = "graph " + quoted(title) + " {\n  graph [rankdir=TB, fontname=Helvetica, label=" + quoted(title) +
                    "];\n  node [fontname=Helvetica, fontsize=10];\n";
  for (int64_t s = 0; s < c.servers(); ++s) {
    if (h && h->only_touched && !h->servers.count(s)) continue;
    out += "  subgraph " + quoted("cluster_server" + std::to_string(s)) + " {\n    label=" +
           quoted("server" + std::to_string(s) + " (" + c.server_template().name + ")") + ";\n";
    if (h && !h->servers.count(s)) out += std::string("    color=\"") + kGrey + "\"; fontcolor=\"" + kGrey + "\";\n";
    for (int local = 0; local < c.nodes_per_server(); ++local) {
      const NodeId id = c.server_node(s, local);
      out += "    n" + std::to_string(id) + " " + node_attrs(c, id, h) + ";\n";
    }
    out += "  }\n";
  }
  std::map<int, std::vector<NodeId>> tiers;
  for (NodeId id = 0; id < static_cast<NodeId>(c.nodes().size()); ++id)
    if (c.node(id).server < 0 && drawn(c, id, h)) tiers[c.node(id).tier].push_back(id);
  for (const auto& [tier, ids] : tiers) {
    out += "  { rank=same;";
    for (NodeId id : ids) out += " n" + std::to_string(id) + " " + node_attrs(c, id, h) + ";";
    out += " }\n";
  }
  for (LinkId id = 0; id < static_cast<LinkId>(c.links().size()); ++id) {
    const Link& l = c.link(id);
    if (!first_of_pair(l) || !drawn(c, l.src, h) || !drawn(c, l.dst, h)) continue;
    // Parallel cables between two switches (topology/bundle.hpp) are one edge, "8 x ib-ndr".
    const std::vector<LinkId> bundle = bundle_links(c, id);
    if (bundle.front() != id) continue;
    double bw = 0;
    for (LinkId x : bundle) bw += c.link(x).bandwidth.bytes_per_second();
    const int n = static_cast<int>(bundle.size());
    // A route's cable red and at least 3 wide; any other grey and thin.
    const bool on = h && h->cables.count({l.src, l.dst}) > 0;
    const std::string attrs = !h ? edge_attrs(c, l.tech, l.lanes, n, bw)
                              : on ? edge_attrs(c, l.tech, l.lanes, n, bw, kRoute, std::max(3.0, width(bw / n) + 1))
                                   : edge_attrs(c, l.tech, l.lanes, n, bw, kGrey, 0.6);
    out += "  n" + std::to_string(l.src) + " -- n" + std::to_string(l.dst) + attrs + ";\n";
  }
  return out + "}\n";
}

// The box a node is drawn in when aggregated: every server node in one, each fabric node by
// (kind, tier, group).
struct Box {
  NodeKind kind;
  int tier, group;
  bool operator<(const Box& o) const { return std::tie(kind, tier, group) < std::tie(o.kind, o.tier, o.group); }
};

// A tier split into more groups than this is drawn as one box (with its group count), so a
// 16,384-GPU fat tree's 16 spine groups do not draw 128 edges from the 8 rail groups.
constexpr size_t kMaxGroupsPerTier = 8;

std::string aggregated(const Cluster& c, const std::string& title) {
  std::map<std::pair<NodeKind, int>, std::set<int>> groups;  // (kind, tier) -> its groups
  for (const Node& n : c.nodes())
    if (n.server < 0) groups[{n.kind, n.tier}].insert(n.group);
  auto box_of = [&](NodeId id) {
    const Node& n = c.node(id);
    if (n.server >= 0) return Box{NodeKind::Gpu, -1, -1};  // the servers' box
    const bool merged = groups[{n.kind, n.tier}].size() > kMaxGroupsPerTier;
    return Box{n.kind, n.tier, merged ? -1 : n.group};
  };
  std::map<Box, int64_t> members;
  for (NodeId id = 0; id < static_cast<NodeId>(c.nodes().size()); ++id)
    if (c.node(id).server < 0) ++members[box_of(id)];
  std::map<Box, std::string> ids;
  int next = 0;
  auto id_of = [&](const Box& b) {
    auto it = ids.find(b);
    if (it == ids.end()) it = ids.emplace(b, "b" + std::to_string(next++)).first;
    return it->second;
  };
  std::string out = "graph " + quoted(title) + " {\n  graph [rankdir=TB, fontname=Helvetica, label=" +
                    quoted(title + " (aggregated: one box per tier and group)") + "];\n  node [fontname=Helvetica, fontsize=10];\n";
  const ServerTemplate& t = c.server_template();
  out += "  " + id_of(Box{NodeKind::Gpu, -1, -1}) + " [shape=box3d, label=" +
         quoted(std::to_string(c.servers()) + " x " + t.name + "\n" + std::to_string(c.gpus_per_server()) + " GPUs, " +
                std::to_string(c.nic_locals().size()) + " NICs each\n" + std::to_string(c.gpu_count()) + " GPUs") +
         "];\n";
  std::map<int, std::vector<Box>> tiers;
  for (const auto& [b, n] : members) tiers[b.tier].push_back(b);
  for (const auto& [tier, boxes] : tiers) {
    out += "  { rank=same;";
    for (const Box& b : boxes) {
      std::string label = std::to_string(members[b]) + " x " + (b.kind == NodeKind::Switch ? "switch" : to_string(b.kind));
      const size_t in_tier = groups[{b.kind, b.tier}].size();
      label += "\ntier " + std::to_string(tier) +
               (b.group >= 0 ? ", group " + std::to_string(b.group)
                             : in_tier > 1 ? ", " + std::to_string(in_tier) + " groups" : "");
      out += " " + id_of(b) + " [shape=" + shape(b.kind) + ", label=" + quoted(label) + "];";
    }
    out += " }\n";
  }
  // Edges between boxes (cables inside the servers' box are not drawn): cable count and bandwidth
  // per technology.
  struct Agg {
    int cables = 0;
    double bytes_per_s = 0;
  };
  std::map<std::tuple<Box, Box, TechId>, Agg> edges;
  for (const Link& l : c.links()) {
    if (!first_of_pair(l)) continue;
    if (c.node(l.src).server >= 0 && c.node(l.dst).server >= 0) continue;  // inside the servers
    Box a = box_of(l.src), b = box_of(l.dst);
    if (b < a) std::swap(a, b);
    Agg& g = edges[{a, b, l.tech}];
    g.cables += l.lanes;
    g.bytes_per_s += l.bandwidth.bytes_per_second();
  }
  for (const auto& [key, g] : edges) {
    const auto& [a, b, tech] = key;
    // Each parallel cable is its own link, counted once here.
    out += "  " + id_of(a) + " -- " + id_of(b) + edge_attrs(c, tech, 1, g.cables, g.bytes_per_s) + ";\n";
  }
  return out + "}\n";
}

}  // namespace

std::string topo_dot(const Cluster& c, const std::string& title, bool aggregate) {
  if (aggregate || c.nodes().size() > kDotMaxNodes) return aggregated(c, title);
  return detailed(c, title);
}

std::string topo_dot_routes(const Cluster& c, const std::string& title, const std::vector<Path>& routes) {
  Highlight h;
  h.routes = routes.size();
  for (const Path& p : routes)
    for (LinkId id : p.links) {
      const Link& l = c.link(id);
      h.cables.insert({std::min(l.src, l.dst), std::max(l.src, l.dst)});
      for (NodeId n : {l.src, l.dst}) {
        h.nodes.insert(n);
        if (c.node(n).server >= 0) h.servers.insert(c.node(n).server);
      }
    }
  h.only_touched = c.nodes().size() > kDotMaxNodes;
  std::string label = title + ": " + std::to_string(routes.size()) + (routes.size() == 1 ? " route" : " equal-cost routes") +
                      " in red";
  if (h.only_touched) label += " (only the servers and switches they cross are drawn)";
  else label += ", the rest grey";
  return detailed(c, label, &h);
}

}  // namespace gf
