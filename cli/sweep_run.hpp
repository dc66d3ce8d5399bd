// `perf --set KEY=V1,V2` and `gpufabric sweep SPEC.yaml`: the nccl-tests sweep at every point of a
// grid, on -j threads and MPI ranks, printed as one tidy table (docs/sweeps.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <gpufabric/param_sweep.hpp>

#include "cluster_args.hpp"

namespace gfcli {

struct SweepArgs {
  std::vector<std::string> sets;  // --set KEY=V1,V2,...
  bool zip = false;               // --zip: the --set lists advance together
  int64_t jobs = 1;               // -j
  // From a sweep file: its grid: and zip: maps, with their lines.
  std::vector<gf::SweepAxis> file_grid, file_zip;
  bool from_file = false;

  void add(CLI::App* sub);
  bool active() const { return from_file || !sets.empty(); }
};

// Runs the sweep and prints it in `format` (text, json, csv); rank 0 prints, other ranks nothing.
int run_param_perf(const SweepArgs& a, const ClusterArgs& where, int64_t gpus_per_node, const gf::SweepOptions& base,
                   const std::string& format);

}  // namespace gfcli
