// The library's front door: load a cluster, pick the ranks of a collective, check which
// algorithms can run, sweep sizes and read the rows. The command line, the benchmarks and the
// bindings to come call this; the headers it includes say what the results hold.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "collective/algorithm.hpp"
#include "collective/collective.hpp"
#include "collective/communicator.hpp"
#include "config/presets.hpp"
#include "nccl/nccl_env.hpp"
#include "routing/router.hpp"
#include "topology/cluster.hpp"
#include "topology/cluster_spec.hpp"
#include "topology/faults.hpp"
#include "workload/sweep.hpp"

namespace gf {

// A cluster described, built and routed: what every simulation on it shares. Holds no simulation
// state, so several may be used side by side, one per thread. One Simulation is not shared
// between threads: its Router's const queries fill caches (routing/router.hpp).
class Simulation {
 public:
  // `cluster`: a preset or server name, a cluster YAML file, or a server's `nvidia-smi topo -m`
  // output or NCCL topology XML. Throws InputError (file:line:key, hint) for bad input, and for a
  // cluster too large to build (ClusterSpec's kMaxBuildLinks), naming `nodes_key` as the flag.
  static Simulation load(const std::string& cluster, const ClusterOverrides& over = {},
                         const std::string& nodes_key = "--nodes");
  // The same cluster with failed and degraded components applied before it is routed
  // (topology/faults.hpp); faults() says what each did.
  static Simulation load(const std::string& cluster, const ClusterOverrides& over,
                         const std::vector<FaultRequest>& faults);
  // A cluster already described (e.g. parsed from YAML text that did not come from a file, as the
  // Python module's dicts do): checked, built and routed as load() does. `name` is what reports
  // call it when the spec has no name of its own.
  static Simulation from_spec(ClusterSpec spec, const std::string& name, const std::string& nodes_key = "--nodes");
  const std::vector<AppliedFault>& faults() const { return faults_; }
  // GPUs of `comm` that `comm`'s first rank can no longer reach (a failure left no route).
  std::vector<int64_t> unreachable(const Communicator& comm) const;

  const ClusterSpec& spec() const { return spec_; }
  const Cluster& cluster() const { return *cluster_; }
  const Router& router() const { return *router_; }
  // The cluster's name as reports print it (its own, else what it was loaded as).
  const std::string& name() const { return name_; }

  // The ranks of a collective: `nodes` servers (0: all) x `gpus_per_node` (0: every GPU).
  Communicator communicator(int64_t nodes = 0, int64_t gpus_per_node = 0) const;

  // Under algo "auto": one note per algorithm that implements `kind` but cannot run it on this
  // hardware, so a fallback is said, not silent. For a forced algorithm that cannot run, an
  // InputError (key "--algo") naming the ones that can; no notes.
  std::vector<std::string> algorithm_notes(const Communicator& comm, CollectiveKind kind, const std::string& algo) const;
  // One note per algorithm this hardware could run for `kind` that NCCL's settings leave out of the
  // automatic choice (CollNet without NCCL_COLLNET_ENABLE=1, NVLS with NCCL_NVLS_ENABLE=0).
  std::vector<std::string> settings_notes(const Communicator& comm, CollectiveKind kind, const NcclSettings& s) const;

  // An nccl-tests sweep on `comm` (workload/sweep.hpp).
  std::vector<SweepRow> sweep(const Communicator& comm, const SweepOptions& o) const;

 private:
  Simulation() = default;
  ClusterSpec spec_;
  std::string name_;
  std::unique_ptr<Cluster> cluster_;  // owned by pointer: the router keeps a reference to it
  std::unique_ptr<Router> router_;
  std::vector<AppliedFault> faults_;
};

}  // namespace gf
