// Accuracy against real clusters: each measured nccl-tests table (../shared/validation/measured/)
// is predicted on a cluster file describing the machine it ran on, with the same collective,
// element type, rank layout and forced algorithm/protocol, and the two are compared size by size.
//
// The manifest (validation/datasets.yaml) says, per table: the file and the title of the table in
// it, the cluster file, nodes x GPUs per node, the algorithm/protocol forced (NCCL_ALGO/PROTO),
// and which rows are documented outliers. It also lists the model constants fitted to measured
// data and the sets they were fitted to, so a report can call the other sets held out.
//
// Error conventions (docs/accuracy.md repeats them):
//  - measured busbw = size / time(out-of-place) x nccl-tests' factor for the data set's rank count
//    (the printed busbw, without its rounding to 0.01 GB/s; a scaling summary gives busbw only);
//  - error % = (predicted busbw / measured busbw - 1) x 100, so + means the model is optimistic;
//    for one size it equals (measured time / predicted time - 1) x 100;
//  - the busbw target counts sizes >= 64 KiB that are neither skipped nor failed: median and max
//    of |error %|; the median of an even count is the mean of the middle two;
//  - the latency floor is the smallest size's time when that size is <= 4 KiB:
//    error % = (predicted time / measured time - 1) x 100.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "collective/collective.hpp"
#include "accuracy/measured_table.hpp"
#include "routing/routing_policy.hpp"
#include "workload/sweep.hpp"

namespace gf {

constexpr int64_t kBusbwMinSize = 64 * 1024;  // issue target: busbw error counted from 64 KiB
constexpr int64_t kFloorMaxSize = 4096;       // a table's smallest size is a latency floor up to here
constexpr double kBusbwTargetPct = 15.0;      // median |busbw error| per data set
constexpr double kFloorTargetPct = 25.0;      // |latency-floor error|
// The mid sizes, 64 KiB .. 1 MiB, are also reported on their own (issue 19): the large sizes of a
// set can meet the target while its latency- and pipeline-bound mid sizes do not.
constexpr int64_t kMidMaxSize = 1024 * 1024;

struct SkipRow {
  int64_t size = 0;
  std::string reason;
};

// One table of a measured file, as the manifest describes it.
struct DatasetSpec {
  std::string name;
  std::string file;           // file name inside the measured folder
  std::string title;          // words of the table's title comment ("" = the file's only table)
  std::string cluster;        // cluster file, as written in the manifest
  std::string measured_path;  // resolved paths
  std::string cluster_path;
  CollectiveKind collective = CollectiveKind::AllReduce;
  TableLayout layout = TableLayout::NcclTests;
  int64_t size = 0;           // scaling summaries: the size the prose figures stand for
  int nodes = 1, gpus_per_node = 1;
  // GPUs one nccl-tests thread drives (-g); > 1 adds (g-1) serial kernel launches to every call
  // (kSingleThreadLaunchPerGpuUs, collective/nccl_constants.hpp).
  int gpus_per_thread = 1;
  std::string algo = "auto", proto = "auto";
  // NCCL_* variables the run set (`env:`), as `perf --env` takes them; those that act where the
  // cluster is loaded (NCCL_IB_QPS_PER_CONNECTION, NCCL_P2P_LEVEL, ...) change this set's cluster
  // only. algo / proto above win over NCCL_ALGO / NCCL_PROTO.
  NcclSettings nccl;
  std::vector<SkipRow> skip;
  std::string note;
  std::vector<std::string> fitted;  // constants fitted to this set (from the manifest's calibration)
};

struct Calibration {
  std::string constant, where, note;
  std::vector<std::string> fitted_to;  // data set names
};

struct ValidationManifest {
  std::string path;
  std::string measured_dir;  // resolved
  std::vector<Calibration> calibration;
  std::vector<DatasetSpec> datasets;
};

// Reads validation/datasets.yaml. Paths inside are relative to its folder; `measured_dir`, when
// not empty, replaces the manifest's (a file entry with its own `dir:` keeps that folder). Throws InputError (file:line:key) for unknown keys, unknown
// collectives, duplicate names and calibration entries naming no data set.
ValidationManifest load_manifest(const std::string& path, const std::string& measured_dir = "");
ValidationManifest parse_manifest(const std::string& text, const std::string& path, const std::string& measured_dir = "");

struct ComparedRow {
  int64_t size = 0;
  int line = 0;              // in the measured file
  std::string label;         // scaling summaries: "4 GPUs nvls"
  int nranks = 0;
  double measured_us = 0, measured_busbw = 0;
  double predicted_us = 0, predicted_busbw = 0;
  double error_pct = 0;      // busbw, see the conventions above
  std::string algorithm;     // the tuner's choice
  std::string protocol;
  int channels = 0;
  std::string skipped;       // why the row is not compared ("" = compared)
  std::string failed;        // why it could not be predicted ("" = predicted)
  bool compared() const { return skipped.empty() && failed.empty(); }
};

struct ErrorSummary {
  int counted = 0;                    // rows in the statistic
  std::optional<double> median_abs_pct, max_abs_pct;
  int64_t max_at_size = 0;            // where the max is (first such row)
  std::string max_at_label;
};

struct LatencyFloor {
  int64_t size = 0;
  double measured_us = 0, predicted_us = 0;
  double error_pct = 0;
};

struct ValidationResult {
  DatasetSpec dataset;
  std::string cluster_name;
  int nranks = 0;                     // 0 for a scaling summary (per row)
  std::vector<ComparedRow> rows;
  ErrorSummary busbw;                 // sizes >= kBusbwMinSize
  ErrorSummary mid;                   // sizes kBusbwMinSize .. kMidMaxSize
  std::optional<LatencyFloor> floor;
  std::vector<std::string> warnings;  // e.g. printed busbw/algbw disagreeing with the rank count
  std::string error;                  // set when nothing could be predicted
  bool held_out() const { return dataset.fitted.empty(); }
  std::optional<bool> busbw_ok() const;  // nullopt when no row counts
  std::optional<bool> floor_ok() const;
};

// Median of the values (mean of the middle two for an even count); nullopt when empty.
std::optional<double> median(std::vector<double> v);
// Statistics of |error %| over rows that are compared and `min_size` .. `max_size` bytes.
ErrorSummary summarize_errors(const std::vector<ComparedRow>& rows, int64_t min_size = kBusbwMinSize,
                              int64_t max_size = INT64_MAX);
// The smallest compared size when it is at most kFloorMaxSize.
std::optional<LatencyFloor> latency_floor(const std::vector<ComparedRow>& rows);
// Measured busbw (GB/s) of a row for `nranks` ranks: from size and out-of-place time, else the
// printed figure (scaling summaries carry no time).
double measured_busbw(const MeasuredRow& m, CollectiveKind kind, int nranks);
// A measured row beside its prediction (the arithmetic of the conventions above).
ComparedRow compare_row(const MeasuredRow& m, CollectiveKind kind, int nranks, const SweepRow& predicted);

// Builds the data set's cluster, predicts every row with `model` and compares. Problems with one
// row (a forced algorithm that cannot run) are recorded in that row; a missing file or cluster
// throws InputError.
ValidationResult validate(const DatasetSpec& d, const std::string& model = "flow",  // default_model_name()
                          RoutingPolicy routing = RoutingPolicy::Ecmp);

}  // namespace gf
