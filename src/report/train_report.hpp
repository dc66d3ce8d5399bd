// A training step for people (text) and scripts (JSON, fields named in docs/training.md): step
// time, tokens/s, MFU and HFU with the FLOP formula, the breakdown of the critical pipeline stage
// (its parts add up to the step time), communication per parallelism (total and exposed), memory
// per GPU, days to train, and the notes on what was simulated and what replicated.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "training/train_step.hpp"

namespace gf {

// "TP 8 x PP 2 x DP 2; micro-batch 1, ...": the layout as the text report's "# layout:" line says it.
std::string train_layout_text(const TrainLayout& l);

std::string train_text(const TrainResult& r, const std::string& cluster);
nlohmann::ordered_json train_json(const TrainResult& r, const std::string& cluster);

}  // namespace gf
