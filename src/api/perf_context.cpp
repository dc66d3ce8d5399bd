#include <gpufabric/perf_context.hpp>

namespace gf {

ClusterOverrides with_ib_hca(ClusterOverrides over, const NcclSettings& s) {
  over.ib_hca = s.ib_hca;
  over.ib_hca_where = s.ib_hca_where;
  over.p2p_level = p2p_level_of(s);
  over.shm_disabled = s.shm_disabled;
  over.net = s.net;
  over.net_ib = s.net_ib;
  over.net_where = s.net_where;
  return over;
}

PerfContext perf_context(const Simulation& sim, const Communicator& comm, const SweepOptions& s) {
  PerfContext ctx;
  ctx.cluster = sim.name();
  ctx.gpu = sim.spec().server.gpu.model;
  ctx.nranks = comm.nranks;
  ctx.nnodes = comm.nnodes;
  ctx.ppn = comm.ppn;
  for (const auto& a : s.nccl.applied) ctx.nccl.push_back(a);
  if (std::string l = ib_hca_line(s.nccl, sim.spec().server); !l.empty()) ctx.nccl.push_back(std::move(l));
  {
    const Router::TransportCounts t = sim.router().transport_counts();
    if (std::string l = transport_line(sim.spec().server, t.p2p, t.shm, t.net); !l.empty()) ctx.nccl.push_back(std::move(l));
  }
  {
    const Router& r = sim.router();
    if (std::string l = net_transport_line(sim.spec().server.transport.net, r.cluster().gpus_per_server(),
                                           r.staged_gpus(), r.gpu_nic_path(0));
        !l.empty())
      ctx.nccl.push_back(std::move(l));
  }
  ctx.nccl.push_back(in_network_line(s.nccl));
  // The cluster's own notes (an imported server's assumptions) first, then the algorithm choice's.
  ctx.notes = sim.spec().notes;
  for (const auto& i : s.nccl.ignored) ctx.notes.push_back("ignored " + i);
  for (auto& n : sim.algorithm_notes(comm, s.call.kind, s.algo)) ctx.notes.push_back(std::move(n));
  for (auto& n : sim.settings_notes(comm, s.call.kind, s.nccl)) ctx.notes.push_back(std::move(n));
  return ctx;
}

}  // namespace gf
