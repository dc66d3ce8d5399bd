// Scenario files: YAML in, ScenarioSpec out (schema in docs/scenarios.md). Checks here are what
// the file alone can tell: unknown keys (with "did you mean"), types, units, ranges, a job with
// no calls, a start time in the past. Checks that need the cluster (GPUs that exist, jobs
// overlapping on a GPU, known collectives and algorithms) are made by workload/scenario.
#pragma once

#include <string>

#include "workload/scenario_spec.hpp"

namespace gf {

// `file` names the source in messages; a relative `cluster:` path is taken relative to `base_dir`
// (the scenario file's folder) when such a file exists.
ScenarioSpec parse_scenario_yaml(const std::string& text, const std::string& file, const std::string& base_dir = {});
ScenarioSpec load_scenario_file(const std::string& path);
// Whether `path` is a readable YAML file whose top level has `jobs:` (a scenario, not a cluster).
bool is_scenario_file(const std::string& path);

}  // namespace gf
