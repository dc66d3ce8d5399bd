// A scenario's results for people (text) and scripts (JSON): per job and call the time over
// repetitions (mean, min, max), algbw and nccl-tests busbw, the algorithm the tuner chose; then
// the most loaded links with both end nodes (named as `gpufabric topo` names them), technology,
// wire bytes carried and utilisation = bytes / (catalog bandwidth x makespan); last, the model's own
// counters when it keeps any (the packet model's drops, pause frames, ECN marks, retransmissions).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "workload/scenario.hpp"

namespace gf {

std::string scenario_text(const ScenarioResult& r);
nlohmann::json scenario_json(const ScenarioResult& r);

}  // namespace gf
