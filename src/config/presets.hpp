// Named clusters: the YAML files in presets/ (compiled in) and every built-in server, which on
// its own is a one-server cluster and with --nodes N becomes N servers on its usual fabric.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "topology/cluster_spec.hpp"
#include "topology/p2p_level.hpp"

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

// What a command line may change on top of the named cluster: `--nodes N`, `--fabric KIND`
// (leaf_spine, rail_optimized, ...: gpufabric list topologies) and `--fabric-link TECH` (the
// switch-to-switch technology, e.g. ib-ndr; by default the NICs'). A server file imported from nvidia-smi or NCCL XML
// describes one box, so these are how it becomes a cluster.
struct ClusterOverrides {
  std::optional<int64_t> nodes;
  std::string fabric;       // empty: keep the cluster's (or the server's usual) fabric
  std::string fabric_link;  // empty: keep
  // NCCL_IB_HCA's value (topology/ib_hca.hpp): the compute NICs it leaves out stay cabled but are
  // never used; `ib_hca_where` names where it was set in errors. Empty: every compute NIC.
  std::string ib_hca, ib_hca_where = "--env";
  // NCCL_P2P_LEVEL (NCCL_P2P_DISABLE=1 is LOC) and NCCL_SHM_DISABLE=1 (topology/p2p_level.hpp):
  // which transport GPU pairs inside a server use. Unset: NCCL's defaults.
  std::optional<PathType> p2p_level;
  bool shm_disabled = false;
  // NCCL_NET_GDR_LEVEL, NCCL_NET, NCCL_PXN_DISABLE, NCCL_CROSS_NIC (topology/net_transport.hpp).
  NetTransportSettings net;
  // NCCL_NET=IB named (NcclSettings::net_ib), refused on NICs NCCL's IB transport cannot drive
  // (topology/net_ib_check.hpp); `net_where` names where it was set in that error.
  bool net_ib = false;
  std::string net_where;
};
ClusterSpec resolve_cluster(const std::string& arg, const ClusterOverrides& o);
// The YAML text of a cluster preset, or nullptr.
const std::string_view* preset_text(const std::string& name);

}  // namespace gf
