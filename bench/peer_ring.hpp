// The ring all-reduce of ../shared/peers (simgrid_allreduce --mode allreduce) run through the
// gpufabric library step by step, as SimGrid runs it: each of the 2(N-1) steps of each rank is one
// transfer of S/N bytes from rank r to rank r+1, on the peers' leaf-spine
// (bench/clusters/peer-leafspine.yaml), with the flow model. Shared by bench/peer_ring_bench.cpp
// and tests/peer_ring_test.cpp so that the test checks exactly what the benchmark times.
#pragma once

#include <chrono>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "collective/communicator.hpp"
#include "collective/schedule.hpp"
#include "collective/step_schedule.hpp"
#include "config/cluster_yaml.hpp"
#include "model/flow/flow_model.hpp"
#include "routing/router.hpp"
#include "topology/cluster_spec.hpp"
#include "engine/executor.hpp"
#include "engine/step_runner.hpp"
#include "engine/transfer_routes.hpp"

namespace gfpeer {

// The peers' step semantics (../shared/peers/README.md, "Workloads"; simgrid_allreduce.cpp).
enum class RingSemantics { Sync, Stream };

inline const char* to_string(RingSemantics s) { return s == RingSemantics::Sync ? "sync" : "stream"; }
// "sync" or "stream"; false for anything else.
inline bool parse_ring(const std::string& v, RingSemantics& out) {
  if (v == "sync") out = RingSemantics::Sync;
  else if (v == "stream") out = RingSemantics::Stream;
  else return false;
  return true;
}

// The peers put 16 hosts on a leaf once N >= 32 (common.hpp make_topology, --hosts-per-leaf).
constexpr int kHostsPerLeaf = 16;

// The cluster file for N hosts: `servers` = N, and spines of one port per leaf (N / 16), as the
// spines of SimGrid's FatTreeZone {2, {16, N/16}, {1, 16}, {1, 1}} have. With that radix the Clos
// planner spreads each leaf's 16 uplinks over 16 spines, one cable each, at every N.
inline gf::ClusterSpec peer_cluster_spec(const std::string& yaml_path, int hosts) {
  if (hosts < 2 * kHostsPerLeaf || hosts % kHostsPerLeaf != 0)
    throw std::invalid_argument("the peers' leaf-spine needs N a multiple of 16, at least 32");
  gf::ClusterSpec spec = gf::load_cluster_file(yaml_path);
  spec.servers = hosts;
  spec.fabric.spine_radix = hosts / kHostsPerLeaf;
  return spec;
}

// Transfer (r, k), rank r's step k, has id k * N + r: rank r -> r + 1 (mod N), S / N bytes (the
// peers round S / N to whole bytes: llround), no reduction (the peers reduce in zero time), and
//  * stream: needs (r - 1, k - 1). simgrid_allreduce posts rank r's k-th put once its (k-1)-th get
//    returned, and permanent receivers start a comm as soon as it is posted; the put is detached,
//    so (r, k) does not wait for (r, k - 1).
//  * sync: needs (r - 1, k - 1), (r, k - 1) and (r + 1, k - 1). A SimGrid comm starts when both
//    ends are posted: rank r posts put k after its step k - 1 (its receive (r - 1, k - 1) and its
//    send (r, k - 1)), rank r + 1 posts get k after its own step k - 1 (its receive (r, k - 1) and
//    its send (r + 1, k - 1)). This is also the ns-3 peer's emulation ("rank r hands chunk k to
//    TCP only when r, r+1 and r+2 have all received chunk k-1"). The brief's {(r, k-1),
//    (r-1, k-1)} misses (r + 1, k - 1); on this fabric both give the same time (every chain may
//    stay on the slowest edge, README "exact for the sync ring"), but the third is what SimGrid does.
// Step latencies stay zero, so a transfer's alpha is its path's link latency, as in SimGrid.
// `steps` defaults to the whole all-reduce; peer_ring_steps takes the first two as its pattern.
inline gf::Schedule peer_ring_schedule(int n, gf::Bytes size, RingSemantics sem, int steps = 0) {
  if (steps <= 0) steps = 2 * (n - 1);
  const auto chunk = static_cast<int64_t>(std::llround(static_cast<double>(size.count()) / n));
  gf::Schedule s("ring-" + std::string(to_string(sem)), n, 1, gf::Protocol::Simple);
  const auto transfers = static_cast<size_t>(steps) * static_cast<size_t>(n);
  s.reserve(transfers, (sem == RingSemantics::Sync ? 3 : 1) * (transfers - static_cast<size_t>(n)));
  gf::Transfer t;
  t.bytes = gf::Bytes(chunk > 0 ? chunk : 1);
  t.reduce = gf::Bytes(0);
  auto id = [n](int r, int k) { return static_cast<gf::TransferId>(static_cast<int64_t>(k) * n + (r + n) % n); };
  for (int k = 0; k < steps; ++k) {
    t.step = static_cast<int16_t>(k);
    for (int r = 0; r < n; ++r) {
      t.src = r;
      t.dst = (r + 1) % n;
      if (k == 0) {
        s.add(t);
      } else if (sem == RingSemantics::Stream) {
        s.add(t, {id(r - 1, k - 1)});
      } else {
        s.add(t, {id(r - 1, k - 1), id(r, k - 1), id(r + 1, k - 1)});
      }
    }
  }
  return s;
}

// The same schedule in compact form (collective/step_schedule.hpp): every step after the first
// repeats the second with its dependencies moved, so the ring is its first two steps.
inline gf::StepSchedule peer_ring_steps(int n, gf::Bytes size, RingSemantics sem) {
  return gf::StepSchedule(peer_ring_schedule(n, size, sem, 2), 2 * (n - 1));
}

// The peers have no protocol, header or PCIe overhead: every link delivers its full bandwidth.
inline gf::ModelParams peer_model_params() {
  gf::ModelParams p;
  p.net_efficiency = 1.0;
  p.pcie_efficiency = 1.0;
  return p;
}

struct PeerRingResult {
  gf::Time sim;          // last transfer's completion
  double build_s = 0;    // cluster, router, communicator, schedule
  // build_s in parts: the cluster graph, the Router (its distance tables), the communicator,
  // then the flow model and the schedule (or step pattern); route_s is routing the pattern's
  // transfers alone, timed apart (run_steps routes them again inside run_s).
  double cluster_s = 0, router_s = 0, comm_s = 0, model_schedule_s = 0, route_s = 0;
  double run_s = 0;      // run_schedule
  size_t transfers = 0;
  size_t completions = 0;  // executor events (instants with completions)
  size_t flow_events = 0;  // flow model activations + completions
  size_t peak_flows = 0;
};

inline double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// `expanded`: build the whole schedule and run it with run_schedule (memory O(N^2)), as before
// the step pattern; otherwise run the pattern with run_steps (O(N)). Both give the same times.
// `time_routes`: also route the pattern once on its own to time routing (route_s).
inline PeerRingResult run_peer_ring(const gf::ClusterSpec& spec, gf::Bytes size, RingSemantics sem,
                                    bool expanded = false, bool time_routes = false) {
  const auto t0 = std::chrono::steady_clock::now();
  PeerRingResult r;
  const gf::Cluster cluster = gf::build_cluster(spec);
  r.cluster_s = seconds_since(t0);
  const gf::Router router(cluster);
  r.router_s = seconds_since(t0) - r.cluster_s;
  const int n = static_cast<int>(spec.servers);
  const gf::Communicator comm = gf::make_communicator(cluster, router, n, 1);
  r.comm_s = seconds_since(t0) - r.cluster_s - r.router_s;
  gf::FlowModel model(cluster, peer_model_params());
  if (expanded) {
    const gf::Schedule sched = peer_ring_schedule(n, size, sem);
    r.build_s = seconds_since(t0);
    const auto t1 = std::chrono::steady_clock::now();
    const gf::ScheduleRun run = gf::run_schedule(sched, comm, router, model);
    r.run_s = seconds_since(t1);
    r.sim = run.duration;
    r.transfers = sched.size();
    r.completions = run.events;
  } else {
    const gf::StepSchedule steps = peer_ring_steps(n, size, sem);
    r.build_s = seconds_since(t0);
    r.model_schedule_s = r.build_s - r.cluster_s - r.router_s - r.comm_s;
    if (time_routes) {
      const auto tr = std::chrono::steady_clock::now();
      gf::RouteCache routes(steps.pattern(), comm, router, 0);
      for (size_t i = 0; i < steps.pattern().size(); ++i) routes.route(static_cast<gf::TransferId>(i));
      r.route_s = seconds_since(tr);
    }
    const auto t1 = std::chrono::steady_clock::now();
    const gf::StepRun run = gf::run_steps(steps, comm, router, model);
    r.run_s = seconds_since(t1);
    r.sim = run.duration;
    r.transfers = steps.size();
    r.completions = run.events;
  }
  r.flow_events = model.events_processed();
  r.peak_flows = model.peak_flows();
  return r;
}

}  // namespace gfpeer
