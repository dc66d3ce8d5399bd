// A scenario run end to end: the cluster built, each job placed on its GPUs, each call tuned as
// NCCL would (or as forced) and scheduled, every job run on one model (engine/job_runner), and
// the results gathered: per job and call the time over repetitions with algbw/busbw, and the
// links that carried the most.
//
// Semantic checks (all InputError naming the scenario file, line and key): the cluster resolves,
// every GPU and server exists, no GPU is used by two jobs unless `share_gpus: true`, collectives,
// datatypes, reductions, algorithms, protocols, model and routing policy are known, a root is one
// of the job's ranks, and a size holds at least one element per rank.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "collective/collective.hpp"
#include "workload/scenario_events.hpp"
#include "workload/scenario_spec.hpp"
#include "workload/scenario_view.hpp"
#include "engine/job_runner.hpp"
#include "nccl/tuner.hpp"
#include "collective/communicator.hpp"
#include "routing/router.hpp"

namespace gf {

struct ScenarioOptions {
  std::optional<std::string> model;    // overrides the file's `model:` (--model)
  std::optional<std::string> routing;  // overrides the file's `routing:` (--routing)
  int top_links = 10;                  // how many of the most loaded links to report
  // Called once after the jobs have run (run --html, --trace), before the result is gathered.
  ScenarioObserver on_run;
  // Keep each call's routes (JobCall::routes, in the view on_run gets) rather than dropping them
  // when its run ends: a timeline draws them without routing every call again (run --trace).
  bool keep_routes = false;
  // For a progress line, never for results: each of the scenario's runs (the jobs together, the
  // run without its events, each job alone) named, then followed as engine/run_tick.hpp says.
  std::function<void(const std::string& phase, Time now, size_t events, double done)> tick;
};

struct ScenarioCallResult {
  CollectiveCall call;     // as run: bytes is the nccl-tests size after rounding
  TunerChoice choice;      // algorithm, protocol, channels
  std::vector<CallSpan> spans;  // one per repetition
  Time mean, min, max;
  double algbw_gBps = 0;   // size / mean time, 1 GB = 1e9 B
  double busbw_gBps = 0;   // algbw x nccl-tests factor
  // With several jobs: the mean time of this call when its job runs alone on the same cluster,
  // model, routing and seed (zero with one job), and mean / alone, the cost of sharing.
  Time alone_mean = Time::zero();
  double slowdown = 0;
};

struct ScenarioJobResult {
  std::string name;
  std::string placement;   // "servers 0-15 x 8 GPUs"
  int nranks = 0, nnodes = 0, ppn = 0;
  int repeat = 1;
  Time start, end;
  std::vector<ScenarioCallResult> calls;
  // With `events:`: what they did to the job, beside its end in the run without them.
  std::optional<JobEventOutcome> outcome;
};

struct LinkUse {
  LinkId link = 0;
  std::string from, to;    // node names as `gpufabric topo` prints them
  std::string tech;        // "ib-ndr", "8 x ib-ndr" (a bundle's evenly loaded cables), "ib-ndr #3 of 8"
  // Parallel cables (topology/bundle.hpp): `cables` in the link's bundle (1: a single link, which
  // is cable 1); the row is cable `cable` of them (1-based), or 0 when it stands for all `cables`
  // (an evenly loaded bundle). `lanes`: lanes of one cable (Link::lanes).
  int cable = 1, cables = 1, lanes = 1;
  Bandwidth bandwidth;     // catalog bandwidth, per direction
  double bytes = 0;        // wire bytes carried (payload inflated by protocol overhead)
  double utilisation = 0;  // bytes / (bandwidth x makespan)
};

// A port's queue from Model::queue_report, with its link's end points named.
struct QueueUse {
  std::string from, to;
  PortQueueReport queue;
};

struct ScenarioResult {
  std::string name, description, file;
  std::string cluster;     // the cluster's name
  int64_t gpus = 0, servers = 0;
  std::string model, routing;
  uint64_t seed = 0;
  Time makespan;
  size_t events = 0;
  std::vector<ScenarioJobResult> jobs;
  std::vector<LinkUse> top_links;  // highest utilisation first; ties by bytes, then link id
  size_t links_used = 0;           // links that carried anything
  std::vector<std::pair<std::string, int64_t>> model_statistics;  // Model::statistics() at the end
  std::vector<QueueUse> queues;    // the deepest egress queues (models with queues), deepest first
  std::vector<std::string> notes;  // what the run decided that a reader should know (SHARP refused)
  // With `events:`: each event as resolved (what it does, when its stall ends), the run without
  // them, and NCCL's behaviour on a failure (abort | resilient).
  std::vector<std::string> event_lines;
  Time baseline_makespan;
  std::string nccl_on_failure;
};

ScenarioResult run_scenario(const ScenarioSpec& spec, const ScenarioOptions& options = {});

// Job `j`'s ranks on `cluster`, placed and checked as run_scenario places them.
Communicator job_communicator(const JobSpec& j, const Cluster& cluster, const Router& router);

}  // namespace gf
