// Named clusters: the YAML files in presets/ (compiled in) and every built-in server, which on
// its own is a one-server cluster and with --nodes N becomes N servers on its usual fabric.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "topology/cluster_spec.hpp"

namespace gf {

struct PresetInfo {
  std::string name;
  std::string kind;  // "cluster" or "server"
  std::string description;
  std::string source;
};

std::vector<PresetInfo> list_presets();
// The cluster the README's main command runs on.
constexpr const char* kDefaultCluster = "dgx-h100-2node";
// `arg` is a preset name, a server name or a path to a YAML file. `nodes`, when given, replaces
// the server count. Throws InputError with suggestions when nothing matches.
ClusterSpec resolve_cluster(const std::string& arg, std::optional<int64_t> nodes = std::nullopt);
// The YAML text of a cluster preset, or nullptr.
const std::string_view* preset_text(const std::string& name);

}  // namespace gf
