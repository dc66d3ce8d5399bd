// NCCL's environment as gpufabric honours it: the NCCL_* variables a user sets for a real run
// (from the process environment, `--env KEY=VALUE`, or a scenario job's `env:`) become the
// settings the tuner chooses under, and every variable is accounted for: applied ones are listed
// for the `# nccl:` preamble line, the ones the models do not use yet for a `# note:`.
//
// Defaults are NCCL's (NVIDIA/nccl src/graph/tuning.cc, src/transport/coll_net.cc, nvls.cc and
// the environment variable documentation, docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html):
// CollNet (SHARP) is off unless NCCL_COLLNET_ENABLE=1, since it also needs the SHARP plugin; NVLS
// is on where the NVSwitches reduce (NCCL_NVLS_ENABLE=2, "enable if supported").
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/protocol.hpp"
#include "topology/p2p_level.hpp"
#include "topology/server_template.hpp"

namespace gf {

struct NcclSettings {
  // Algorithms and protocols the choice may take (registry names; Protocol values); empty means
  // every one NCCL enables. One algorithm or protocol is a forced choice: an error where it
  // cannot run, as NCCL_ALGO=x with no x available is.
  std::vector<std::string> algorithms;
  std::vector<Protocol> protocols;
  std::string algo_key = "--algo", proto_key = "--proto";  // what to name in an error
  bool collnet = false;  // NCCL_COLLNET_ENABLE
  bool nvls = true;      // NCCL_NVLS_ENABLE
  int min_channels = 0, max_channels = 0;  // NCCL_MIN_NCHANNELS / NCCL_MAX_NCHANNELS; 0: unset
  // NCCL_IB_HCA as given (checked by topology/ib_hca.hpp); empty: every compute NIC. It chooses
  // NICs, so it acts where the cluster is loaded (ClusterOverrides::ib_hca), not in the tuner.
  std::string ib_hca, ib_hca_where;
  // NCCL_P2P_LEVEL, or LOC for NCCL_P2P_DISABLE=1 (which wins, as in NCCL's ncclGetLevel), and
  // NCCL_SHM_DISABLE=1: the transports inside a server (topology/p2p_level.hpp). They act where
  // the cluster is loaded (ClusterOverrides::p2p_level, shm_disabled), as NCCL_IB_HCA does.
  std::optional<PathType> p2p_level;
  bool p2p_disabled = false, shm_disabled = false;
  // NCCL_NET_GDR_LEVEL, NCCL_NET (IB or Socket), NCCL_PXN_DISABLE, NCCL_CROSS_NIC
  // (topology/net_transport.hpp): how bytes reach the NICs and which NICs a channel uses. They act
  // where the cluster is loaded (ClusterOverrides::net), as the P2P variables do.
  NetTransportSettings net;
  // NCCL_NET=IB given by name: NCCL then loads only its IB transport, which must find a verbs
  // device among the NICs (checked where the cluster is loaded: topology/net_ib_check.hpp);
  // `net_where` names where it was set.
  bool net_ib = false;
  std::string net_where;
  std::vector<std::string> applied;   // "NCCL_ALGO=ring", in the order given
  std::vector<std::string> ignored;   // variables the models do not use, with why

  bool forced_algorithm() const { return algorithms.size() == 1; }
};

// Settings for `--algo ALGO --proto PROTO` alone ("auto" or one name each). An unknown protocol is
// an InputError here; an unknown algorithm is the tuner's, which names the registry's.
NcclSettings nccl_settings(const std::string& algo, const std::string& proto);

// `s` with `--algo ALGO --proto PROTO` (or a scenario call's algo / proto) over it: a name given
// ("auto" is none) is a forced choice that wins over NCCL_ALGO / NCCL_PROTO.
NcclSettings with_forced(NcclSettings s, const std::string& algo, const std::string& proto);

// Applies NCCL_* variables, in order, over `s`. `where` names their origin in errors ("--env",
// "the environment", "file.yaml:12"). A malformed value is an InputError naming the variable;
// an NCCL_* variable gpufabric does not model goes to `ignored`, any other name is skipped.
// --algo / --proto given on the command line win over NCCL_ALGO / NCCL_PROTO (said in `applied`).
void apply_nccl_env(NcclSettings& s, const std::vector<std::pair<std::string, std::string>>& vars,
                    const std::string& where, bool algo_flag_given = false, bool proto_flag_given = false);

// KEY=VALUE pairs of the process environment whose key starts with NCCL_, sorted by key so the
// output does not depend on the environment's order.
std::vector<std::pair<std::string, std::string>> nccl_vars_from_environment();

// The P2P level `s` sets, where the cluster is loaded (ClusterOverrides::p2p_level): LOC for
// NCCL_P2P_DISABLE=1, which wins over NCCL_P2P_LEVEL (NCCL src/graph/paths.cc ncclGetLevel reads
// it first), else NCCL_P2P_LEVEL; nullopt for NCCL's default.
std::optional<PathType> p2p_level_of(const NcclSettings& s);
// Whether `s` sets any variable that acts where the cluster is loaded: NCCL_IB_HCA (which NICs),
// NCCL_P2P_LEVEL / NCCL_P2P_DISABLE and NCCL_SHM_DISABLE (which transports inside a server), and
// the network-transport ones (NetTransportSettings).
bool changes_cluster(const NcclSettings& s);
// `t` with the transport settings of `s` applied (NCCL_P2P_LEVEL / NCCL_P2P_DISABLE,
// NCCL_SHM_DISABLE); unchanged where `s` sets none.
void apply_transport_env(TransportSettings& t, const NcclSettings& s);

// The `# nccl:` entry of NCCL_IB_HCA on `server` (its ib_hca already applied): how many of its
// compute NICs NCCL uses and which it leaves out; "" when NCCL_IB_HCA is not set.
std::string ib_hca_line(const NcclSettings& s, const ServerTemplate& server);

// The `# nccl:` entry of the transports inside `server` (its settings applied) when any pair of its
// GPUs does not use P2P, or the user set NCCL_P2P_* / NCCL_SHM_DISABLE: how many GPU pairs use P2P,
// SHM and NET, and why; "" otherwise (every pair P2P under NCCL's defaults).
std::string transport_line(const ServerTemplate& server, int p2p_pairs, int shm_pairs, int net_pairs);

// The `# nccl:` entry of the network transport when the user set one of its variables: the
// transport (IB verbs or sockets), how many of a server's `gpus` GPUs stage through host memory
// (`staged`) and the GPU-to-NIC path type `path` (an NCCL path number) of the first GPU; "" when
// none is set.
std::string net_transport_line(const NetTransportSettings& n, int gpus, int staged, int path);

// One line saying which in-network reductions the choice may use and why ("NVLS on (NCCL default);
// CollNet off (NCCL_COLLNET_ENABLE=0, NCCL's default; set it to 1 to use SHARP)").
std::string in_network_line(const NcclSettings& s);

}  // namespace gf
