// What one point of a parameter sweep produced, and its exact text form: the rows travel between
// MPI ranks as this text (doubles in round-trip form), so the writer on rank 0 prints the same
// bytes as a run in one process.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "workload/sweep.hpp"

namespace gf {

struct ParamPointResult {
  bool ran = false;  // false: another rank ran it, or the sweep stopped before it
  int64_t nranks = 0, nnodes = 0, ppn = 0;
  std::vector<SweepRow> rows;
};

// A point's failure, kept to be reported as the one-process run would report it.
struct ParamPointError {
  size_t point = 0;
  SourceLocation where;
  std::string key, message, hint;
  bool input = true;  // false: not an InputError (an internal error), reported as such
};

// Results of the points that ran (ran == true), with the first error if any, as one text.
std::string encode_param_results(const std::vector<ParamPointResult>& results, const std::optional<ParamPointError>& error);
// Merges an encode_param_results() text into `results` (sized to every point); returns its error.
std::optional<ParamPointError> decode_param_results(const std::string& text, std::vector<ParamPointResult>& results);

}  // namespace gf
