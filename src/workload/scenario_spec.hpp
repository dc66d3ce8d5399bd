// A scenario as written in its YAML file (docs/scenarios.md): a cluster, the model and routing
// policy, and jobs (which GPUs, which collective calls, when, how often). Names (collective,
// datatype, algorithm, model, routing policy) stay strings here and are checked against the
// registries by workload/scenario, which builds the cluster; every field keeps where it was
// written so those checks, too, name file:line and the key.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "nccl/nccl_env.hpp"

#include "core/error.hpp"
#include "core/units.hpp"
#include "model/packet/packet_params.hpp"

namespace gf {

// Where each key of one YAML block was written, and the block's dotted path ("jobs[0].calls[1]").
struct KeyPlaces {
  std::string path;
  SourceLocation block;
  std::map<std::string, SourceLocation> keys;
  SourceLocation at(const std::string& key) const {
    auto it = keys.find(key);
    return it == keys.end() ? block : it->second;
  }
  std::string key(const std::string& k) const { return path.empty() ? k : path + "." + k; }
  [[noreturn]] void fail(const std::string& k, const std::string& message, const std::string& hint = {}) const {
    throw InputError(at(k), key(k), message, hint);
  }
};

struct CallSpec {
  std::string collective;         // nccl-tests name: all_reduce, all_gather, alltoall, ...
  Bytes size;                     // nccl-tests size (per-rank buffer, as `gpufabric perf -b`)
  std::string dtype = "float";
  std::string op = "sum";
  int64_t root = 0;
  std::string algo = "auto";      // like NCCL_ALGO
  std::string proto = "auto";     // like NCCL_PROTO
  Time gap = Time::zero();        // idle time after this call
  KeyPlaces places;
};

struct JobSpec {
  std::string name;
  // Either servers (+ the GPU positions used on each) or global GPU indices, resolved against the
  // cluster by workload/scenario.
  std::vector<int64_t> servers;
  std::optional<int64_t> gpus_per_server;  // first G positions of each server; default all
  std::vector<int64_t> gpus;               // global GPU indices (instead of servers)
  Time start = Time::zero();
  int64_t repeat = 1;
  // The packet model's traffic class for all the job's traffic (as NCCL_IB_TC / NCCL_IB_SL set one
  // per process), below packet.traffic_classes; the other models ignore it.
  int64_t traffic_class = 0;
  // The job's `env:` map: NCCL_* variables with the meaning they have in the environment of a real
  // run (nccl/nccl_env.hpp), applied over NCCL's defaults; a call's algo / proto win over them.
  NcclSettings nccl;
  std::vector<CallSpec> calls;
  KeyPlaces places;
};

// One entry of the scenario's `events:` list (docs/scenarios.md, docs/failures.md): at a time, a
// component goes down, comes back up, or is degraded to a fraction of its bandwidth or, for a
// GPU, of its compute speed. The component is named as `topo` names it; workload/scenario_events
// resolves it against the cluster.
struct EventSpec {
  enum class Kind { Down, Up, Degrade };
  Time at;
  Kind kind = Kind::Down;
  std::string component;
  std::optional<double> bandwidth;  // degrade: fraction of the link's bandwidth kept, (0, 1]
  std::optional<double> compute;    // degrade of a GPU: fraction of its speed kept, (0, 1]
  // degrade with a packet loss rate in (0, 1): the link runs at go-back-N's fraction of its
  // bandwidth over a `rtt` round trip (topology/faults.hpp loss_efficiency), as `perf --degrade
  // X=loss:P[,rtt=R]` prices it.
  std::optional<double> loss;
  Time loss_rtt = Time::us(10);
  KeyPlaces places;
};

struct ScenarioSpec {
  std::string file;
  std::string name, description;
  std::string cluster;               // preset, server or cluster file (already made relative to `file`'s folder)
  std::optional<int64_t> nodes;      // as --nodes
  std::string model = "flow";        // analytical | flow | packet
  std::string routing = "ecmp";      // ecmp | spray | adaptive
  uint64_t seed = 0;
  bool share_gpus = false;           // may two jobs use one GPU (at once)?
  PacketParams packet;               // the `packet:` block (model: packet only), validated
  std::vector<JobSpec> jobs;
  std::vector<EventSpec> events;         // time-varying state during the run
  std::string nccl_on_failure = "abort";  // abort | resilient (workload/failure_timeline.hpp)
  KeyPlaces places;
};

}  // namespace gf
