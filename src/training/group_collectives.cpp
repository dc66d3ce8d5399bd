#include "training/group_collectives.hpp"

#include <algorithm>
#include <map>
#include <memory>

#include "collective/algorithm.hpp"
#include "collective/communicator.hpp"
#include "core/error.hpp"
#include "core/hash.hpp"
#include "engine/job_runner.hpp"
#include "model/model_factory.hpp"
#include "nccl/tuner.hpp"
#include "training/group_tick.hpp"

namespace gf {

Communicator group_communicator(const Cluster& c, const Router& router, const std::vector<int64_t>& gpus,
                                const std::string& flag) {
  const int gps = c.gpus_per_server();
  std::vector<int64_t> servers;
  std::map<int64_t, std::vector<int>> locals;
  for (int64_t g : gpus) {
    if (!locals.count(g / gps)) servers.push_back(g / gps);
    locals[g / gps].push_back(static_cast<int>(g % gps));
  }
  for (auto& [s, l] : locals) std::sort(l.begin(), l.end());
  const std::vector<int>& first = locals[servers.front()];
  for (const auto& [s, l] : locals)
    if (l != first)
      throw InputError(
          {}, flag,
          "the " + flag.substr(2) + " group of GPU " + std::to_string(gpus.front()) +
              " takes different GPU positions on different servers, which NCCL's algorithms do not model",
          "choose the parallel sizes so that each group takes the same positions on every server "
          "(e.g. TP a divisor of " +
              std::to_string(gps) + ")");
  return make_communicator(c, router, servers, first);
}

namespace {

GroupTiming timed(const Cluster& cluster, const Router& router, const std::string& model,
                  const std::vector<std::vector<int64_t>>& groups, CollectiveKind kind, Bytes bytes,
                  const std::string& flag, size_t transfer_budget, const RunTick* tick) {
  GroupTiming out;
  out.groups = out.of_groups = static_cast<int64_t>(groups.size());
  if (groups.empty() || groups.front().size() < 2 || bytes.count() <= 0) return out;
  std::vector<std::unique_ptr<Communicator>> comms;
  comms.push_back(std::make_unique<Communicator>(group_communicator(cluster, router, groups.front(), flag)));
  CollectiveCall call;
  call.kind = kind;
  call.type = {"bfloat16", 2};
  // nccl-tests' sizes: the per-rank split of gathers and scatters is whole elements.
  const int64_t unit =
      (kind == CollectiveKind::AllGather || kind == CollectiveKind::ReduceScatter) ? 2 * comms.front()->nranks : 2;
  call.bytes = Bytes(std::max<int64_t>(unit, bytes.count() / unit * unit));
  const TunerChoice choice = choose(*comms.front(), router, call, "auto", "auto");
  out.algorithm = choice.algorithm + "/" + to_string(choice.proto);
  out.channels = choice.channels;
  const Algorithm* algo = find_algorithm(choice.algorithm);
  std::vector<std::unique_ptr<Schedule>> schedules;
  schedules.push_back(std::make_unique<Schedule>(algo->build(*comms[0], call, {choice.proto, choice.channels})));
  // Every group has the same shape, so the first group's schedule size stands for each.
  const size_t to_run = schedules[0]->size() * groups.size() > transfer_budget ? 1 : groups.size();
  out.groups = static_cast<int64_t>(to_run);
  std::vector<Job> jobs(to_run);
  for (size_t j = 0; j < to_run; ++j) {
    if (j > 0) {
      comms.push_back(std::make_unique<Communicator>(group_communicator(cluster, router, groups[j], flag)));
      schedules.push_back(std::make_unique<Schedule>(algo->build(*comms[j], call, {choice.proto, choice.channels})));
    }
    jobs[j].name = flag.substr(2) + " group " + std::to_string(j);
    jobs[j].seed = mix_hash(0, j);
    jobs[j].calls.push_back({schedules.back().get(), comms[j].get(), Time::zero(), std::string(to_string(kind))});
  }
  std::unique_ptr<Model> m = make_model(model, cluster);
  const JobsRun run = tick ? run_jobs(jobs, router, *m, *tick) : run_jobs(jobs, router, *m);
  out.seconds = run.makespan.to_s();
  return out;
}

}  // namespace

GroupTiming time_groups(const Cluster& cluster, const Router& router, const std::string& model,
                        const std::vector<std::vector<int64_t>>& groups, CollectiveKind kind, Bytes bytes,
                        const std::string& flag, size_t transfer_budget) {
  return timed(cluster, router, model, groups, kind, bytes, flag, transfer_budget, nullptr);
}

GroupTiming time_groups_ticked(const Cluster& cluster, const Router& router, const std::string& model,
                               const std::vector<std::vector<int64_t>>& groups, CollectiveKind kind, Bytes bytes,
                               const std::string& flag, const RunTick& tick) {
  return timed(cluster, router, model, groups, kind, bytes, flag, kGroupTransferBudget, &tick);
}

}  // namespace gf
