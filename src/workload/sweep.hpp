// The nccl-tests sweep: one collective over sizes min..max (times `factor` or plus `step`), each
// size tuned (algorithm, protocol, channels as NCCL would pick, or as forced), scheduled and run
// on a model. Rows carry what nccl-tests prints plus the choice made.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "collective/collective.hpp"
#include "collective/communicator.hpp"
#include "collective/schedule.hpp"
#include "engine/executor.hpp"
#include "model/packet/packet_params.hpp"
#include "nccl/faster_choice.hpp"
#include "nccl/tuner.hpp"
#include "routing/router.hpp"
#include "routing/routing_policy.hpp"
#include "workload/noise.hpp"

namespace gf {

struct SweepRow;
struct RunTick;  // engine/run_tick.hpp

struct SweepOptions {
  CollectiveCall call;          // kind, type, redop, root (bytes is set per size)
  Bytes min_bytes{8}, max_bytes{8};
  double factor = 2;            // -f; used when step_bytes == 0
  int64_t step_bytes = 0;       // -i
  std::string algo = "auto";    // NCCL_ALGO-like: "auto" or an algorithm name
  std::string proto = "auto";   // NCCL_PROTO-like: "auto", "ll", "ll128", "simple"
  NcclSettings nccl;            // NCCL's environment (nccl_env.hpp); algo / proto above win over it
  std::string model = "flow";  // default_model_name()
  uint64_t seed = 0;
  RoutingPolicy routing = RoutingPolicy::Ecmp;  // --routing: ecmp | spray | adaptive
  // nccl-tests -g: GPUs one thread drives; their kernels launch one after another, so a call ends
  // (g-1) launches later (kSingleThreadLaunchPerGpuUs, collective/nccl_constants.hpp).
  int gpus_per_thread = 1;
  // Called after each size with (sizes done, sizes in all, the size just run); for a progress
  // line, never for results (the rows are returned whole).
  std::function<void(size_t, size_t, Bytes)> progress;
  // Followed inside each size's run of the chosen option (engine/run_tick.hpp), and with
  // compare_choices of each other option, so a progress line moves within a long size; never for
  // results (a run with a tick is the same run). Null: none.
  const RunTick* tick = nullptr;
  // With compare_choices: called before each other option's run, (run k from 0, of n, its
  // algorithm and protocol), so a progress line names what it follows; never for results.
  std::function<void(size_t, size_t, const std::string&, Protocol)> option_progress;
  // Called after each size that ran with the row, its schedule, its run (per-transfer finish
  // times) and the cache it was routed with (so a timeline draws those routes without routing the
  // call again); never for results.
  std::function<void(const SweepRow&, const Schedule&, const ScheduleRun&, RouteCache&)> on_run;
  // Hand on_run each run's port timelines (ScheduleRun::ports: queue depth, ECN marks and PFC
  // pauses per egress port, from a model with queues) for a timeline's counters.
  bool port_timelines = false;
  // Also simulate every other option the choice had and note one that is more than 10 % faster
  // (nccl/faster_choice.hpp). Off where only the chosen time matters (validate, doctor).
  bool compare_choices = false;
  // Stragglers and jitter over repeated iterations (workload/noise.hpp); off by default. When on,
  // each size also runs `noise.iterations` times with each rank's start delayed, and its row's
  // time is their mean (as nccl-tests prints the mean of its -n iterations).
  NoiseOptions noise;
  // Slow GPUs (`perf --degrade server1/gpu3=0.5`): (GPU node, fraction of its compute speed kept).
  // Every model shares each one's reduction rate among the channels reducing on it
  // (FlowModel::, AnalyticalModel:: and PacketModel::set_gpu_compute).
  std::vector<std::pair<NodeId, double>> slow_gpus;
  // Random packet loss (`perf --model packet --degrade LINK=loss:P`): (link, loss rate), each
  // direction listed. The packet model drops packets crossing them (PacketModel::set_link_loss),
  // drawn from `seed`; the other models ignore it (they take loss as a bandwidth penalty set on
  // the cluster, topology/faults.hpp loss_efficiency). With losses no faster-choice note is
  // looked for: the other options would run without the drops.
  std::vector<std::pair<LinkId, double>> link_losses;
  // The packet model's draws (drops, per-packet path choices) from `seed`: on with link_losses and
  // for their baseline, so the two differ by the drops alone. Off, the packet model draws from
  // seed 0 whatever --seed says, as before random loss reached it (its outputs do not move).
  bool packet_seeded = false;
};

struct SweepRow {
  Bytes size;                   // nccl-tests size (B)
  int64_t count = 0;            // elements
  Time time;                    // one call
  double algbw_gBps = 0;        // size / time, 1 GB = 1e9 B
  double busbw_gBps = 0;        // algbw x nccl-tests factor
  TunerChoice choice;           // algorithm, protocol, channels, and any fallback note
  IterationStats iterations;    // with SweepOptions::noise: the spread over iterations
  // With compare_choices: every other option the choice had, simulated (times as `time` counts
  // them), for the HTML report's per-option curves; empty otherwise.
  std::vector<OptionTime> others;
};

// The most rows one sweep runs: each row is a whole simulation (seconds at scale), so a linear
// sweep of 8 B steps up to 1 GB (134 million rows) is a mistake to name, not a run to start.
// docs/limits.md.
constexpr int64_t kMaxSweepRows = 10000;
// How many sizes the options visit, counted without listing them.
int64_t sweep_row_count(const SweepOptions& o);
// The sizes nccl-tests would visit for these options. Throws InputError past kMaxSweepRows.
std::vector<Bytes> sweep_sizes(const SweepOptions& o);
// Throws InputError for sizes that are not a multiple of the element size, min > max, a root
// outside the ranks, an unknown or impossible algorithm / protocol / model.
std::vector<SweepRow> run_sweep(const Communicator& comm, const Router& router, const SweepOptions& o);
// The model one run of the sweep uses: `o.model` with the slow GPUs' shared reductions
// (set_gpu_compute), the packet model also with the links' random loss (PacketModel::
// set_link_loss) and, with losses or packet_seeded, `o.seed` for its draws. The other models
// take loss as a bandwidth penalty instead.
std::unique_ptr<Model> sweep_model(const SweepOptions& o, const Cluster& c, PacketParams packet);

}  // namespace gf
