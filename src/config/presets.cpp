#include "config/presets.hpp"

#include <filesystem>
#include <string_view>

#include "config/cluster_set.hpp"
#include "config/cluster_yaml.hpp"
#include "config/imported_cluster.hpp"
#include "topology/fabric.hpp"
#include "topology/ib_hca.hpp"
#include "topology/net_ib_check.hpp"
#include "topology/server_registry.hpp"
#include "topology/transport_env.hpp"

namespace gf {

// Defined in the file cmake/embed_presets.cmake generates from presets/*.yaml.
const std::vector<std::pair<std::string_view, std::string_view>>& embedded_presets();

const std::string_view* preset_text(const std::string& name) {
  for (const auto& [n, text] : embedded_presets())
    if (n == name) return &text;
  return nullptr;
}

std::vector<PresetInfo> list_presets() {
  std::vector<PresetInfo> out;
  for (const auto& [name, text] : embedded_presets()) {
    ClusterSpec s = parse_cluster_yaml(std::string(text), "preset " + std::string(name));
    out.push_back({std::string(name), "cluster", s.description, s.source});
  }
  for (const auto& p : server_registry()) {
    ServerTemplate t = p.make();
    out.push_back({p.name, "server", t.description, t.source});
  }
  return out;
}

ClusterSpec resolve_cluster(const std::string& arg, std::optional<int64_t> nodes) {
  ClusterSpec spec;
  if (const std::string_view* text = preset_text(arg)) {
    spec = parse_cluster_yaml(std::string(*text), "preset " + arg);
  } else if (const ServerPreset* p = find_server(arg)) {
    spec.server = p->make();
    spec.name = arg;
    spec.description = spec.server.description;
    spec.source = spec.server.source;
    spec.fabric.kind = spec.server.default_fabric;
    spec.where = {"--cluster " + arg, 0, 0};
    spec.fabric.where = spec.where;
  } else if (std::filesystem::exists(arg)) {
    // A server file in the machine's own format (nvidia-smi text, NCCL XML) is imported; a
    // YAML file is loaded.
    TopologyFormat format = TopologyFormat::Yaml;
    if (auto imported = import_topology_file(arg, {}, &format)) spec = imported_cluster(*imported, arg, format);
    else spec = load_cluster_file(arg);
  } else {
    std::vector<std::string> names;
    for (const auto& [n, t] : embedded_presets()) names.emplace_back(n);
    for (const auto& n : server_names()) names.push_back(n);
    throw InputError({}, "cluster", "'" + arg + "' is neither a preset nor a readable file",
                     suggest(arg, names) + " (or a path to a cluster .yaml, `nvidia-smi topo -m` output or NCCL topology XML)");
  }
  if (nodes) {
    if (*nodes < 1)
      throw InputError({}, "--nodes", "must be at least 1, got " + std::to_string(*nodes), "e.g. --nodes 2");
    spec.servers = *nodes;
  }
  return spec;
}

ClusterSpec resolve_cluster(const std::string& arg, const ClusterOverrides& o) {
  ClusterSpec spec = resolve_cluster(arg, o.nodes);
  ClusterOverrides rest = o;  // nodes were applied by the resolve above
  rest.nodes = std::nullopt;
  apply_cluster_overrides(spec, rest);
  return spec;
}

void apply_cluster_overrides(ClusterSpec& spec, const ClusterOverrides& o) {
  if (o.nodes) {
    if (*o.nodes < 1)
      throw InputError({}, "--nodes", "must be at least 1, got " + std::to_string(*o.nodes), "e.g. --nodes 2");
    spec.servers = *o.nodes;
  }
  // The fabric's own checks (count_cluster) name --fabric / --fabric-link on a bad value.
  if (!o.fabric.empty()) {
    spec.fabric.kind = o.fabric;
    spec.fabric.where = {"--fabric", 0, 0};
    find_fabric(o.fabric, spec.fabric.where);  // checked even for one server, which builds no fabric
  }
  if (!o.fabric_link.empty()) {
    spec.fabric.link = o.fabric_link;
    spec.fabric.where = {"--fabric-link", 0, 0};
  }
  if (!o.ib_hca.empty()) apply_ib_hca(spec.server, o.ib_hca, spec.servers > 1, o.ib_hca_where);
  apply_transport_vars(spec.server.transport, o.p2p_level, o.shm_disabled, o.net);
  if (o.net_ib) check_ib_transport(spec.server, spec.catalog, o.net_where);  // NICs NCCL_NET=IB cannot drive
}

}  // namespace gf
