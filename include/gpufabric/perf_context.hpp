// What every nccl-tests table `perf` prints says about its run, built once for the command line
// and the Python module alike: the cluster loaded with the NICs NCCL_IB_HCA picks, and the
// preamble's facts, `# nccl:` lines and notes.
#pragma once

#include "config/presets.hpp"
#include <gpufabric/simulation.hpp>
#include "report/nccl_table.hpp"

namespace gf {

// `over` with NCCL_IB_HCA, NCCL_P2P_LEVEL / NCCL_P2P_DISABLE and NCCL_SHM_DISABLE from `s` added:
// they choose NICs and transports, so they act where the cluster is loaded (topology/ib_hca.hpp,
// topology/p2p_level.hpp).
ClusterOverrides with_ib_hca(ClusterOverrides over, const NcclSettings& s);

// The preamble of a sweep of `s` on `comm`: cluster, GPU, ranks; the NCCL settings applied, the
// NICs NCCL_IB_HCA left, the in-network reductions; the cluster's own notes, the settings ignored,
// and why algorithms are left out of the choice. Callers append notes of their own flags.
PerfContext perf_context(const Simulation& sim, const Communicator& comm, const SweepOptions& s);

}  // namespace gf
