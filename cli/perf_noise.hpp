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
// With --fail/--degrade: the link that carried the failure's cost (the first of perf's cost links)
// and the healthy run's rows, so that each size can say how often that link, not a late rank,
// held the call up (gf::iterations_held_by_link). Empty `name`: no link to name.
struct LinkHolder {
  std::string name;  // "server0/nic3 -> leaf3"
  const std::vector<gf::SweepRow>* base = nullptr;
  int held(const std::vector<gf::SweepRow>& rows, size_t i) const;
};

// Per size: the clean time, mean, p50, p99, max, the rank that started last most often, and what
// held the call up most often: that rank, or the failed link when it cost more.
std::string iterations_text(const gf::Communicator& comm, const gf::NoiseOptions& n,
                            const std::vector<gf::SweepRow>& rows, const LinkHolder& link = {});
// The same in the JSON report: "noise" and, per result, "iterations" (with "held_by_link").
void add_iterations_json(nlohmann::ordered_json& j, const gf::Communicator& comm, const gf::NoiseOptions& n,
                         const std::vector<gf::SweepRow>& rows, const LinkHolder& link = {});

}  // namespace gfcli
