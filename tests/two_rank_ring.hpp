// Shared by the transport-latency tests: the time of an 8-byte ring all-reduce between two servers
// of one GPU each (2 steps, each crossing the network once), on the model under test, so a test's
// expected number is its per-step term times 2.
#pragma once

#include "collective/algorithm.hpp"
#include "engine/executor.hpp"
#include "routing/router.hpp"
#include "topology/cluster.hpp"
#include "topology/cluster_spec.hpp"

namespace gftest {

template <class Model>
double two_rank_ring_8b_us(const gf::ClusterSpec& spec, gf::Protocol p = gf::Protocol::Simple) {
  gf::Cluster c = gf::build_cluster(spec);
  gf::Router router(c);
  gf::Communicator comm = gf::make_communicator(c, router, 2, 1);
  gf::CollectiveCall call;
  call.kind = gf::CollectiveKind::AllReduce;
  call.bytes = gf::Bytes(8);
  gf::Schedule s = gf::find_algorithm("ring")->build(comm, call, {p, 1});
  Model model(c);
  return gf::run_schedule(s, comm, router, model).duration.to_us();
}

}  // namespace gftest
