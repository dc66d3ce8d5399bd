// `gpufabric perf --fail SPEC --degrade SPEC=FRACTION`: the flags, the report of transfers a
// failure leaves without a route, and the failed run beside its baseline (docs/failures.md).
#pragma once

#include <CLI/CLI.hpp>
#include <gpufabric/gpufabric.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace gfcli {

struct FaultArgs {
  std::vector<std::string> fail, degrade;
  std::string on_failure = "abort";  // --nccl-on-failure
  std::string reconverge;            // --reconverge: the fabric's rerouting time, when known
  bool no_baseline = false;          // --no-baseline: skip the healthy run (and so the comparison)
  bool without_failed = false;       // --without-failed-servers: the job runs on the servers left
  void add(CLI::App* sub);
  bool any() const { return !fail.empty() || !degrade.empty(); }
  // Parsed and checked before the cluster is built: --fail first, then --degrade, each in order.
  std::vector<gf::FaultRequest> requests() const;
  // How the fabric and NCCL respond (workload/failure_timeline.hpp); checked with the requests.
  gf::FailureResponse response(gf::RoutingPolicy routing) const;
};

// Per failed component: its stall, abort or continue timeline, as `#` lines.
std::string timeline_text(const gf::Simulation& sim, const gf::FailureResponse& r);
nlohmann::ordered_json timeline_json(const gf::Simulation& sim, const gf::FailureResponse& r);

// `# failure:` lines, one per component, saying what was done to it.
std::vector<std::string> fault_lines(const gf::Simulation& sim);
// Which ranks' transfers cannot complete when `lost` (GPU indices) are cut off from rank 0.
std::string unreachable_report(const gf::Simulation& sim, const gf::Communicator& comm,
                               const std::vector<int64_t>& lost);
// The servers a --fail took down (`--fail server3`), in order; the job leaves them out under
// --without-failed-servers.
std::vector<int64_t> failed_servers(const gf::Simulation& sim);
// Per size: time with the failure, baseline, slowdown, as `#` lines under the table.
std::string comparison_text(const std::vector<gf::SweepRow>& failed, const std::vector<gf::SweepRow>& base);
// The links whose busy time grew most at the largest size, failed beside baseline.
std::string cost_links_text(gf::Bytes size, const std::vector<gf::LinkCost>& links);
// The same in the JSON report: "failures", per result "baseline_time_us" and "baseline_bus_bw",
// and "links": the links that carried the cost at the largest size (as cost_links_text), with
// their busy time failed and baseline. Without a baseline (--no-baseline): "failures" only.
void add_comparison_json(nlohmann::ordered_json& j, const gf::Simulation& sim, const std::vector<gf::SweepRow>& base,
                         const std::vector<gf::LinkCost>& links);

}  // namespace gfcli
