// What one 64-byte line costs this host by where it comes from: for working sets from 64 KiB to
// 64 MiB, the nanoseconds per line read at random, (a) one read after another (a pointer chase:
// the latency) and (b) independent reads (a sum over a shuffled index list: what an out-of-order
// core pays when, as in the flow engine's batch of ring edges, the reads do not depend on each
// other). Multiplied by the flow engine's misses per event (cachegrind) it says how much of the
// cost per event the memory hierarchy stands for (issue 26, docs/performance.md "Flow engine cost
// per event and memory").
//
// (c) sits between them: eight chases at once, as many misses in flight as eight independent
// chains of dependent reads allow. (d) reads every line once a lap in address order: what a
// sweep costs when the hardware prefetchers can see where it goes.
//
// Usage: line_cost_bench [MIN_KIB [MAX_KIB]]; working sets MIN, 1.5 MIN, 2 MIN, 3 MIN, ... up to
// MAX; one line each:
//   working_set_KiB latency_ns_per_line chase8_ns_per_line independent_ns_per_line in_order_ns_per_line
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <random>
#include <vector>

#include "bench_clock.hpp"

namespace {

struct alignas(64) Line {
  uint64_t next;  // index of the next line of the chase
  uint64_t pad[7];
};

// A single cycle through every line in random order, so a chase touches each line once a lap and
// no prefetcher can guess the next.
std::vector<Line> chase_ring(size_t lines, std::mt19937_64& rng) {
  std::vector<uint64_t> order(lines);
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin() + 1, order.end(), rng);
  std::vector<Line> ring(lines);
  for (size_t i = 0; i < lines; ++i) ring[order[i]].next = order[(i + 1) % lines];
  return ring;
}

}  // namespace

int main(int argc, char** argv) {
  const size_t min_kib = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 64;
  const size_t max_kib = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 65536;
  if (min_kib < 4 || max_kib < min_kib) {
    std::fprintf(stderr, "usage: line_cost_bench [MIN_KIB [MAX_KIB]] (MIN_KIB >= 4, MAX_KIB >= MIN_KIB)\n");
    return 2;
  }
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // a line per size as it is measured (the large ones take minutes)
  std::mt19937_64 rng(1);
  std::printf("working_set_KiB latency_ns_per_line chase8_ns_per_line independent_ns_per_line in_order_ns_per_line\n");
  for (size_t kib = min_kib, step = 0; kib <= max_kib; kib = (step++ % 2 == 0) ? kib * 3 / 2 : kib * 4 / 3) {
    const size_t lines = kib * 1024 / sizeof(Line);
    const std::vector<Line> ring = chase_ring(lines, rng);
    std::vector<uint32_t> shuffled(lines);
    std::iota(shuffled.begin(), shuffled.end(), 0u);
    std::shuffle(shuffled.begin(), shuffled.end(), rng);
    // About 32 M reads per measurement, at least 4 laps, so that the first lap's cold misses and
    // page faults are a small part; the best of 3 is kept (the host is shared).
    const size_t reads = std::max<size_t>(4, (size_t{1} << 25) / lines) * lines;  // whole laps
    double best_lat = 1e30, best_c8 = 1e30, best_ind = 1e30, best_seq = 1e30;
    uint64_t sink = 0;
    for (int rep = 0; rep < 3; ++rep) {
      uint64_t at = 0;
      auto t0 = gfbench::Clock::now();
      for (size_t i = 0; i < reads; ++i) at = ring[at].next;
      best_lat = std::min(best_lat, gfbench::seconds_since(t0) * 1e9 / static_cast<double>(reads));
      sink += at;
      // Eight chases spread around the cycle: their reads overlap, each chain's do not.
      // Chain k starts k eighths of the way around the cycle (placed by one untimed walk).
      // Zeroed: a ring of under eight lines leaves later chains at line 0 (and -O2 cannot see
      // that the placement fills all eight).
      uint64_t c[8] = {};
      uint64_t walk = 0;
      const size_t stride = std::max<size_t>(lines / 8, 1);
      for (size_t s = 0; s < lines; ++s, walk = ring[walk].next)
        if (s % stride == 0 && s / stride < 8) c[s / stride] = walk;
      t0 = gfbench::Clock::now();
      for (size_t i = 0; i < reads / 8; ++i)
        for (size_t k = 0; k < 8; ++k) c[k] = ring[c[k]].next;
      best_c8 = std::min(best_c8, gfbench::seconds_since(t0) * 1e9 / static_cast<double>(reads / 8 * 8));
      for (size_t k = 0; k < 8; ++k) sink += c[k];
      uint64_t sum = 0;
      t0 = gfbench::Clock::now();
      for (size_t lap = 0; lap < reads / lines; ++lap)  // laps, not i % lines: no division timed
        for (size_t i = 0; i < lines; ++i) sum += ring[shuffled[i]].pad[0];
      best_ind = std::min(best_ind, gfbench::seconds_since(t0) * 1e9 / static_cast<double>(reads));
      sink += sum;
      sum = 0;
      t0 = gfbench::Clock::now();
      for (size_t lap = 0; lap < reads / lines; ++lap)
        for (size_t i = 0; i < lines; ++i) sum += ring[i].pad[0];
      best_seq = std::min(best_seq, gfbench::seconds_since(t0) * 1e9 / static_cast<double>(reads));
      sink += sum;
    }
    std::printf("%zu %.2f %.2f %.2f %.2f\n", kib, best_lat, best_c8, best_ind, best_seq);
    if (sink == 42) std::printf("#\n");  // keeps the reads
  }
  return 0;
}
