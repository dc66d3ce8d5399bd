// A parameter sweep's one tidy table: a row per (point, size), a column per swept key first, then
// what the nccl-tests table has per size. Text (aligned), CSV (full precision) and JSON (a list of
// row objects, ready for a data frame). The same results give the same bytes however they ran.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "workload/param_result.hpp"

namespace gf {

struct ParamSweepTable {
  std::string title;                             // "perf all_reduce on dgx-h100, flow model"
  std::vector<std::string> keys;                 // swept keys, in column order
  std::vector<std::vector<std::string>> values;  // per point, one per key
  std::vector<ParamPointResult> results;         // per point, every one ran
};

std::string param_sweep_text(const ParamSweepTable& t);
std::string param_sweep_csv(const ParamSweepTable& t);
nlohmann::ordered_json param_sweep_json(const ParamSweepTable& t);

}  // namespace gf
