// The choice is made the way NCCL makes it — estimate every enabled (algorithm, protocol) and
// take the fastest — with one of two estimates:
//  - small communicators: gpufabric's own analytical run of each candidate's schedule on this
//    cluster (one channel), so topology (PCIe vs NVLink, NICs per GPU, SHARP) enters through the
//    same routes the models use; docs/accuracy.md was produced this way.
//  - large ones, where some candidate's step-by-step schedule would exceed kStepScheduleBudget
//    transfers (collective/steady_state.hpp): NCCL's own closed form (nccl_estimate.hpp:
//    NCCL's latencies, bandwidths from the communicator's topology) for every candidate that has
//    one, so all candidates are compared on the same footing; building and running each
//    candidate there is what made `--algo auto` take seconds at 1,024 GPUs. A candidate NCCL lacks
//    (pat, direct, ...) is still costed by running its schedule.
// Candidates follow NCCL's defaults (tuning.cc): NVLS only with Simple; LL128 only on NVLink
// systems (NCCL enables it where the intra-node path is NVLink); CollNet and NVLS only where the
// hardware reduces.
#include "nccl/tuner.hpp"

#include <algorithm>
#include <numeric>
#include <optional>
#include <stdexcept>

#include "core/error.hpp"
#include "core/text.hpp"
#include "collective/steady_state.hpp"
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

TunerChoice choose(const Communicator& comm, const Router& router, const CollectiveCall& call, const NcclSettings& s) {
  std::optional<Protocol> forced_proto;
  if (s.protocols.size() == 1) forced_proto = s.protocols.front();
  const std::string algo = s.forced_algorithm() ? s.algorithms.front() : "auto";
  const std::string proto = forced_proto ? ascii_lower(to_string(*forced_proto)) : "auto";
  std::vector<std::string> candidates;
  TunerChoice best;
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
  // One channel, as the schedules below are built.
  bool closed_form = false;
  for (const auto& name : candidates)
    closed_form = closed_form || find_algorithm(name)->step_transfers(comm, call, 1) > kStepScheduleBudget;
  // The (algorithm, protocol) pairs to choose from.
  std::vector<std::pair<std::string, std::vector<Protocol>>> options;
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
    options.emplace_back(name, std::move(protos));
  }
  if (count == 0)
    throw InputError({}, s.proto_key, "no algorithm runs " + std::string(to_string(call.kind)) + " with protocol " + proto,
                     "use --proto auto, or another protocol");
  // One pair: nothing to compare, so nothing to estimate (a forced choice; at 1,152 GB200 GPUs the
  // estimate of an all-to-all is a whole run of 1.3 million transfers).
  if (count == 1) {
    const auto& [name, protos] = options.front();
    return {name, protos.front(), channels_for(comm, name, s), Time::zero(), ""};
  }
  AnalyticalModel model(*comm.cluster);
  bool have = false;
  for (const auto& [name, protos] : options) {
    const Algorithm* a = find_algorithm(name);
    const int channels = channels_for(comm, name, s);
    // The protocols of one algorithm run the same transfers between the same ranks: route them once.
    std::optional<RouteCache> routes;
    for (Protocol p : protos) {
      std::optional<Time> estimate;
      if (closed_form) estimate = nccl_estimate(comm, call, *a, p, channels);
      if (!estimate) {
        // One channel suffices to compare: the models split bandwidth evenly over channels.
        Schedule s = a->build(comm, call, {p, 1});
        if (!routes) routes.emplace(s, comm, router, 0);
        estimate = run_schedule(s, comm, router, model, 0, RoutingPolicy::Ecmp, &*routes).duration;
      }
      const Time t = *estimate;
      if (!have || t < best.predicted) {
        best = {name, p, channels, t, ""};
        have = true;
      }
    }
  }
  if (algo != "auto") best.predicted = Time::zero();
  return best;
}

}  // namespace gf
