// A replayed trace for people (text) and scripts (JSON, fields named in docs/replay.md): the
// simulated iteration time beside the recorded one, compute, and communication per collective
// (recorded and simulated, per rank), with the notes on what was simplified.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "replay/replay.hpp"

namespace gf {

std::string replay_text(const ReplayResult& r, const std::string& cluster);
nlohmann::ordered_json replay_json(const ReplayResult& r, const std::string& cluster);

}  // namespace gf
