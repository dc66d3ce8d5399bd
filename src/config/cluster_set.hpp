// Key-path settings on a cluster: `--set fabric.oversubscription=2` or a sweep file's
// `grid: {servers: [8, 16]}`. A setting changes the cluster's YAML document (the preset's or the
// file's own text, or a minimal one for a server name) before it is read, so it is checked by the
// very reader a cluster file is, with the same did-you-mean; an error about a set key names where
// the setting came from (`--set`, or the sweep file's line) rather than the preset.
#pragma once

#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "config/presets.hpp"
#include "core/error.hpp"

namespace gf {

struct KeySetting {
  std::string key;    // dotted path as in the YAML: servers, fabric.kind, server.gpu.model
  std::string value;  // YAML scalar text: 8, 2.5, ib-ndr, [4, 4]
  SourceLocation where;  // where the setting was written ({"--set"} on the command line)
};

// The overrides applied to a cluster already resolved (nodes, then fabric, then fabric link), as
// resolve_cluster(arg, over) applies them (config/presets.cpp).
void apply_cluster_overrides(ClusterSpec& spec, const ClusterOverrides& o);
// parse_cluster_yaml() on a parsed document, e.g. one whose keys a setting changed
// (config/cluster_yaml.cpp).
ClusterSpec parse_cluster_node(const YAML::Node& root, const std::string& file);

// The top-level keys of a cluster file, for did-you-mean on a key that is no cluster key.
const std::vector<std::string>& cluster_top_keys();

// `arg` as resolve_cluster() reads it, with `sets` applied in order to its YAML, then `over`.
// With no settings this is resolve_cluster(arg, over).
ClusterSpec resolve_cluster_set(const std::string& arg, const ClusterOverrides& over, const std::vector<KeySetting>& sets);

}  // namespace gf
