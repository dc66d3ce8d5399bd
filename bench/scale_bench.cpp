// Macro benchmark of one collective at scale, through the library: resolve the cluster, build it,
// make the communicator and router, choose (tuner), build the schedule (steady-state above
// kStepScheduleBudget transfers), route every transfer, run it on a model. Prints the wall time of
// each stage, the transfer count and the peak RSS; docs/performance.md records the results.
//
// Usage: scale_bench CLUSTER NODES [ALGO=auto] [SIZE=1G] [MODEL=flow] [COLLECTIVE=all_reduce]
// "route" routes every transfer once on its own (to_model_transfer), to show what routing costs;
// "run" is run_schedule, which routes again as it starts transfers, so run includes routing.

#include <chrono>
#include <cstdio>
#include <string>

#include <gpufabric/gpufabric.hpp>

#include "bench_clock.hpp"
#include "model/model_factory.hpp"
#include "engine/executor.hpp"
#include "nccl/tuner.hpp"

namespace {

using gfbench::Clock;
using gfbench::peak_rss_mib;
const auto since = gfbench::seconds_since;

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s CLUSTER NODES [ALGO=auto] [SIZE=1G] [MODEL=flow] [COLLECTIVE=all_reduce]\n", argv[0]);
    return 2;
  }
  try {
    const auto t_all = Clock::now();
    const int nodes = std::stoi(argv[2]);
    const std::string algo = argc > 3 ? argv[3] : "auto";
    gf::CollectiveCall call;
    call.bytes = gf::parse_size(argc > 4 ? argv[4] : "1G");
    const std::string model_name = argc > 5 ? argv[5] : "flow";
    call.kind = *gf::parse_collective(argc > 6 ? argv[6] : "all_reduce");

    auto t0 = Clock::now();
    gf::Cluster c = gf::build_cluster(gf::resolve_cluster(argv[1], nodes));  // NODES servers, as --nodes
    gf::Router router(c);
    gf::Communicator comm = gf::make_communicator(c, router, nodes, c.gpus_per_server());
    const double t_cluster = since(t0);

    t0 = Clock::now();
    gf::TunerChoice choice = gf::choose(comm, router, call, algo, "auto");
    const double t_choose = since(t0);

    t0 = Clock::now();
    const gf::Algorithm* a = gf::find_algorithm(choice.algorithm);
    gf::Schedule s = a->build(comm, call, {choice.proto, choice.channels});
    const double t_build = since(t0);

    t0 = Clock::now();
    size_t legs = 0;
    for (size_t i = 0; i < s.size(); ++i) legs += gf::to_model_transfer(s, static_cast<gf::TransferId>(i), comm, router, 0).legs().size();
    const double t_route = since(t0);

    t0 = Clock::now();
    std::unique_ptr<gf::Model> model = gf::make_model(model_name, c);
    gf::ScheduleRun run = gf::run_schedule(s, comm, router, *model);
    const double t_run = since(t0);

    const double seconds = run.duration.to_s();
    const double busbw = seconds > 0 ? static_cast<double>(call.bytes.count()) / seconds / 1e9 * gf::busbw_factor(call.kind, comm.nranks) : 0;
    std::printf("%s  %d GPUs  %s %lld B  %s/%s/%d ch  model %s\n", argv[1], comm.nranks, gf::to_string(call.kind),
                static_cast<long long>(call.bytes.count()), choice.algorithm.c_str(), gf::to_string(choice.proto),
                choice.channels, model_name.c_str());
    std::printf("  transfers %zu (schedule channels %d)  legs %zu  events %zu\n", s.size(), s.channels(), legs, run.events);
    std::printf("  simulated %.3f us  busbw %.2f GB/s\n", run.duration.to_us(), busbw);
    std::printf("  wall: cluster %.2f s  choose %.2f s  build %.2f s  route %.2f s  run %.2f s  total %.2f s\n", t_cluster,
                t_choose, t_build, t_route, t_run, since(t_all));
    std::printf("  peak RSS %.0f MiB\n", peak_rss_mib());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
  return 0;
}
