// `gpufabric doctor`: rules that look at a cluster for the bottlenecks the seeds list (PCIe
// contention and NIC placement, unbalanced NVLink, oversubscribed tiers, RDMA falling back to
// TCP, ECMP collisions, too little NIC bandwidth per GPU) and, for each finding that can be
// modelled, the busbw a model predicts before and after the fix.
//
// A rule is a function from the cluster to findings; it may not run models itself (run_doctor
// does, once per Comparison, so every prediction uses the same model, size and routing).
// Rules are listed in two registries, one for what is inside a server and one for the fabric.
#pragma once

#include <string>
#include <vector>

#include "doctor/finding.hpp"
#include "routing/router.hpp"
#include "topology/cluster.hpp"
#include "topology/cluster_spec.hpp"

namespace gf {

struct ScenarioSpec;

struct DoctorContext {
  const ClusterSpec& spec;
  const Cluster& cluster;  // built from spec
  const Router& router;
  const ScenarioSpec* scenario = nullptr;  // the jobs' layout, when the doctor was given a scenario
};

struct DoctorRule {
  const char* name;         // "nic-affinity": lower case, dashes
  const char* description;  // one line, for `gpufabric list rules` and --help
  const char* source;       // why this matters: the seed document or vendor guide
  std::vector<Finding> (*check)(const DoctorContext&);
};

// Inside a server: PCIe sharing and NIC placement, NVLink balance, GPU peer-to-peer, NIC count.
const std::vector<DoctorRule>& server_rules();
// Across servers: oversubscription, TCP fallback, ECMP collisions.
const std::vector<DoctorRule>& fabric_rules();
// Both, server rules first.
std::vector<DoctorRule> doctor_rules();

struct DoctorOptions {
  std::string model = "flow";      // the model predictions use
  Bytes size = Bytes::gib(1);       // message size of the predicted collective
  std::vector<std::string> rules;  // only these (empty = all); unknown names are an InputError
  // A scenario whose cluster this is: the rules about jobs (sharp-trees) look at its layout.
  const ScenarioSpec* scenario = nullptr;
};

struct DoctorReport {
  std::string cluster;             // its name
  std::vector<Finding> findings;   // in rule order, then as each rule lists them
  std::vector<std::string> notes;  // what was assumed (e.g. an imported file's defaults)
};

DoctorReport run_doctor(const ClusterSpec& spec, const DoctorOptions& opt = {});

}  // namespace gf
