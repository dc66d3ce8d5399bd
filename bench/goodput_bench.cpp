// Macro benchmark: `gpufabric goodput`'s Monte Carlo for a Llama 3-sized job, the target
// (16,384 GPUs x 54 days x 1,000 runs in under 10 s). Times run_goodput with an automatic
// checkpoint interval (a 17-interval scan, then the reported run: 18 x RUNS job lives) and with a
// given one (RUNS lives), with the default Llama 3 rates.
// Usage: goodput_bench [RUNS] [DAYS] [GPUS]   (see docs/performance.md)
#include <cstdio>
#include <cstdlib>

#include "bench_clock.hpp"
#include "workload/goodput.hpp"

int main(int argc, char** argv) {
  gf::GoodputOptions o;
  o.runs = argc > 1 ? std::atoi(argv[1]) : 1000;
  o.days = argc > 2 ? std::atof(argv[2]) : 54;
  o.gpus = o.nics = argc > 3 ? std::atoll(argv[3]) : 16384;
  o.servers = o.gpus / 8;
  o.spares = o.servers / 2;
  const auto rates = gf::llama3_rates();
  auto t0 = gfbench::Clock::now();
  const auto a = gf::run_goodput(rates, o);
  const double auto_s = gfbench::seconds_since(t0);
  o.interval_s = a.best_s;
  t0 = gfbench::Clock::now();
  const auto b = gf::run_goodput(rates, o);
  const double given_s = gfbench::seconds_since(t0);
  std::printf(
      "goodput %lld GPUs x %.0f days x %d runs: auto interval %.3f s (ETT %.4f, %.1f interruptions), "
      "given interval %.3f s (ETT %.4f); peak %.1f MiB\n",
      static_cast<long long>(o.gpus), o.days, o.runs, auto_s, a.ett, a.interruptions, given_s, b.ett,
      gfbench::peak_rss_mib());
  return 0;
}
