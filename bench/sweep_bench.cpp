// Macro benchmark and quick look: an nccl-tests-style sweep of one collective on a cluster, with
// the wall time the simulation took. Usage: sweep_bench CLUSTER NODES GPUS_PER_NODE COLLECTIVE
// MIN MAX [ALGO] [PROTO]
#include <chrono>
#include <cstdio>
#include <string>

#include <gpufabric/gpufabric.hpp>

#include "nccl/tuner.hpp"
#include "workload/sweep.hpp"

int main(int argc, char** argv) {
  if (argc < 7) {
    std::fprintf(stderr, "usage: %s CLUSTER NODES GPUS_PER_NODE COLLECTIVE MIN MAX [ALGO] [PROTO]\n", argv[0]);
    return 2;
  }
  try {
    auto t0 = std::chrono::steady_clock::now();
    int nodes = std::stoi(argv[2]), ppn = std::stoi(argv[3]);
    gf::Cluster c = gf::build_cluster(gf::resolve_cluster(argv[1]));
    gf::Router r(c);
    gf::Communicator comm = gf::make_communicator(c, r, nodes, ppn);
    gf::SweepOptions o;
    o.call.kind = *gf::parse_collective(argv[4]);
    o.min_bytes = gf::parse_size(argv[5]);
    o.max_bytes = gf::parse_size(argv[6]);
    if (argc > 7) o.algo = argv[7];
    if (argc > 8) o.proto = argv[8];
    auto rows = gf::run_sweep(comm, r, o);
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    for (const auto& row : rows)
      std::printf("%12lld %10.2f us %8.2f algbw %8.2f busbw  %s/%s/%d\n", static_cast<long long>(row.size.count()),
                  row.time.to_us(), row.algbw_gBps, row.busbw_gBps, row.choice.algorithm.c_str(),
                  gf::to_string(row.choice.proto), row.choice.channels);
    std::printf("# %zu sizes in %.3f s wall\n", rows.size(), wall);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
  return 0;
}
