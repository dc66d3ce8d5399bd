#include "topology/cluster.hpp"

#include <charconv>
#include <stdexcept>

namespace gf {

const char* to_string(NodeKind k) {
  switch (k) {
    case NodeKind::Gpu: return "gpu";
    case NodeKind::NvSwitch: return "nvswitch";
    case NodeKind::PcieSwitch: return "pcie_switch";
    case NodeKind::Cpu: return "cpu";
    case NodeKind::Nic: return "nic";
    case NodeKind::Switch: return "switch";
  }
  return "?";
}

Cluster::Cluster(LinkCatalog catalog, ServerTemplate server, int64_t servers)
    : catalog_(std::move(catalog)), server_(std::move(server)), servers_(servers) {
  local_rank_of_.assign(server_.nodes.size(), -1);
  for (size_t i = 0; i < server_.nodes.size(); ++i) {
    if (server_.nodes[i].kind == NodeKind::Gpu) {
      local_rank_of_[i] = static_cast<int>(gpu_locals_.size());
      gpu_locals_.push_back(static_cast<int>(i));
    }
    const ServerNode& sn = server_.nodes[i];
    if (sn.kind == NodeKind::Nic) all_nic_locals_.push_back(static_cast<int>(i));
    if (sn.compute_nic()) fabric_nic_locals_.push_back(static_cast<int>(i));
    if (sn.nccl_nic()) nic_locals_.push_back(static_cast<int>(i));
  }
  nodes_.reserve(static_cast<size_t>(servers_) * server_.nodes.size());
  for (int64_t s = 0; s < servers_; ++s) {
    for (size_t i = 0; i < server_.nodes.size(); ++i) {
      const ServerNode& sn = server_.nodes[i];
      Node n{sn.kind};
      n.numa = static_cast<int16_t>(sn.numa);
      n.server = static_cast<int32_t>(s);
      n.local = static_cast<int32_t>(i);
      n.group = sn.rail;
      nodes_.push_back(n);
    }
  }
}

NodeId Cluster::add_fabric_node(NodeKind kind, int tier, int group, std::string name) {
  Node n{kind};
  n.tier = static_cast<int8_t>(tier);
  n.server = -1;
  n.local = static_cast<int32_t>(fabric_names_.size());
  n.group = group;
  fabric_names_.push_back(std::move(name));
  nodes_.push_back(n);
  return static_cast<NodeId>(nodes_.size() - 1);
}

void Cluster::reserve_links(size_t directed) { links_.reserve(directed); }

LinkId Cluster::connect(NodeId a, NodeId b, TechId tech, int lanes, Time extra_latency) {
  const LinkTech& t = catalog_.tech(tech);
  Bandwidth bw = t.per_lane * static_cast<double>(lanes);
  // The forwarding delay is charged on the direction that enters a network switch, so a path
  // through h switches pays exactly h of them.
  auto lat_into = [&](NodeId to) { return t.latency + (nodes_[to].kind == NodeKind::Switch ? extra_latency : Time::zero()); };
  auto fwd = static_cast<LinkId>(links_.size());
  links_.push_back(Link{a, b, tech, static_cast<uint16_t>(lanes), bw, lat_into(b), fwd + 1});
  links_.push_back(Link{b, a, tech, static_cast<uint16_t>(lanes), bw, lat_into(a), fwd});
  return fwd;
}

void Cluster::finalize() {
  // Counting sort of links by source: out_ lists each node's outgoing links in insertion order,
  // so path enumeration is deterministic. Links taken down are left out.
  out_begin_.assign(nodes_.size() + 1, 0);
  for (size_t i = 0; i < links_.size(); ++i)
    if (!is_down(static_cast<LinkId>(i))) ++out_begin_[links_[i].src + 1];
  for (size_t i = 0; i < nodes_.size(); ++i) out_begin_[i + 1] += out_begin_[i];
  out_.assign(static_cast<size_t>(out_begin_.back()), 0);
  std::vector<int64_t> fill(out_begin_.begin(), out_begin_.end() - 1);
  for (size_t i = 0; i < links_.size(); ++i)
    if (!is_down(static_cast<LinkId>(i))) out_[fill[links_[i].src]++] = static_cast<LinkId>(i);
}

void Cluster::set_capacity(LinkId l, Bandwidth bw, int lanes) {
  for (LinkId id : {l, links_[l].reverse}) {
    links_[id].bandwidth = bw;
    links_[id].lanes = static_cast<uint16_t>(lanes);
  }
}

void Cluster::add_latency(LinkId l, Time extra) {
  for (LinkId id : {l, links_[l].reverse}) links_[id].latency += extra;
}

void Cluster::take_down(LinkId l) {
  down_.resize(links_.size(), 0);
  down_[static_cast<size_t>(l)] = down_[static_cast<size_t>(links_[l].reverse)] = 1;
}

int64_t Cluster::gpu_index(NodeId id) const {
  const Node& n = nodes_[id];
  if (n.kind != NodeKind::Gpu || n.server < 0) return -1;
  return static_cast<int64_t>(n.server) * gpus_per_server() + local_rank_of_[n.local];
}

std::string Cluster::node_name(NodeId id) const {
  const Node& n = nodes_[id];
  if (n.server < 0) return fabric_names_[n.local];
  if (n.kind == NodeKind::Gpu) return "gpu" + std::to_string(gpu_index(id));
  return "server" + std::to_string(n.server) + "/" + server_.nodes[n.local].name;
}

static bool parse_int(std::string_view s, int64_t& out) {
  if (s.empty()) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size() && out >= 0;
}

NodeId Cluster::find_node(const std::string& name) const {
  int64_t v = 0;
  if (parse_int(name, v)) return v < gpu_count() ? gpu(v) : kNoNode;
  if (name.rfind("gpu", 0) == 0 && parse_int(std::string_view(name).substr(3), v))
    return v < gpu_count() ? gpu(v) : kNoNode;
  if (name.rfind("server", 0) == 0) {
    size_t slash = name.find('/');
    if (slash != std::string::npos && parse_int(std::string_view(name).substr(6, slash - 6), v) && v < servers_) {
      int local = server_.index_of(name.substr(slash + 1));
      if (local >= 0) return server_node(v, local);
    }
    return kNoNode;
  }
  for (size_t i = 0; i < fabric_names_.size(); ++i) {
    if (fabric_names_[i] == name) {
      return static_cast<NodeId>(static_cast<size_t>(servers_) * server_.nodes.size() + i);
    }
  }
  return kNoNode;
}

}  // namespace gf
