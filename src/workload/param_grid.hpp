// The points of a parameter sweep: swept keys, each with its list of values, combined as a full
// grid or zipped (lists that advance together), and the settings that are not cluster keys
// (algo, proto, model, routing, seed, NCCL_*) applied to an nccl-tests sweep's options.
// docs/sweeps.md.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "config/cluster_set.hpp"
#include "core/error.hpp"
#include "workload/sweep.hpp"

namespace gf {

struct SweepAxis {
  std::string key;                  // a cluster key path (servers, fabric.link) or a run key (algo)
  std::vector<std::string> values;  // YAML scalar text, in the order given
  SourceLocation where;             // where the axis was written ({"--set"}, or file:line)
};

// The most points one sweep runs: each is a whole nccl-tests sweep (docs/limits.md's reasoning
// for kMaxSweepRows applies per point).
constexpr size_t kMaxSweepPoints = 10000;

// Axes in a group advance together (zip: equal lengths); groups combine as a full grid, the first
// group varying slowest, like loops nested in the order written.
class ParamGrid {
 public:
  ParamGrid() = default;
  // Each axis its own group: every combination.
  static ParamGrid full(std::vector<SweepAxis> axes);
  // One group: the i-th values of every axis together; lists of unequal length are an InputError.
  static ParamGrid zipped(std::vector<SweepAxis> axes);
  // `grid` axes each their own group, then the `zip` axes as one group (a sweep file's two maps).
  static ParamGrid combined(std::vector<SweepAxis> grid, std::vector<SweepAxis> zip);

  const std::vector<SweepAxis>& axes() const { return axes_; }  // column order
  size_t size() const;  // points (1 with no axes)
  // Point `i`'s value of each axis, in axes() order.
  std::vector<std::string> values(size_t point) const;

 private:
  void check() const;
  std::vector<SweepAxis> axes_;
  std::vector<size_t> group_;  // per axis, its group
  std::vector<size_t> group_len_;
};

// Keys that set the run rather than the cluster: algo, proto, model, routing, seed and any
// NCCL_* variable.
bool is_run_key(const std::string& key);
const std::vector<std::string>& run_keys();
// Applies one run key to `o`, checked as the perf command checks its flag (an InputError at
// `s.where` naming the key). NCCL_* settings apply after the process's and --env's.
void apply_run_setting(SweepOptions& o, const KeySetting& s);

}  // namespace gf
