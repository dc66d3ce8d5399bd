#include "nccl/faster_choice.hpp"

#include <cmath>
#include <map>

#include "collective/nccl_launch.hpp"
#include "core/text.hpp"
#include "engine/executor.hpp"
#include "engine/run_tick.hpp"
#include "model/model_factory.hpp"
#include "model/packet/packet_params.hpp"

namespace gf {

namespace {

// NCCL_ALGO's spelling of a registry name (tuning.cc ncclAlgoStr); "" for algorithms NCCL lacks.
std::string nccl_algo_name(const std::string& name) {
  static const std::map<std::string, std::string> kNames = {{"ring", "Ring"},
                                                            {"tree", "Tree"},
                                                            {"nvls", "NVLS"},
                                                            {"nvlstree", "NVLSTree"},
                                                            {"collnet_direct", "CollNetDirect"},
                                                            {"collnet_chain", "CollNetChain"},
                                                            {"pat", "PAT"}};
  auto it = kNames.find(name);
  return it == kNames.end() ? "" : it->second;
}

}  // namespace

std::vector<OptionTime> other_option_times(const Communicator& comm, const Router& router, const CollectiveCall& call,
                                           const NcclSettings& s, const TunerChoice& chosen, const std::string& model,
                                           uint64_t seed, RoutingPolicy routing, const OptionsWatch* watch) {
  const std::vector<TunerOption> options = tuner_options(comm, call, s);
  size_t runs = 0;  // how many `watch` is told of
  for (const TunerOption& o : options)
    for (Protocol p : o.protocols) runs += o.algorithm != chosen.algorithm || p != chosen.proto ? 1 : 0;
  std::vector<OptionTime> out;
  for (const TunerOption& o : options) {
    const Algorithm* a = find_algorithm(o.algorithm);
    for (Protocol p : o.protocols) {
      if (o.algorithm == chosen.algorithm && p == chosen.proto) continue;
      if (watch != nullptr && watch->before) watch->before(out.size(), runs, o.algorithm, p);
      Schedule sched = a->build(comm, call, {p, launch_channels(comm, call, o.algorithm, p, o.channels)});
      PacketParams packet;  // as the sweep runs the chosen one (sweep.cpp)
      if (routing == RoutingPolicy::Adaptive) packet.load_balance = LoadBalance::Adaptive;
      std::unique_ptr<Model> m = make_model(model, *comm.cluster, {}, packet);
      const ScheduleRun run = watch != nullptr && watch->tick != nullptr
                                  ? run_schedule(sched, comm, router, *m, seed, routing, nullptr, *watch->tick)
                                  : run_schedule(sched, comm, router, *m, seed, routing);
      out.push_back({o.algorithm, p, run.duration});
    }
  }
  return out;
}

std::optional<FasterChoice> faster_of(const std::vector<OptionTime>& others, Time chosen_time) {
  std::optional<FasterChoice> best;
  for (const OptionTime& o : others)
    if (!best || o.time < best->time) best = FasterChoice{o.algorithm, o.proto, o.time, 0};
  if (!best || chosen_time.to_s() <= (1 + kFasterChoiceMargin) * best->time.to_s()) return std::nullopt;
  best->saving = 1 - best->time.to_s() / chosen_time.to_s();
  return best;
}

std::optional<FasterChoice> faster_choice(const Communicator& comm, const Router& router, const CollectiveCall& call,
                                          const NcclSettings& s, const TunerChoice& chosen, Time chosen_time,
                                          const std::string& model, uint64_t seed, RoutingPolicy routing) {
  return faster_of(other_option_times(comm, router, call, s, chosen, model, seed, routing), chosen_time);
}

std::string faster_choice_note(const FasterChoice& f) {
  const std::string algo = nccl_algo_name(f.algorithm);
  const std::string proto = to_string(f.proto);
  const std::string force = algo.empty() ? "--algo " + f.algorithm + " --proto " + ascii_lower(proto)
                                         : "NCCL_ALGO=" + algo + " NCCL_PROTO=" + proto;
  return f.algorithm + "/" + proto + " takes " + std::to_string(static_cast<int>(std::lround(100 * f.saving))) +
         "% less time here in this simulation than NCCL's choice (" + force + " to force it)";
}

}  // namespace gf
