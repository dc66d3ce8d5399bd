// NCCL's transport variables applied to a server's TransportSettings (topology/p2p_level.hpp).
// One place for both roads in: `--env` / the process environment, which reach the cluster through
// config's ClusterOverrides, and a scenario job's `env:`, which builds its own view of the cluster.
#pragma once

#include <optional>

#include "topology/p2p_level.hpp"

namespace gf {

// `p2p_level`: NCCL_P2P_LEVEL, or LOC for NCCL_P2P_DISABLE=1 (NCCL's ncclGetLevel reads the disable
// flag first); nullopt leaves the server's level (NCCL's default) as it is. `shm_disabled`:
// NCCL_SHM_DISABLE=1. `net`: the network-transport variables (topology/net_transport.hpp), taken
// whole. A server's own `p2p: false` is hardware and is left alone.
void apply_transport_vars(TransportSettings& t, std::optional<PathType> p2p_level, bool shm_disabled,
                          const NetTransportSettings& net = {});

}  // namespace gf
