// A seeded property test over random valid clusters and sweeps: whatever the server, fabric, node
// count, collective and model, a sweep finishes without an exception other than InputError, and
// every row has a finite, positive time that does not shrink as the size grows, and a busbw within
// the physical bound of the GPU. Seeded (std::mt19937_64, fixed seed), so a failure reproduces.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <random>

#include "config/presets.hpp"
#include "routing/router.hpp"
#include "topology/cluster_spec.hpp"
#include "workload/sweep.hpp"

using namespace gf;

namespace {

// The most one GPU can move per direction: the sum of its own links out (NVLink, PCIe), each at
// its catalog rate. nccl-tests' busbw counts the bytes each rank's links carry, so a ring or tree
// cannot beat it; in-network reduction (NVLS, SHARP) halves what a rank sends for the same busbw,
// hence the factor 2 below.
double gpu_egress_GBps(const Cluster& c, NodeId gpu) {
  double total = 0;
  for (LinkId l : c.out_links(gpu)) total += c.link(l).bandwidth.bytes_per_second();
  return total / 1e9;
}

TEST(HardenProperty, RandomClustersGiveSaneSweeps) {
  const std::vector<std::string> servers = {"dgx-h100", "dgx-a100", "hgx-h200", "aws-p5", "pcie-8gpu", "mi300x", "gaudi3"};
  const std::vector<std::string> fabrics = {"", "leaf_spine", "full_mesh", "fat_tree", "rail_optimized", "single_switch"};
  const std::vector<CollectiveKind> kinds = {CollectiveKind::AllReduce, CollectiveKind::AllGather,
                                             CollectiveKind::ReduceScatter, CollectiveKind::AllToAll,
                                             CollectiveKind::Broadcast};
  std::mt19937_64 rng(25);  // the number: any fixed seed makes a failure reproducible
  auto pick = [&](size_t n) { return static_cast<size_t>(rng() % n); };
  int runs = 0;
  for (int trial = 0; trial < 24; ++trial) {
    ClusterOverrides o;
    o.nodes = 1 + static_cast<int64_t>(pick(4));
    o.fabric = fabrics[pick(fabrics.size())];
    const std::string server = servers[pick(servers.size())];
    const std::string label = server + " x" + std::to_string(*o.nodes) + " " + (o.fabric.empty() ? "usual" : o.fabric);
    ClusterSpec spec;
    std::optional<Cluster> built;
    try {
      spec = resolve_cluster(server, o);
      count_cluster(spec);
      built.emplace(build_cluster(spec));
    } catch (const InputError&) {
      continue;  // a design the fabric cannot take (a radix, a torus shape): refused, as it should be
    }
    const Cluster& cluster = *built;
    Router router(cluster);
    Communicator comm = make_communicator(cluster, router, static_cast<int>(*o.nodes), cluster.gpus_per_server());
    SweepOptions s;
    s.call.kind = kinds[pick(kinds.size())];
    s.call.type = *parse_datatype("float");
    s.model = trial % 3 == 0 ? "flow" : "analytical";
    // Whole elements per rank for every kind: 4 B x ranks x 2^k.
    s.min_bytes = Bytes(int64_t{4} * comm.nranks);
    s.max_bytes = Bytes(int64_t{4} * comm.nranks << 20);
    s.factor = 32;
    s.seed = rng();
    std::vector<SweepRow> rows;
    try {
      rows = run_sweep(comm, router, s);
    } catch (const InputError& e) {
      ADD_FAILURE() << label << ": a valid cluster refused: " << e.what();
      continue;
    }
    ++runs;
    const double bound = 2 * gpu_egress_GBps(cluster, comm.gpu[0]);
    Time last = Time::zero();
    for (const SweepRow& r : rows) {
      const std::string at = label + " " + s.model + " " + std::to_string(r.size.count()) + " B";
      EXPECT_FALSE(r.time.is_infinite()) << at;
      EXPECT_GT(r.time, Time::zero()) << at;
      EXPECT_GE(r.time, last) << at << ": a larger size finished sooner";
      EXPECT_TRUE(std::isfinite(r.busbw_gBps) && r.busbw_gBps >= 0) << at;
      EXPECT_LE(r.busbw_gBps, bound) << at << ": busbw above twice the GPU's own links";
      last = r.time;
    }
  }
  EXPECT_GE(runs, 12) << "too few random clusters were valid for the test to mean anything";
}

}  // namespace
