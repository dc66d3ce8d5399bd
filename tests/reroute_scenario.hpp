// Shared fixture of the whole-scenario reroute tests: host 0 (leaf0) broadcasts 256 KiB to host 3
// (leaf1) on one channel of examples/leafspine-3spines-hosts.yaml (k = 3 spines), eight 32 KiB steps
// in a chain, each waiting for the one before (as examples/failure-reroute.yaml).
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "workload/scenario.hpp"
#include "workload/scenario_yaml.hpp"

namespace gf::reroute_fixture {

inline std::string scenario(const std::string& events) {
  return "cluster: " + std::string(GPUFABRIC_SOURCE_DIR) +
         "/examples/leafspine-3spines-hosts.yaml"
         "\njobs:\n  - {name: a, gpus: [0, 3], env: {NCCL_MAX_NCHANNELS: 1}, calls: [{collective: broadcast, size: "
         "256K, root: 0, algo: ring, proto: simple}]}\nevents:\n" +
         events;
}

inline ScenarioResult run_text(const std::string& text) {
  return run_scenario(parse_scenario_yaml(text, "reroute.yaml"));
}

// NCCL's ACK timeout at its default NCCL_IB_TIMEOUT = 20: 4.096 us x 2^20 (workload/failure_timeline.hpp).
inline const Time kAck = Time::ps(4096000) * (int64_t{1} << 20);

// The spine whose leaf0 link the channel's ECMP route crosses: the one whose loss stalls the job.
inline int crossed_spine() {
  for (int s = 0; s < 3; ++s) {
    ScenarioResult r = run_text(scenario("  - {at: 5us, down: leaf0-spine" + std::to_string(s) + "}\n"));
    if (r.jobs[0].outcome->kind != JobEventOutcome::Kind::Unaffected) return s;
  }
  ADD_FAILURE() << "no spine link stalls the job";
  return 0;
}

}  // namespace gf::reroute_fixture
