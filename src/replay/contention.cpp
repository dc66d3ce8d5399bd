#include "replay/contention.hpp"

#include <algorithm>
#include <memory>

#include "collective/algorithm.hpp"
#include "core/hash.hpp"
#include "engine/job_runner.hpp"
#include "model/model_factory.hpp"
#include "nccl/tuner.hpp"
#include "training/group_collectives.hpp"

namespace gf {

std::vector<double> time_together(const Cluster& cluster, const Router& router, const std::string& model,
                                  const std::vector<OverlapItem>& items, size_t transfer_budget,
                                  const std::string& flag) {
  std::vector<std::unique_ptr<Communicator>> comms;
  std::vector<std::unique_ptr<Schedule>> schedules;
  std::vector<size_t> ran;  // items that move data, in job order
  size_t transfers = 0;
  for (size_t i = 0; i < items.size(); ++i) {
    const OverlapItem& it = items[i];
    if (it.gpus.size() < 2 || it.bytes <= 0) continue;  // no data: takes no time, as alone
    auto comm = std::make_unique<Communicator>(group_communicator(cluster, router, it.gpus, flag));
    // As time_groups: 16-bit elements, gathers and scatters split into whole elements per rank,
    // the tuner's algorithm, protocol and channels for this group.
    CollectiveCall call;
    call.kind = it.kind;
    call.type = {"bfloat16", 2};
    const int64_t unit =
        (it.kind == CollectiveKind::AllGather || it.kind == CollectiveKind::ReduceScatter) ? 2 * comm->nranks : 2;
    call.bytes = Bytes(std::max<int64_t>(unit, it.bytes / unit * unit));
    const TunerChoice choice = choose(*comm, router, call, "auto", "auto");
    const Algorithm* algo = find_algorithm(choice.algorithm);
    schedules.push_back(std::make_unique<Schedule>(algo->build(*comm, call, {choice.proto, choice.channels})));
    comms.push_back(std::move(comm));
    transfers += schedules.back()->size();
    if (transfers > transfer_budget) return {};
    ran.push_back(i);
  }
  std::vector<double> out(items.size(), 0.0);
  if (ran.empty()) return out;
  std::vector<Job> jobs(ran.size());
  for (size_t j = 0; j < ran.size(); ++j) {
    jobs[j].name = flag.substr(2) + " instance " + std::to_string(j);
    // time_groups seeds its first group's job with mix_hash(0, 0): an instance alone here routes
    // as it does there.
    jobs[j].seed = mix_hash(0, j);
    jobs[j].start = Time::s(items[ran[j]].start_s);
    jobs[j].calls.push_back({schedules[j].get(), comms[j].get(), Time::zero(), std::string(to_string(items[ran[j]].kind))});
  }
  std::unique_ptr<Model> m = make_model(model, cluster);
  const JobsRun run = run_jobs(jobs, router, *m);
  for (size_t j = 0; j < ran.size(); ++j) out[ran[j]] = run.jobs[j].calls[0][0].duration().to_s();
  return out;
}

}  // namespace gf
