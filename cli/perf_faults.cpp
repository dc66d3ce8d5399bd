#include "perf_faults.hpp"

#include <fmt/format.h>

namespace gfcli {

void FaultArgs::add(CLI::App* sub) {
  sub->add_option("--fail", fail,
                  "A component down before the run, named as topo names it (repeatable): server1/nic3, leaf0, "
                  "leaf0-spine1 (every parallel cable), leaf0-spine1#2 (one cable)");
  sub->add_option("--degrade", degrade,
                  "A component at a fraction of its bandwidth, SPEC=FRACTION (repeatable), e.g. server1/nic3=0.5");
}

std::vector<gf::FaultRequest> FaultArgs::requests() const {
  std::vector<gf::FaultRequest> out;
  for (const auto& f : fail) out.push_back(gf::parse_fault("--fail", f));
  for (const auto& d : degrade) out.push_back(gf::parse_fault("--degrade", d));
  return out;
}

std::vector<std::string> fault_lines(const gf::Simulation& sim) {
  std::vector<std::string> out;
  for (const auto& f : sim.faults()) out.push_back("failure: " + f.component + ": " + f.effect);
  return out;
}

std::string unreachable_report(const gf::Simulation& sim, const gf::Communicator& comm,
                               const std::vector<int64_t>& lost) {
  const gf::Cluster& c = sim.cluster();
  std::string out;
  for (const auto& l : fault_lines(sim)) out += "# " + l + "\n";
  out += fmt::format("# no route remains from rank 0 ({}) to {} of {} ranks:\n", c.node_name(comm.gpu.front()),
                     lost.size(), comm.nranks);
  // One line per server, its lost GPUs as a range when they are consecutive.
  for (size_t i = 0; i < lost.size();) {
    size_t j = i;
    const int64_t server = lost[i] / c.gpus_per_server();
    while (j + 1 < lost.size() && lost[j + 1] == lost[j] + 1 && lost[j + 1] / c.gpus_per_server() == server) ++j;
    out += fmt::format("#   server{}: gpu{}{}\n", server, lost[i], j > i ? fmt::format("-gpu{}", lost[j]) : "");
    i = j + 1;
  }
  out +=
      "# every transfer between those ranks and the rest cannot complete, so the collective cannot finish.\n"
      "# A real job stalls until NCCL's transport gives up (NCCL_IB_TIMEOUT x NCCL_IB_RETRY_CNT, about 30 s by\n"
      "# default) and the communicator aborts (docs/failures.md).\n";
  return out;
}

std::string comparison_text(const std::vector<gf::SweepRow>& failed, const std::vector<gf::SweepRow>& base) {
  std::string out = "#\n# with the failures beside the baseline (the same run without them):\n";
  out += fmt::format("# {:>12}  {:>12}  {:>12}  {:>8}  {:>10}  {:>10}\n", "size", "time(us)", "baseline(us)",
                     "slowdown", "busbw", "baseline");
  for (size_t i = 0; i < failed.size() && i < base.size(); ++i) {
    const double t = failed[i].time.to_us(), b = base[i].time.to_us();
    out += fmt::format("# {:>12}  {:>12.2f}  {:>12.2f}  {:>7.3f}x  {:>10.2f}  {:>10.2f}\n", failed[i].size.count(), t,
                       b, b > 0 ? t / b : 0.0, failed[i].busbw_gBps, base[i].busbw_gBps);
  }
  return out;
}

void add_comparison_json(nlohmann::ordered_json& j, const gf::Simulation& sim, const std::vector<gf::SweepRow>& base) {
  nlohmann::ordered_json faults = nlohmann::ordered_json::array();
  for (const auto& f : sim.faults()) faults.push_back({{"component", f.component}, {"effect", f.effect}});
  j["failures"] = faults;
  if (!j.contains("results")) return;
  auto& results = j["results"];
  for (size_t i = 0; i < results.size() && i < base.size(); ++i) {
    results[i]["baseline_time_us"] = base[i].time.to_us();
    results[i]["baseline_bus_bw"] = base[i].busbw_gBps;
  }
}

}  // namespace gfcli
