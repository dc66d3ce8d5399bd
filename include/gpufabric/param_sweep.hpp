// Parameter sweeps through the library: an nccl-tests sweep run at every point of a grid of
// cluster keys (servers, fabric.oversubscription, fabric.link, ...) and run keys (algo, proto,
// model, routing, seed, NCCL_*), on several threads. The command line's `perf --set` and
// `gpufabric sweep`, and the bindings, call this. docs/sweeps.md.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "config/cluster_set.hpp"
#include "config/presets.hpp"
#include "report/param_sweep_report.hpp"
#include "workload/param_grid.hpp"
#include "workload/param_result.hpp"
#include "workload/sweep.hpp"

namespace gf {

struct ParamSweepRequest {
  std::string cluster;        // as Simulation::load takes it: preset, server name or file
  ClusterOverrides over;      // --nodes / --fabric / --fabric-link, applied after the swept keys
  int64_t gpus_per_node = 0;  // ranks per server (0: every GPU)
  SweepOptions options;       // the nccl-tests sweep, checked (its callbacks are not used)
  ParamGrid grid;
};

// One plain row per (point, size), for callers that want data rather than text.
struct ParamSweepRow {
  std::vector<std::string> values;  // the point's value of each swept key
  int64_t nranks = 0;
  SweepRow row;
};

class ParamSweep {
 public:
  // Checks every point before any runs: each point's cluster is read through the cluster YAML
  // reader with its keys set, and its run keys are checked. Throws InputError at the key.
  explicit ParamSweep(ParamSweepRequest request);

  size_t size() const { return points_.size(); }
  const ParamGrid& grid() const { return request_.grid; }
  // Points, most costly first (estimated: links x sizes x the model's weight), ties in grid order:
  // the order workers take them, so a long point does not start last.
  const std::vector<size_t>& order() const { return order_; }

  // One point, on the calling thread. Shares nothing with other points (own cluster, router, model).
  ParamPointResult run_point(size_t point) const;
  // The points in `which` (every point when empty) on `threads` threads, each taking the next
  // point of order() from a shared counter; results indexed by point, ran == false for the others.
  // After a point fails no new point starts, and the failure is returned in `error`.
  // `progress`, for a progress line, is called after each point with (points done, points to do,
  // the point just done: its rows, empty when it failed), one call at a time.
  std::vector<ParamPointResult> run(int threads, const std::vector<size_t>& which = {},
                                    std::optional<ParamPointError>* error = nullptr,
                                    const std::function<void(size_t, size_t, const ParamPointResult&)>& progress = {}) const;

  // A title for the table ("perf all_reduce on dgx-h100, flow model").
  std::string title() const;
  ParamSweepTable table(std::vector<ParamPointResult> results) const;

 private:
  struct Point {
    ClusterSpec spec;
    SweepOptions options;
    double cost = 0;
  };
  ParamSweepRequest request_;
  std::vector<Point> points_;
  std::vector<size_t> order_;
};

// Runs every point on `threads` threads and returns the rows in grid order; throws the first
// failure (in grid order of the points that ran) as InputError.
std::vector<ParamSweepRow> run_param_sweep(const ParamSweepRequest& request, int threads = 1);

// Rethrows a point's failure as the exception it was.
[[noreturn]] void throw_point_error(const ParamPointError& e);

}  // namespace gf
