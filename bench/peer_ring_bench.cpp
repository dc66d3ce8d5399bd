// gpufabric's side of the SimGrid comparison (bench/simgrid_compare.sh): the peers' ring
// all-reduce, step by step, on the peers' leaf-spine, with the flow model (see peer_ring.hpp).
//
//   peer_ring_bench --n 1024 --ring sync|stream [--size 64MiB] [--cluster FILE] [--expanded] [--csv]
//
// The ring runs from its compact step pattern (engine/step_runner.hpp, memory O(N));
// --expanded builds the whole schedule and runs it with run_schedule instead (memory O(N^2)),
// the same simulated time, for comparing the two.
// Prints the simulated time, the wall time split into build (cluster, routes, schedule) and run
// (run_schedule), and event counts; --csv prints one row:
//   tool,N,S,ring,sim_time_s,wall_s,build_s,run_s,transfers,completions,flow_events,peak_flows
#include <cstdio>
#include <filesystem>
#include <string>

#include "bench_args.hpp"
#include "peer_ring.hpp"

namespace {

struct Options {
  int n = 256;
  gfpeer::RingSemantics ring = gfpeer::RingSemantics::Stream;
  gf::Bytes size = gf::Bytes(64ll << 20);
  // The cluster file in bench/clusters (GPUFABRIC_BENCH_DIR: bench/CMakeLists.txt).
  std::string cluster = (std::filesystem::path(GPUFABRIC_BENCH_DIR) / "clusters" / "peer-leafspine.yaml").string();
  bool csv = false;
  bool expanded = false;
};

Options parse(int argc, char** argv) {
  Options o;
  gfbench::ArgReader in(argc, argv, "peer_ring_bench --n N --ring sync|stream [--size 64MiB] [--cluster FILE] [--expanded] [--csv]");
  while (in.next()) {
    const std::string& a = in.flag();
    if (a == "--n") {
      o.n = static_cast<int>(in.whole());
    } else if (a == "--ring") {
      const std::string v = in.value();
      if (!gfpeer::parse_ring(v, o.ring)) in.bad("expected sync or stream, got '" + v + "'");
    } else if (a == "--size") {
      o.size = in.size();
    } else if (a == "--cluster") {
      o.cluster = in.value();
    } else if (a == "--expanded") {
      o.expanded = true;
    } else if (a == "--csv") {
      o.csv = true;
    } else {
      in.bad("unknown option");
    }
  }
  if (o.n < 32 || o.n % gfpeer::kHostsPerLeaf != 0) in.fail("--n", "N must be a multiple of 16, at least 32 (16 hosts per leaf)");
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const auto t0 = std::chrono::steady_clock::now();
    const Options o = parse(argc, argv);
    const gf::ClusterSpec spec = gfpeer::peer_cluster_spec(o.cluster, o.n);
    const double file_s = gfpeer::seconds_since(t0);
    // The human-readable form also times routing on its own (an extra pass, outside `wall`'s
    // build and run split); the CSV row, which the comparison script times, does not.
    const gfpeer::PeerRingResult r = gfpeer::run_peer_ring(spec, o.size, o.ring, o.expanded, !o.csv && !o.expanded);
    const double wall = gfpeer::seconds_since(t0);
    const double setup = wall - r.run_s;  // file, cluster, routes, schedule: build_s plus parsing
    if (o.csv) {
      std::printf("gpufabric,%d,%lld,%s,%.9g,%.3f,%.3f,%.3f,%zu,%zu,%zu,%zu\n", o.n,
                  static_cast<long long>(o.size.count()), gfpeer::to_string(o.ring), r.sim.to_s(), wall, setup,
                  r.run_s, r.transfers, r.completions, r.flow_events, r.peak_flows);
    } else {
      std::printf("gpufabric flow model, ring all-reduce (%s) N=%d S=%lld B, step by step\n",
                  gfpeer::to_string(o.ring), o.n, static_cast<long long>(o.size.count()));
      std::printf("  simulated time : %.9g s\n", r.sim.to_s());
      std::printf("  wall clock     : %.3f s (build %.3f s, run %.3f s)\n", wall, setup, r.run_s);
      std::printf("  build, in parts: file %.4f s, cluster %.4f s, router %.4f s, communicator %.4f s, "
                  "model and schedule %.4f s\n",
                  file_s, r.cluster_s, r.router_s, r.comm_s, r.model_schedule_s);
      if (!o.expanded) std::printf("  routing alone  : %.4f s (the pattern's transfers, timed apart)\n", r.route_s);
      std::printf("  transfers      : %zu (completion instants %zu, flow events %zu, peak flows %zu)\n",
                  r.transfers, r.completions, r.flow_events, r.peak_flows);
    }
  } catch (const gf::InputError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return 0;
}
