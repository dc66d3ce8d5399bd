// Macro benchmark: resolve a cluster, count it, build its graph and summarize it, as
// `gpufabric topo` does, reporting wall time per phase and peak resident memory.
// Usage: topo_build_bench CLUSTER [NODES]   (see docs/performance.md)

#include <chrono>
#include <cstdio>
#include <optional>
#include <string>

#include <gpufabric/gpufabric.hpp>

#include "bench_clock.hpp"

using gfbench::peak_rss_mib;
using gfbench::seconds_since;

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s CLUSTER [NODES]\n", argv[0]);
    return 2;
  }
  try {
    std::optional<int64_t> nodes;
    if (argc > 2) nodes = std::stoll(argv[2]);
    auto t0 = std::chrono::steady_clock::now();
    gf::ClusterSpec spec = gf::resolve_cluster(argv[1], nodes);
    gf::ClusterCounts counts = gf::count_cluster(spec);
    double t_count = seconds_since(t0);
    auto t1 = std::chrono::steady_clock::now();
    gf::Cluster c = gf::build_cluster(spec);
    double t_build = seconds_since(t1);
    auto t2 = std::chrono::steady_clock::now();
    gf::TopoSummary s = gf::summarize(spec, &c);
    std::string text = gf::summary_text(s);
    double t_summary = seconds_since(t2);
    std::printf("cluster=%s gpus=%lld nodes=%zu links=%zu count_s=%.3f build_s=%.3f summary_s=%.3f total_s=%.3f "
                "peak_rss_mib=%.0f\n",
                argv[1], static_cast<long long>(counts.gpus), c.nodes().size(), c.links().size(), t_count, t_build,
                t_summary, seconds_since(t0), peak_rss_mib());
  } catch (const gf::InputError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
  return 0;
}
