// A serving instance for people (text) and scripts (JSON, fields named in docs/inference.md):
// TTFT and TPOT with their breakdowns (the parts of each add up to it), tokens/s, the KV cache
// against the memory left after weights, every collective with its size and time, and the notes
// on what was simulated.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "inference/batching.hpp"
#include "inference/infer_step.hpp"

namespace gf {

std::string infer_text(const InferResult& r, const std::string& cluster);
nlohmann::ordered_json infer_json(const InferResult& r, const std::string& cluster);
// Continuous batching over a request stream (--rate): throughput and latency percentiles.
std::string batching_text(const BatchingResult& b, const BatchingOptions& o);
nlohmann::ordered_json batching_json(const BatchingResult& b, const BatchingOptions& o);

}  // namespace gf
