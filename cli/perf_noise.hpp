// `gpufabric perf -n ITERS --straggler GPU=+DELAY --jitter lognormal:median=M,sigma=S --seed S`:
// the flags, and each size's spread over iterations under the table (docs/failures.md).
#pragma once

#include <CLI/CLI.hpp>
#include <gpufabric/gpufabric.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace gfcli {

struct NoiseArgs {
  std::vector<std::string> stragglers;
  std::string jitter;
  void add(CLI::App* sub);
  bool any() const { return !stragglers.empty() || !jitter.empty(); }
  // Parsed and checked before the cluster is built; `iterations` is perf's -n.
  gf::NoiseOptions options(int64_t iterations, uint64_t seed) const;
};

// A `#` line saying what delays the iterations ran with.
std::string noise_line(const gf::NoiseOptions& n);
// Per size: the clean time, mean, p50, p99, max, and the rank that held it up most often.
std::string iterations_text(const gf::Communicator& comm, const gf::NoiseOptions& n,
                            const std::vector<gf::SweepRow>& rows);
// The same in the JSON report: "noise" and, per result, "iterations".
void add_iterations_json(nlohmann::ordered_json& j, const gf::Communicator& comm, const gf::NoiseOptions& n,
                         const std::vector<gf::SweepRow>& rows);

}  // namespace gfcli
