// Several simulations in one process at once, under ThreadSanitizer (GPUFABRIC_TSAN=ON,
// scripts/tsan.sh): a sweep's points on four threads, over both fidelity levels that share the
// most code with everything else (flow, analytical), tuned and forced algorithms. TSan reports any
// data race in the library (a static cache, a shared scratch buffer) and fails the run
// (halt_on_error); the rows are also checked against a run on one thread.
#include <gpufabric/param_sweep.hpp>

#include <cstdio>

int main() {
  gf::ParamSweepRequest r;
  r.cluster = "dgx-h100";
  r.options.call.kind = gf::CollectiveKind::AllReduce;
  r.options.min_bytes = gf::Bytes(1 << 20);
  r.options.max_bytes = gf::Bytes(4 << 20);
  r.options.factor = 4;
  const gf::SourceLocation here{"tsan", 0, 0};
  r.grid = gf::ParamGrid::full({{"servers", {"1", "2"}, here},
                                {"algo", {"auto", "ring", "tree"}, here},
                                {"model", {"analytical", "flow"}, here}});
  const gf::ParamSweep sweep(r);
  const auto many = sweep.run(4);
  const auto one = sweep.run(1);
  const std::string a = gf::param_sweep_csv(sweep.table(many)), b = gf::param_sweep_csv(sweep.table(one));
  if (a != b) {
    std::fprintf(stderr, "param_sweep_tsan: 4 threads and 1 thread gave different rows\n");
    return 1;
  }
  std::printf("param_sweep_tsan: %zu points on 4 threads, same rows as on 1\n", sweep.size());
  return 0;
}
