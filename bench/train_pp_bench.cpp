// The PP send/recv pairs of a training step as `train` times them (training/group_collectives:
// every pair of neighbouring stages, both ways, all at once, one job per pair with seed
// mix_hash(0, j)), with what decides whether a per-boundary shortcut could be exact: how many of
// the links the pairs use carry more than one stage boundary's transfers, and when each boundary's
// last pair ends. Also the engine's events and the run's time, for the flow engine's cost per
// solve (docs/training.md, "Speed").
//
//   train_pp_bench CLUSTER NODES TP PP DP BYTES [MODEL]
//   e.g. train_pp_bench meta-llama3-roce 2048 8 16 128 33554432 flow   (405B, 16,384 GPUs)
//
// Ranks are placed as `train` places them (TP innermost, then DP, PP outermost; CP 1).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <set>

#include <gpufabric/gpufabric.hpp>

#include "collective/algorithm.hpp"
#include "core/hash.hpp"
#include "engine/job_runner.hpp"
#include "engine/transfer_routes.hpp"
#include "model/model_factory.hpp"
#include "nccl/tuner.hpp"
#include "training/group_collectives.hpp"

int main(int argc, char** argv) try {
  if (argc < 7) {
    std::fprintf(stderr, "usage: train_pp_bench CLUSTER NODES TP PP DP BYTES [MODEL]\n");
    return 2;
  }
  gf::ClusterOverrides over;
  over.nodes = std::atoll(argv[2]);
  const int64_t tp = std::atoll(argv[3]), pp = std::atoll(argv[4]), dp = std::atoll(argv[5]);
  const int64_t bytes = std::atoll(argv[6]);
  const std::string model = argc > 7 ? argv[7] : "flow";
  const gf::Simulation sim = gf::Simulation::load(argv[1], over);
  const gf::Cluster& c = sim.cluster();
  const gf::Router& router = sim.router();

  std::vector<std::vector<int64_t>> pairs;
  std::vector<int64_t> boundary;  // of each pair: stage s to s + 1
  for (int64_t s = 0; s + 1 < pp; ++s)
    for (int64_t d = 0; d < dp; ++d)
      for (int64_t t = 0; t < tp; ++t) {
        pairs.push_back({t + tp * (d + dp * s), t + tp * (d + dp * (s + 1))});
        boundary.push_back(s);
      }
  gf::CollectiveCall call;
  call.kind = gf::CollectiveKind::SendRecv;
  call.type = {"bfloat16", 2};
  call.bytes = gf::Bytes(bytes);
  std::vector<std::unique_ptr<gf::Communicator>> comms;
  std::vector<std::unique_ptr<gf::Schedule>> scheds;
  std::vector<gf::Job> jobs;
  comms.push_back(std::make_unique<gf::Communicator>(gf::group_communicator(c, router, pairs[0], "--pp")));
  const gf::TunerChoice choice = gf::choose(*comms[0], router, call, "auto", "auto");
  const gf::Algorithm* algo = gf::find_algorithm(choice.algorithm);
  std::map<gf::LinkId, std::set<int64_t>> users;  // link -> boundaries whose transfers cross it
  for (size_t j = 0; j < pairs.size(); ++j) {
    if (j > 0) comms.push_back(std::make_unique<gf::Communicator>(gf::group_communicator(c, router, pairs[j], "--pp")));
    scheds.push_back(std::make_unique<gf::Schedule>(algo->build(*comms[j], call, {choice.proto, choice.channels})));
    gf::Job job;
    job.name = "pp group " + std::to_string(j);
    job.seed = gf::mix_hash(0, j);
    job.calls.push_back({scheds.back().get(), comms[j].get(), gf::Time::zero(), "sendrecv"});
    gf::RouteCache routes(*scheds[j], *comms[j], router, job.seed);
    for (size_t i = 0; i < scheds[j]->size(); ++i)
      for (const gf::Leg& leg : *routes.route(static_cast<gf::TransferId>(i)))
        for (gf::LinkId l : leg.path.links) users[l].insert(boundary[j]);
    jobs.push_back(std::move(job));
  }
  size_t shared = 0;
  for (const auto& [l, b] : users) shared += b.size() > 1 ? 1 : 0;
  std::printf("%zu pairs, %s/%s, %d channels, %zu transfers each\n", pairs.size(), choice.algorithm.c_str(),
              gf::to_string(choice.proto), choice.channels, scheds[0]->size());
  std::printf("links used %zu, carrying more than one boundary %zu\n", users.size(), shared);

  const auto t0 = std::chrono::steady_clock::now();
  const std::clock_t cpu0 = std::clock();
  std::unique_ptr<gf::Model> m = gf::make_model(model, c);
  const gf::JobsRun run = gf::run_jobs(jobs, router, *m);
  const double cpu = static_cast<double>(std::clock() - cpu0) / CLOCKS_PER_SEC;
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::map<int64_t, gf::Time> ends;
  std::set<int64_t> instants;
  for (size_t j = 0; j < jobs.size(); ++j) {
    gf::Time& e = ends[boundary[j]];
    e = std::max(e, run.jobs[j].end);
    instants.insert(run.jobs[j].end.picoseconds());
  }
  for (const auto& [b, e] : ends) std::printf("boundary %lld ends %.9g s\n", static_cast<long long>(b), e.to_s());
  std::printf("makespan %.9g s, %zu engine events, %zu distinct pair ends, run %.2f s CPU, %.2f s wall\n",
              run.makespan.to_s(), run.events, instants.size(), cpu, wall);
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "train_pp_bench: %s\n", e.what());
  return 2;
}
