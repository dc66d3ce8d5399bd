// Cluster files: YAML in, ClusterSpec out, and back. The schema (docs/cluster-yaml.md):
//   name, description, source        strings
//   server: <built-in name>
//         | {base: <built-in>, nic_tech, name, description, source, gpu{...}, default_fabric}
//         | {name, description, source, gpu{...}, nodes[...], links[...], scale_up{...}, default_fabric}
//   servers: N                       (default 1)
//   fabric: {kind, link, switch_model, switch_radix, oversubscription, spine_oversubscription, tiers,
//            planes, groups, routers_per_group, global_links_per_router, torus_dims}
//   link_technologies: [{name, family, bandwidth, latency, rdma, description, source}]  (additions)
#pragma once

#include <string>

#include "topology/cluster_spec.hpp"

namespace gf {

// `file` names the source in error messages.
ClusterSpec parse_cluster_yaml(const std::string& text, const std::string& file);
ClusterSpec load_cluster_file(const std::string& path);
// The YAML that parse_cluster_yaml() turns back into `spec`, with the server spelled out node by
// node so a user can start from a preset and edit any part of it.
std::string cluster_to_yaml(const ClusterSpec& spec);

}  // namespace gf
