#include "inference/serving_allreduce.hpp"

#include <memory>

#include "collective/algorithm.hpp"
#include "core/error.hpp"
#include "core/hash.hpp"
#include "engine/job_runner.hpp"
#include "training/group_collectives.hpp"
#include "model/model_factory.hpp"

namespace gf {

namespace {

// The custom kernels' fixed cost, set by judgement and not fitted to any data set:
//  - one kernel launch: 2.4 us, the per-kernel launch cost the project already uses for
//    nccl-tests' -g runs (collective/nccl_constants.hpp kSingleThreadLaunchPerGpuUs, fitted there
//    to NVIDIA/nccl-tests #123, not to the data sets this path is compared with);
//  - each barrier: 1 us, a system-scope release store to every peer's flag and an acquire poll on
//    one's own, crossing the NVSwitch each way (our estimate of two NVLink round trips with the
//    fences, not a measurement).
constexpr double kLaunchUs = 2.4;
constexpr double kBarrierUs = 1.0;

}  // namespace

const char* to_string(ServingAllReduce a) {
  switch (a) {
    case ServingAllReduce::Nccl: return "nccl";
    case ServingAllReduce::OneShot: return "oneshot";
    case ServingAllReduce::TwoShot: return "twoshot";
    case ServingAllReduce::Auto: return "auto";
  }
  return "?";
}

ServingAllReduce parse_serving_allreduce(const std::string& text, const std::string& flag) {
  for (ServingAllReduce a :
       {ServingAllReduce::Nccl, ServingAllReduce::OneShot, ServingAllReduce::TwoShot, ServingAllReduce::Auto})
    if (text == to_string(a)) return a;
  throw InputError({}, flag, "unknown all-reduce '" + text + "'", suggest(text, {"nccl", "oneshot", "twoshot", "auto"}));
}

ServingAllReduce auto_serving_allreduce(int ranks, double bytes, bool one_domain) {
  if (!one_domain || ranks < 2) return ServingAllReduce::Nccl;
  if (bytes >= 8e6) return ServingAllReduce::Nccl;  // above the custom kernels' workspace
  if (ranks <= 2) return ServingAllReduce::OneShot;
  if (ranks <= 4) return bytes < 1e6 ? ServingAllReduce::OneShot : ServingAllReduce::TwoShot;
  return bytes < 5e5 ? ServingAllReduce::OneShot : ServingAllReduce::TwoShot;
}

double custom_allreduce_fixed_us(ServingAllReduce a) {
  return kLaunchUs + (a == ServingAllReduce::TwoShot ? 3 : 2) * kBarrierUs;
}

ServingArTiming time_serving_allreduce(const Cluster& cluster, const Router& router, const std::string& model,
                                       const std::vector<std::vector<int64_t>>& groups, double bytes,
                                       ServingAllReduce mode, const std::string& flag) {
  ServingArTiming out;
  out.groups = out.of_groups = static_cast<int64_t>(groups.size());
  if (groups.empty() || groups.front().size() < 2 || bytes <= 0) return out;
  std::vector<std::unique_ptr<Communicator>> comms;
  comms.push_back(std::make_unique<Communicator>(group_communicator(cluster, router, groups.front(), "--tp")));
  const int n = comms.front()->nranks;
  if (mode == ServingAllReduce::Auto) mode = auto_serving_allreduce(n, bytes, comms.front()->one_domain);
  if (mode == ServingAllReduce::Nccl) {
    const GroupTiming t = time_groups(cluster, router, model, groups, CollectiveKind::AllReduce,
                                      Bytes(static_cast<int64_t>(bytes)), "--tp");
    out.seconds = t.seconds;
    out.how = "nccl " + t.algorithm;
    out.groups = t.groups;
    return out;
  }
  if (!comms.front()->one_domain)
    throw InputError({}, flag,
                     std::string(to_string(mode)) + " all-reduce needs the TP group inside one NVLink domain, but it spans " +
                         std::to_string(comms.front()->nnodes) + " servers",
                     "use --allreduce nccl (or auto), or a TP that fits in a server");
  // One-shot: every GPU takes the whole buffer S from each peer, the traffic of an all-to-all
  // whose blocks are S each (nccl-tests size n S). Two-shot: the reduce-scatter takes S/n from
  // each peer, then the all-gather the same again: two all-to-alls of size S, one after the other.
  const Algorithm* direct = find_algorithm("direct");
  CollectiveCall call;
  call.kind = CollectiveKind::AllToAll;
  call.type = {"bfloat16", 2};
  const double block = mode == ServingAllReduce::OneShot ? bytes * n : bytes;
  call.bytes = Bytes(std::max<int64_t>(2 * n, static_cast<int64_t>(block) / (2 * n) * (2 * n)));
  const int rounds = mode == ServingAllReduce::OneShot ? 1 : 2;
  // The whole fixed cost is charged once per call, on the last round: the kernel's barriers and
  // launch, with no NCCL per-step latencies (the wires' own latencies remain in the model).
  auto build = [&](const Communicator& comm, bool last) {
    Schedule s = direct->build(comm, call, {Protocol::Simple, direct->channels(comm)});
    s.set_step_latency({Time::zero(), Time::zero(), Time::zero()});
    s.set_base_latency(last ? Time::us(custom_allreduce_fixed_us(mode)) : Time::zero());
    return s;
  };
  std::vector<std::unique_ptr<Schedule>> schedules;
  std::vector<Job> jobs(groups.size());
  for (size_t j = 0; j < groups.size(); ++j) {
    if (j > 0) comms.push_back(std::make_unique<Communicator>(group_communicator(cluster, router, groups[j], "--tp")));
    jobs[j].name = "tp group " + std::to_string(j);
    jobs[j].seed = mix_hash(0, j);
    for (int r = 0; r < rounds; ++r) {
      schedules.push_back(std::make_unique<Schedule>(build(*comms[j], r + 1 == rounds)));
      jobs[j].calls.push_back({schedules.back().get(), comms[j].get(), Time::zero(), to_string(mode)});
    }
  }
  std::unique_ptr<Model> m = make_model(model, cluster);
  out.seconds = run_jobs(jobs, router, *m).makespan.to_s();
  out.how = to_string(mode);
  return out;
}

}  // namespace gf
