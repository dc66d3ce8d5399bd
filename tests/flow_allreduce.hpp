// Shared by the NVLS/NVLS-tree tests: the time of one all-reduce on the flow model, built by an
// algorithm by name on `nodes` servers x `ppn` GPUs of a cluster (16 channels, Simple).
#pragma once

#include "collective/algorithm.hpp"
#include "engine/executor.hpp"
#include "model/flow/flow_model.hpp"
#include "routing/router.hpp"
#include "topology/cluster.hpp"

namespace gftest {

inline double flow_allreduce_seconds(const gf::Cluster& c, int nodes, int ppn, const char* algo, gf::Bytes bytes) {
  gf::Router router(c);
  gf::Communicator comm = gf::make_communicator(c, router, nodes, ppn);
  gf::CollectiveCall k;
  k.kind = gf::CollectiveKind::AllReduce;
  k.bytes = bytes;
  gf::Schedule s = gf::find_algorithm(algo)->build(comm, k, {gf::Protocol::Simple, 16});
  gf::FlowModel model(c);
  return gf::run_schedule(s, comm, router, model).duration.to_s();
}

}  // namespace gftest
