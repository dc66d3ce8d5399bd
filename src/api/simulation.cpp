#include <algorithm>
#include <climits>
#include <utility>
#include <gpufabric/simulation.hpp>

#include "core/error.hpp"
#include "report/table.hpp"
#include "routing/net_pairs.hpp"

namespace gf {

namespace {

// NET pairs on a cluster without a network (routing/net_pairs.hpp) are refused at the variable
// that made them NET.
void check_net_pairs(const ClusterSpec& spec, const Router& r) {
  if (const std::string why = net_pairs_without_network(spec.servers, r); !why.empty())
    throw InputError({}, "NCCL_SHM_DISABLE", why,
                     "use --nodes 2 or more (a fabric joins the NICs), or leave SHM on (unset NCCL_SHM_DISABLE)");
}

}  // namespace

Simulation Simulation::load(const std::string& cluster, const ClusterOverrides& over, const std::string& nodes_key) {
  return from_spec(resolve_cluster(cluster, over), cluster, nodes_key);
}

Simulation Simulation::from_spec(ClusterSpec spec, const std::string& name, const std::string& nodes_key) {
  Simulation s;
  s.spec_ = std::move(spec);
  const ClusterCounts counts = count_cluster(s.spec_);
  if (counts.links_directed > kMaxBuildLinks)
    throw InputError({}, nodes_key,
                     "this cluster is too large to simulate (" + with_commas(counts.links_directed) + " directed links)",
                     "use fewer " + nodes_key);
  s.name_ = s.spec_.name.empty() ? name : s.spec_.name;
  s.cluster_ = std::make_unique<Cluster>(build_cluster(s.spec_));
  s.router_ = std::make_unique<Router>(*s.cluster_);
  check_net_pairs(s.spec_, *s.router_);
  return s;
}

Simulation Simulation::load(const std::string& cluster, const ClusterOverrides& over,
                            const std::vector<FaultRequest>& faults) {
  Simulation s;
  s.spec_ = resolve_cluster(cluster, over);
  const ClusterCounts counts = count_cluster(s.spec_);
  if (counts.links_directed > kMaxBuildLinks)
    throw InputError(
        {}, "--nodes",
        "this cluster is too large to simulate (" + with_commas(counts.links_directed) + " directed links)",
        "use fewer --nodes");
  s.name_ = s.spec_.name.empty() ? cluster : s.spec_.name;
  s.cluster_ = std::make_unique<Cluster>(build_cluster(s.spec_));
  s.faults_ = apply_faults(*s.cluster_, faults);
  s.router_ = std::make_unique<Router>(*s.cluster_);
  check_net_pairs(s.spec_, *s.router_);
  return s;
}

std::vector<int64_t> Simulation::unreachable(const Communicator& comm) const {
  std::vector<int64_t> out;
  if (comm.gpu.empty()) return out;
  const std::vector<int64_t> lost = unreachable_gpus(*cluster_, comm.gpu.front());
  for (NodeId g : comm.gpu) {
    const int64_t i = cluster_->gpu_index(g);
    if (std::binary_search(lost.begin(), lost.end(), i)) out.push_back(i);
  }
  return out;
}

Communicator Simulation::communicator(int64_t nodes, int64_t gpus_per_node) const {
  const int64_t n = nodes > 0 ? nodes : spec_.servers;
  const int64_t g = gpus_per_node > 0 ? gpus_per_node : cluster_->gpus_per_server();
  if (n > INT32_MAX || g > INT32_MAX)
    throw InputError({}, n > INT32_MAX ? "--nodes" : "--gpus-per-node", "too large",
                     "docs/limits.md lists the largest cluster accepted");
  return make_communicator(*cluster_, *router_, static_cast<int>(n), static_cast<int>(g));
}

std::vector<std::string> Simulation::algorithm_notes(const Communicator& comm, CollectiveKind kind,
                                                     const std::string& algo) const {
  std::string usable, forced_why;
  std::vector<std::string> notes;
  for (const auto& a : algorithm_registry()) {
    std::string why = a->unsupported(comm, kind);
    if (why.empty()) usable += (usable.empty() ? "" : ", ") + a->name();
    else if (a->traits().implements(kind))  // not implementing it is not worth a note
      notes.push_back("--algo auto: " + a->name() + " not available here, not considered: " + why);
    if (a->name() == algo) forced_why = why;
  }
  if (!forced_why.empty())
    throw InputError({}, "--algo", algo + " cannot run " + to_string(kind) + " on " + name_ + ": " + forced_why,
                     usable.empty() ? "no algorithm can run it here" : "use --algo auto, or one that can: " + usable);
  if (algo != "auto") notes.clear();
  return notes;
}

std::vector<std::string> Simulation::settings_notes(const Communicator& comm, CollectiveKind kind,
                                                    const NcclSettings& s) const {
  std::vector<std::string> notes;
  if (s.forced_algorithm()) return notes;
  for (const auto& a : algorithm_registry()) {
    const InNetwork where = a->traits().in_network;
    const bool off = (where == InNetwork::CollNet && !s.collnet) || (where == InNetwork::Nvls && !s.nvls);
    if (!off || !a->traits().implements(kind) || !a->unsupported(comm, kind).empty()) continue;
    notes.push_back("--algo auto: " + a->name() + " could run here but is off: " +
                    (where == InNetwork::CollNet ? "NCCL_COLLNET_ENABLE=0 (NCCL's default; it also needs the SHARP plugin)"
                                                 : "NCCL_NVLS_ENABLE=0"));
  }
  return notes;
}

std::vector<SweepRow> Simulation::sweep(const Communicator& comm, const SweepOptions& o) const {
  return run_sweep(comm, *router_, o);
}

}  // namespace gf
