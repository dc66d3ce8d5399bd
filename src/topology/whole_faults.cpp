#include "topology/whole_faults.hpp"

#include <fmt/format.h>

#include <charconv>

#include "core/error.hpp"

namespace gf {
namespace {

bool parse_index(const std::string& s, int64_t& v) {
  if (s.empty()) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && p == s.data() + s.size() && v >= 0;
}

// NVLink lanes of `gpu` to NvSwitch nodes: to `chip` alone, and to all of them.
std::pair<int, int> nvlink_lanes(const Cluster& c, NodeId gpu, NodeId chip) {
  int to_chip = 0, total = 0;
  for (LinkId l : c.out_links(gpu)) {
    const NodeId d = c.link(l).dst;
    if (c.node(d).kind != NodeKind::NvSwitch) continue;
    total += c.link(l).lanes;
    if (d == chip) to_chip += c.link(l).lanes;
  }
  return {to_chip, total};
}

const char* kPlaneSuffix = "/nvswitch-plane";

}  // namespace

std::optional<ComponentLinks> server_component(const Cluster& c, const std::string& name, const std::string& flag) {
  int64_t s = 0;
  if (name.rfind("server", 0) != 0 || !parse_index(name.substr(6), s)) return std::nullopt;
  if (s >= c.servers())
    throw InputError({}, flag, fmt::format("there is no '{}': the cluster has {} server{}", name, c.servers(),
                                           c.servers() == 1 ? "" : "s"),
                     fmt::format("name one of server0 .. server{}", c.servers() - 1));
  ComponentLinks out;
  out.scope = AppliedFault::Scope::Server;
  out.server = s;
  int gpus = 0, nics = 0;
  for (int local = 0; local < c.nodes_per_server(); ++local) {
    const NodeId n = c.server_node(s, local);
    gpus += c.node(n).kind == NodeKind::Gpu;
    nics += c.node(n).kind == NodeKind::Nic;
    for (LinkId l : c.out_links(n))
      if (c.node(c.link(l).dst).server != s) out.links.push_back(std::min(l, c.link(l).reverse));
  }
  out.what = fmt::format("server down: its {} GPU{} and {} NIC{} are gone ({} link{} to the rest of the cluster)",
                         gpus, gpus == 1 ? "" : "s", nics, nics == 1 ? "" : "s", out.links.size(),
                         out.links.size() == 1 ? "" : "s");
  return out;
}

std::optional<ComponentLinks> nvswitch_component(const Cluster& c, const std::string& name, const std::string& flag) {
  ComponentLinks out;
  out.scope = AppliedFault::Scope::NvSwitch;
  const NodeId n = c.find_node(name);
  if (n != kNoNode) {
    const Node& node = c.node(n);
    if (node.kind != NodeKind::NvSwitch || node.server < 0) return std::nullopt;
    for (LinkId l : c.out_links(n)) out.links.push_back(std::min(l, c.link(l).reverse));
    if (!out.links.empty()) {
      const NodeId gpu = c.link(out.links.front()).src == n ? c.link(out.links.front()).dst : c.link(out.links.front()).src;
      const auto [lost, total] = nvlink_lanes(c, gpu, n);
      out.what = fmt::format("NVSwitch chip down: each of its GPUs keeps {} of its {} NVLinks", total - lost, total);
    }
    return out;
  }
  // "<domain>/nvswitchK" or "<domain>/switch-trayK", the domain's plane named "<domain>/nvswitch-plane".
  const size_t slash = name.rfind('/');
  if (slash == std::string::npos || !c.server_template().scale_up) return std::nullopt;
  const std::string domain = name.substr(0, slash), part = name.substr(slash + 1);
  const NodeId plane = c.find_node(domain + kPlaneSuffix);
  if (plane == kNoNode) return std::nullopt;
  const int chips = c.server_template().scale_up->switch_chips;
  int64_t k = 0;
  int named = 0, count = 0;
  std::string what;
  if (part.rfind("nvswitch", 0) == 0 && parse_index(part.substr(8), k)) {
    named = 1, count = chips, what = "chip";
  } else if (part.rfind("switch-tray", 0) == 0 && parse_index(part.substr(11), k)) {
    named = kChipsPerSwitchTray, count = chips / kChipsPerSwitchTray, what = "switch tray";
  } else {
    return std::nullopt;
  }
  if (k >= count)
    throw InputError({}, flag, fmt::format("there is no '{}': {} has {} NVSwitch {}{}", name, domain, count, what,
                                           count == 1 ? "" : "s"),
                     fmt::format("name {}/{}0 .. {}", domain, what == "chip" ? "nvswitch" : "switch-tray", count - 1));
  for (LinkId l : c.out_links(plane)) out.links.push_back(std::min(l, c.link(l).reverse));
  out.share = static_cast<double>(named) / chips;
  const int links_per_gpu = c.server_template().scale_up->links_per_gpu;
  const int lost = links_per_gpu * named / chips;
  out.what = fmt::format("NVSwitch {} down ({} of {} chips): each GPU of the domain keeps {} of its {} NVLinks", what,
                         named, chips, links_per_gpu - lost, links_per_gpu);
  return out;
}

std::vector<std::string> whole_component_names(const Cluster& c, int64_t server) {
  std::vector<std::string> out;
  for (int64_t s = 0; s < c.servers(); ++s) out.push_back("server" + std::to_string(s));
  for (size_t i = 0; i < c.server_template().nodes.size(); ++i)
    if (c.server_template().nodes[i].kind == NodeKind::NvSwitch)
      out.push_back(fmt::format("server{}/{}", server, c.server_template().nodes[i].name));
  if (const auto& d = c.server_template().scale_up) {
    const auto first_fabric = static_cast<NodeId>(c.servers() * c.nodes_per_server());
    for (auto n = first_fabric; n < static_cast<NodeId>(c.nodes().size()); ++n) {
      const std::string plane = c.node_name(n);
      const size_t at = plane.rfind(kPlaneSuffix);
      if (at == std::string::npos || at + std::string(kPlaneSuffix).size() != plane.size()) continue;
      const std::string domain = plane.substr(0, at);
      for (int k = 0; k < d->switch_chips; ++k) out.push_back(fmt::format("{}/nvswitch{}", domain, k));
      for (int k = 0; k < d->switch_chips / kChipsPerSwitchTray; ++k)
        out.push_back(fmt::format("{}/switch-tray{}", domain, k));
    }
  }
  return out;
}

}  // namespace gf
