// Macro benchmark: route N random GPU pairs on a cluster with Router::route (per-flow ECMP, each
// pair's channel 0 NIC), as the executor does for each distinct (source, destination, channel).
// Reports the cluster build, the Router's construction, the first pass over the pairs (cold: it
// fills the Router's lazy caches) and the median of further passes over the same pairs (warm),
// with peak resident memory.
// With N = "ring": every GPU to the next in global order, on PASSES channels (channel c takes NIC
// choice c, a fresh flow key per edge and channel), once: the distinct queries a ring schedule
// makes, with the locality a ring has (most edges stay in a server or a leaf).
// Usage: route_bench CLUSTER [NODES] [N|ring] [PASSES]   (see docs/performance.md)

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include <gpufabric/gpufabric.hpp>

#include "bench_clock.hpp"

#include "core/hash.hpp"

using gfbench::peak_rss_mib;
using gfbench::seconds_since;

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s CLUSTER [NODES] [N] [PASSES]\n", argv[0]);
    return 2;
  }
  try {
    std::optional<int64_t> nodes;
    if (argc > 2 && std::stoll(argv[2]) > 0) nodes = std::stoll(argv[2]);
    const bool ring = argc > 3 && std::string(argv[3]) == "ring";
    const int64_t n = argc > 3 && !ring ? std::stoll(argv[3]) : 1000;
    const int passes = argc > 4 ? std::stoi(argv[4]) : 5;
    auto t0 = std::chrono::steady_clock::now();
    gf::Cluster c = gf::build_cluster(gf::resolve_cluster(argv[1], nodes));
    double t_build = seconds_since(t0);
    auto t1 = std::chrono::steady_clock::now();
    gf::Router router(c);
    double t_router = seconds_since(t1);
    if (ring) {
      auto t2 = std::chrono::steady_clock::now();
      size_t links = 0, routes = 0;
      for (int ch = 0; ch < passes; ++ch)
        for (int64_t g = 0; g < c.gpu_count(); ++g, ++routes)
          for (const gf::Leg& leg : router.route(c.gpu(g), c.gpu((g + 1) % c.gpu_count()),
                                                 gf::mix_hash(static_cast<uint64_t>(g), static_cast<uint64_t>(ch)), ch))
            links += leg.path.links.size();
      double t = seconds_since(t2);
      std::printf("cluster=%s gpus=%lld ring channels=%d routes=%zu ring_s=%.3f us_per_route=%.2f fabric_tables=%zu "
                  "cache_mib=%.1f peak_rss_mib=%.0f checksum=%zu\n",
                  argv[1], static_cast<long long>(c.gpu_count()), passes, routes, t, 1e6 * t / static_cast<double>(routes),
                  router.fabric_tables(), static_cast<double>(router.cache_bytes()) / (1 << 20),
                  peak_rss_mib(), links);
      return 0;
    }
    // Pairs from a fixed hash sequence: the same pairs on every run and machine.
    std::vector<std::pair<gf::NodeId, gf::NodeId>> pairs;
    const uint64_t gpus = static_cast<uint64_t>(c.gpu_count());
    for (int64_t i = 0; pairs.size() < static_cast<size_t>(n); ++i) {
      uint64_t a = gf::mix_hash(2024, static_cast<uint64_t>(i)) % gpus, b = gf::mix_hash(7, static_cast<uint64_t>(i)) % gpus;
      if (a != b) pairs.emplace_back(c.gpu(static_cast<int64_t>(a)), c.gpu(static_cast<int64_t>(b)));
    }
    size_t links = 0;  // summed so the compiler keeps every route
    auto run = [&] {
      auto t = std::chrono::steady_clock::now();
      for (size_t i = 0; i < pairs.size(); ++i)
        for (const gf::Leg& leg : router.route(pairs[i].first, pairs[i].second, i, 0)) links += leg.path.links.size();
      return seconds_since(t);
    };
    double cold = run();
    std::vector<double> warm;
    for (int p = 0; p < passes; ++p) warm.push_back(run());
    std::sort(warm.begin(), warm.end());
    double warm_median = warm.empty() ? cold : warm[warm.size() / 2];
    std::printf("cluster=%s gpus=%lld nodes=%zu links=%zu build_s=%.3f router_s=%.3f routes=%zu cold_s=%.3f "
                "cold_us_per_route=%.2f warm_median_s=%.4f warm_us_per_route=%.2f fabric_tables=%zu cache_mib=%.1f "
                "peak_rss_mib=%.0f checksum=%zu\n",
                argv[1], static_cast<long long>(c.gpu_count()), c.nodes().size(), c.links().size(), t_build, t_router,
                pairs.size(), cold, 1e6 * cold / static_cast<double>(pairs.size()), warm_median,
                1e6 * warm_median / static_cast<double>(pairs.size()), router.fabric_tables(),
                static_cast<double>(router.cache_bytes()) / (1 << 20), peak_rss_mib(), links);
  } catch (const gf::InputError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
  return 0;
}
