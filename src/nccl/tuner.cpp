// The choice is NCCL's: NCCL's closed-form time (nccl_estimate.hpp; NVIDIA/nccl 2.30.7
// src/graph/tuning.cc, ncclTopoTuneModel and ncclTopoGetAlgoTime) of every enabled (algorithm,
// protocol) on the channel count NCCL runs it with, the fastest taken, at every size. The same
// figures decide what runs, so the sweep never ranks candidates one way and runs them another.
// Candidates NCCL lacks (direct, sendrecv: all-to-all and send/recv patterns, where NCCL has no
// algorithm choice) are costed by running their schedule on the analytical model.
// Candidates follow NCCL's defaults (tuning.cc): NVLS only with Simple; LL128 only on NVLink
// systems (NCCL enables it where the intra-node path is NVLink); CollNet and NVLS only where the
// hardware reduces.
#include "nccl/tuner.hpp"

#include <algorithm>
#include <numeric>
#include <optional>
#include <stdexcept>

#include "collective/nccl_launch.hpp"
#include "core/error.hpp"
#include "core/text.hpp"
#include "model/analytical/analytical_model.hpp"
#include "engine/executor.hpp"
#include "nccl/nccl_estimate.hpp"
#include "engine/transfer_routes.hpp"

namespace gf {

namespace {

// What "auto" may pick, in the tie order of each algorithm's AutoChoice: those that allow it,
// less the in-network reductions NCCL's settings leave off. Under a list of algorithms (NCCL_ALGO
// with several), every listed one may be picked, those that never run under auto last.
std::vector<const Algorithm*> auto_candidates(const NcclSettings& s) {
  std::vector<const Algorithm*> out;
  for (const auto& a : algorithm_registry()) {
    const InNetwork where = a->traits().in_network;
    if ((where == InNetwork::Nvls && !s.nvls) || (where == InNetwork::CollNet && !s.collnet)) continue;
    if (a->traits().automatic.allowed() || !s.algorithms.empty()) out.push_back(a.get());
  }
  auto rank = [](const Algorithm* a) { return a->traits().automatic.allowed() ? a->traits().automatic.rank() : 1 << 20; };
  std::stable_sort(out.begin(), out.end(), [&](const Algorithm* x, const Algorithm* y) { return rank(x) < rank(y); });
  return out;
}

bool listed(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// NCCL's channel count for the algorithm, within NCCL_MIN_NCHANNELS / NCCL_MAX_NCHANNELS.
int channels_for(const Communicator& comm, const std::string& name, const NcclSettings& s) {
  int c = default_channels(comm, name);
  if (s.max_channels > 0) c = std::min(c, s.max_channels);
  if (s.min_channels > 0) c = std::max(c, s.min_channels);
  return c;
}

// The algorithm's protocols, less LL128 where the intra-node path is not NVLink (NCCL enables
// LL128 only there).
std::vector<Protocol> protocols_for(const Communicator& comm, const Algorithm& a) {
  std::vector<Protocol> p;
  for (Protocol x : a.traits().protocols.list())
    if (x != Protocol::LL128 || comm.nvlink) p.push_back(x);
  return p;
}

}  // namespace

int default_channels(const Communicator& comm, const std::string& algorithm) {
  const Algorithm* a = find_algorithm(algorithm);
  if (!a) throw std::logic_error("default_channels: unknown algorithm '" + algorithm + "'");
  return a->channels(comm);
}

TunerChoice choose(const Communicator& comm, const Router& router, const CollectiveCall& call,
                   const std::string& algo, const std::string& proto) {
  return choose(comm, router, call, nccl_settings(algo, proto));
}

std::vector<TunerOption> tuner_options(const Communicator& comm, const CollectiveCall& call, const NcclSettings& s) {
  std::optional<Protocol> forced_proto;
  if (s.protocols.size() == 1) forced_proto = s.protocols.front();
  const std::string algo = s.forced_algorithm() ? s.algorithms.front() : "auto";
  const std::string proto = forced_proto ? ascii_lower(to_string(*forced_proto)) : "auto";
  std::vector<std::string> candidates;
  if (s.forced_algorithm()) {
    const Algorithm* a = find_algorithm(algo);
    if (!a) {
      std::vector<std::string> names = algorithm_names();
      names.insert(names.begin(), "auto");
      throw InputError({}, s.algo_key, "unknown algorithm '" + algo + "'", suggest(algo, names));
    }
    std::string why = a->unsupported(comm, call.kind);
    if (!why.empty()) throw InputError({}, s.algo_key, algo + " cannot run " + to_string(call.kind) + " here: " + why,
                                       "use --algo auto to let gpufabric pick one that can");
    candidates.push_back(algo);
  } else {
    for (const Algorithm* a : auto_candidates(s)) {
      if (!s.algorithms.empty() && !listed(s.algorithms, a->name())) continue;
      if (a->unsupported(comm, call.kind).empty()) candidates.push_back(a->name());
    }
    if (candidates.empty())
      throw InputError({}, s.algorithms.empty() ? "--algo" : s.algo_key,
                       std::string("no algorithm ") + (s.algorithms.empty() ? "" : "of " + s.algo_key + " ") + "can run " +
                           to_string(call.kind) + " on this communicator",
                       s.algorithms.empty() ? "gpufabric list algorithms says which collectives each runs"
                                            : "widen " + s.algo_key + ", or leave it unset to let gpufabric choose");
  }
  std::vector<TunerOption> options;
  size_t count = 0;
  for (const auto& name : candidates) {
    std::vector<Protocol> protos = protocols_for(comm, *find_algorithm(name));
    if (s.protocols.size() > 1) {
      std::vector<Protocol> kept;
      for (Protocol p : protos)
        if (std::find(s.protocols.begin(), s.protocols.end(), p) != s.protocols.end()) kept.push_back(p);
      protos = std::move(kept);
      if (protos.empty()) continue;
    }
    if (forced_proto) {
      if (std::find(protos.begin(), protos.end(), *forced_proto) == protos.end()) {
        if (algo != "auto")
          throw InputError({}, s.proto_key, name + " does not run with protocol " + to_string(*forced_proto),
                           "valid here: " + std::string(to_string(protos.front())) +
                               (protos.size() > 1 ? " ... " + std::string(to_string(protos.back())) : ""));
        continue;
      }
      protos = {*forced_proto};
    }
    count += protos.size();
    options.push_back({name, std::move(protos), channels_for(comm, name, s)});
  }
  if (count == 0)
    throw InputError({}, s.proto_key, "no algorithm runs " + std::string(to_string(call.kind)) + " with protocol " + proto,
                     "use --proto auto, or another protocol");
  return options;
}

TunerChoice choose(const Communicator& comm, const Router& router, const CollectiveCall& call, const NcclSettings& s) {
  const std::vector<TunerOption> options = tuner_options(comm, call, s);
  // One pair: nothing to compare, so nothing to estimate (a forced choice; at 1,152 GB200 GPUs the
  // estimate of an all-to-all is a whole run of 1.3 million transfers).
  if (options.size() == 1 && options.front().protocols.size() == 1) {
    const TunerOption& o = options.front();
    const Protocol p = o.protocols.front();
    return {o.algorithm, p, launch_channels(comm, call, o.algorithm, p, o.channels), Time::zero(), ""};
  }
  AnalyticalModel model(*comm.cluster);
  TunerChoice best;
  bool have = false;
  for (const TunerOption& o : options) {
    const Algorithm* a = find_algorithm(o.algorithm);
    // The protocols of one algorithm run the same transfers between the same ranks: route them once.
    std::optional<RouteCache> routes;
    for (Protocol p : o.protocols) {
      // NCCL's own figure, on NCCL's channel count, wherever NCCL has the algorithm.
      std::optional<Time> estimate = nccl_estimate(comm, call, *a, p, o.channels);
      if (!estimate) {
        // An algorithm NCCL lacks (direct, sendrecv): run its schedule. One channel suffices to
        // compare such candidates with each other: the models split bandwidth evenly over channels.
        Schedule sched = a->build(comm, call, {p, 1});
        if (!routes) routes.emplace(sched, comm, router, 0);
        estimate = run_schedule(sched, comm, router, model, 0, RoutingPolicy::Ecmp, &*routes).duration;
      }
      if (!have || *estimate < best.predicted) {
        best = {o.algorithm, p, o.channels, *estimate, ""};
        have = true;
      }
    }
  }
  if (s.forced_algorithm()) best.predicted = Time::zero();
  best.channels = launch_channels(comm, call, best.algorithm, best.proto, best.channels);
  return best;
}

}  // namespace gf
