// One thing `gpufabric doctor` found: what, how bad, the evidence, the fix, and (where the fix can
// be modelled) the cluster as it is and as fixed, which the doctor runs through a model so the
// cost is a prediction, not a rule of thumb.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "collective/collective.hpp"
#include "routing/routing_policy.hpp"
#include "topology/cluster_spec.hpp"

namespace gf {

enum class Severity : uint8_t { Info, Warning, Critical };
const char* to_string(Severity s);

// Before/after for the prediction: usually `before` is the cluster under test and `after` the same
// with one thing changed (a NIC moved under the GPU's switch, the spine at 1:1, adaptive routing).
// A rule about scale-out on a one-server file may use more servers for both.
struct Comparison {
  ClusterSpec before;
  ClusterSpec after;
  RoutingPolicy before_routing = RoutingPolicy::Ecmp;
  RoutingPolicy after_routing = RoutingPolicy::Ecmp;
  CollectiveKind collective = CollectiveKind::AllReduce;  // the traffic that shows the cost
  std::string after_what;                                 // "nic0 moved under pcie0"
  // NCCL_COLLNET_ENABLE for each side (default off, as NCCL's): a job with and without SHARP.
  bool before_collnet = false, after_collnet = false;
};

// What the model predicts for a Comparison, filled in by run_doctor.
struct Prediction {
  std::string collective;  // "all_reduce"
  Bytes size;              // per call
  int ranks = 0;
  double busbw_before_gBps = 0;
  double busbw_after_gBps = 0;
};

struct Finding {
  std::string rule;                    // the rule's registry name ("nic-affinity")
  Severity severity = Severity::Warning;
  std::string summary;                 // one line a reader understands alone
  std::vector<std::string> evidence;   // which GPUs, NICs, links, with the figures
  std::string fix;                     // what to change
  std::optional<Comparison> compare;   // when the fix can be modelled
  std::optional<Prediction> predicted; // run_doctor's answer for `compare`
};

}  // namespace gf
