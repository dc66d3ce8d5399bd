// Macro benchmark: `gpufabric design` for N GPUs over a grid of designs, each costed and evaluated
// on the analytical model (all_reduce 1 GiB), reporting wall and CPU seconds and peak memory.
// Usage: design_bench GPUS SERVER KINDS LINKS OVERSUBSCRIPTIONS PLANES   (comma-separated lists;
// see docs/performance.md, "Design search")
#include <cstdio>
#include <ctime>
#include <gpufabric/bom.hpp>
#include <gpufabric/gpufabric.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "bench_clock.hpp"

namespace {

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string item; std::getline(ss, item, ',');) out.push_back(item);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 7) {
    std::fprintf(stderr, "usage: %s GPUS SERVER KINDS LINKS OVERSUBSCRIPTIONS PLANES\n", argv[0]);
    return 2;
  }
  try {
    gf::DesignQuery q;
    q.gpus = std::stoll(argv[1]);
    q.server = argv[2];
    q.kinds = split(argv[3]);
    q.links = split(argv[4]);
    q.oversubscription.clear();
    for (const auto& o : split(argv[5])) q.oversubscription.push_back(std::stod(o));
    q.planes.clear();
    for (const auto& p : split(argv[6])) q.planes.push_back(std::stoi(p));
    q.sweep.call.kind = gf::CollectiveKind::AllReduce;
    q.sweep.min_bytes = q.sweep.max_bytes = gf::Bytes(int64_t{1} << 30);
    q.sweep.model = "analytical";
    const auto t0 = gfbench::Clock::now();
    const std::clock_t c0 = std::clock();
    const auto designs = gf::search_designs(q, gf::PriceTable::builtin());
    int built = 0, front = 0;
    for (const auto& d : designs) built += d.figures.has_value(), front += d.pareto;
    std::printf("gpus=%lld designs=%zu buildable=%d pareto=%d wall_s=%.2f cpu_s=%.2f peak_rss_mib=%.0f\n",
                static_cast<long long>(q.gpus), designs.size(), built, front, gfbench::seconds_since(t0),
                static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC, gfbench::peak_rss_mib());
  } catch (const gf::InputError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
  return 0;
}
