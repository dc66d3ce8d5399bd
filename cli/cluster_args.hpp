// The cluster a subcommand works on, as every command that takes one spells it: CLUSTER
// (positional where the command has no other positional, or --cluster), --nodes, --fabric and
// --fabric-link. One definition, so the flags read, default and fail alike everywhere.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>
#include <gpufabric/gpufabric.hpp>

namespace gfcli {

struct ClusterArgs {
  std::string cluster, cluster_flag;
  int64_t nodes = 0;
  CLI::Option* nodes_opt = nullptr;
  std::string fabric, fabric_link;

  // `positional`: CLUSTER may also be given without --cluster.
  void add(CLI::App* sub, bool positional, const std::string& nodes_help) {
    const std::string what =
        "Preset name, server name, cluster YAML file, or a server's `nvidia-smi topo -m` output or NCCL topology "
        "XML (default: " + std::string(gf::kDefaultCluster) + ")";
    if (positional) {
      sub->add_option("cluster", cluster, what);
      sub->add_option("--cluster", cluster_flag, "Same as the positional CLUSTER");
    } else {
      sub->add_option("--cluster", cluster_flag, what);
    }
    nodes_opt = sub->add_option("--nodes", nodes, nodes_help);
    sub->add_option("--fabric", fabric, "Scale-out fabric kind (gpufabric list topologies; default: the cluster's)");
    sub->add_option("--fabric-link", fabric_link, "Switch-to-switch technology of the fabric (default: the NICs')");
  }

  std::string name() const {
    if (!cluster_flag.empty()) return cluster_flag;
    return cluster.empty() ? std::string(gf::kDefaultCluster) : cluster;
  }

  // --nodes when given, checked.
  std::optional<int64_t> nodes_given() const {
    if (!nodes_opt || nodes_opt->count() == 0) return std::nullopt;
    if (nodes < 1)
      throw gf::InputError({}, "--nodes", "must be at least 1, got " + std::to_string(nodes), "e.g. --nodes 2");
    return nodes;
  }

  gf::ClusterOverrides overrides() const {
    gf::ClusterOverrides over;
    over.nodes = nodes_given();
    over.fabric = fabric;
    over.fabric_link = fabric_link;
    return over;
  }
  gf::ClusterSpec resolve() const { return gf::resolve_cluster(name(), overrides()); }
  // The cluster built and routed, ready to simulate on.
  gf::Simulation load() const { return gf::Simulation::load(name(), overrides()); }
};

}  // namespace gfcli
