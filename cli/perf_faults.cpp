#include "perf_faults.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace gfcli {

void FaultArgs::add(CLI::App* sub) {
  sub->add_option("--fail", fail,
                  "A component down before the run, named as topo names it (repeatable): server1/nic3, leaf0, "
                  "leaf0-spine1 (every parallel cable), leaf0-spine1#2 (one cable)");
  sub->add_option("--degrade", degrade,
                  "A component degraded (repeatable): SPEC=FRACTION of its bandwidth (server1/nic3=0.5), "
                  "SPEC=latency:+5us (added each way), SPEC=loss:1e-4[,rtt=10us] (a packet loss rate, costed as "
                  "go-back-N retransmission), or a GPU at a FRACTION of its speed (server1/gpu3=0.5: its "
                  "reductions, flow model)");
  sub->add_option("--nccl-on-failure", on_failure,
                  "What NCCL does when a component is down: abort (classic: the communicator fails once the "
                  "transport gives up, ~30 s) or resilient (InfiniBand resiliency: a NIC's connections move to "
                  "another NIC)");
  sub->add_flag("--no-baseline", no_baseline,
               "With --fail/--degrade: skip the run without them (faster; no baseline columns, no cost links)");
  sub->add_flag("--without-failed-servers", without_failed,
               "With --fail serverN: run the job on the servers left, as an application that rebuilds its "
               "communicator on the healthy nodes does (default: report that NCCL's communicator fails, exit 1)");
  sub->add_option("--reconverge", reconverge,
                  "The fabric's rerouting time after a failure, e.g. 2s (default: by technology, docs/failures.md)");
}

gf::FailureResponse FaultArgs::response(gf::RoutingPolicy routing) const {
  gf::FailureResponse r;
  r.routing = routing;
  if (!any() && (on_failure != "abort" || !reconverge.empty() || no_baseline || without_failed))
    throw gf::InputError({}, on_failure != "abort" ? "--nccl-on-failure"
                             : no_baseline         ? "--no-baseline"
                             : without_failed      ? "--without-failed-servers"
                                                   : "--reconverge",
                         "only shapes what a --fail costs", "add --fail COMPONENT");
  const auto nccl = gf::parse_nccl_on_failure(on_failure);
  if (!nccl)
    throw gf::InputError({}, "--nccl-on-failure", "unknown behaviour '" + on_failure + "'",
                         gf::suggest(on_failure, {"abort", "resilient"}) +
                             "; abort (classic NCCL) or resilient (NCCL's InfiniBand resiliency)");
  r.nccl = *nccl;
  if (!reconverge.empty()) {
    try {
      r.reconverge = gf::parse_time(reconverge);
    } catch (const gf::UnitError& e) {
      throw gf::InputError({}, "--reconverge", "'" + reconverge + "': " + e.what(), "e.g. --reconverge 2s");
    }
  }
  return r;
}

std::string timeline_text(const gf::Simulation& sim, const gf::FailureResponse& r) {
  std::string out;
  for (const auto& f : sim.faults()) {
    const gf::FailureTimeline t = gf::failure_timeline(sim.cluster(), f, r);
    out += fmt::format(
        "# timeline: {}: {}\n", t.component,
        t.outcome == gf::FailureTimeline::Outcome::Aborts ? fmt::format("the job aborts at {:.3g} s", t.stall.to_s())
        : t.stall > gf::Time::zero() ? fmt::format("stalls {:.3g} s, then continues degraded", t.stall.to_s())
                                     : std::string("continues degraded"));
    for (const auto& e : t.events) out += fmt::format("#   t = {:>9.4g} s  {}\n", e.at.to_s(), e.what);
  }
  return out;
}

nlohmann::ordered_json timeline_json(const gf::Simulation& sim, const gf::FailureResponse& r) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const auto& f : sim.faults()) {
    const gf::FailureTimeline t = gf::failure_timeline(sim.cluster(), f, r);
    nlohmann::ordered_json events = nlohmann::ordered_json::array();
    for (const auto& e : t.events) events.push_back({{"at_s", e.at.to_s()}, {"what", e.what}});
    out.push_back({{"component", t.component},
                   {"outcome", t.outcome == gf::FailureTimeline::Outcome::Aborts ? "aborts" : "continues"},
                   {"stall_s", t.stall.to_s()},
                   {"events", events}});
  }
  return out;
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
  for (const auto& f : sim.faults()) {
    if (f.scope != gf::AppliedFault::Scope::Server ||
        std::none_of(lost.begin(), lost.end(), [&](int64_t g) { return g / c.gpus_per_server() == f.server; }))
      continue;
    out += fmt::format(
        "# {} is down and ranks of the job run on it: NCCL cannot go on with a member of its communicator gone, so the\n"
        "# communicator fails (NVIDIA/nccl issue #998) and the job restarts from its checkpoint; add\n"
        "# --without-failed-servers to run it on the servers left instead\n",
        f.component);
  }
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

std::vector<int64_t> failed_servers(const gf::Simulation& sim) {
  std::vector<int64_t> out;
  for (const auto& f : sim.faults())
    if (f.scope == gf::AppliedFault::Scope::Server && f.down) out.push_back(f.server);
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

std::string cost_links_text(gf::Bytes size, const std::vector<gf::LinkCost>& links) {
  if (links.empty()) return "#\n# no link's load grew: the cost is latency or a slower path, not a busier link\n";
  std::string out = fmt::format(
      "#\n# links that carried the cost at {} B (busy = the run's bytes on the link / its bandwidth):\n", size.count());
  out += fmt::format("# {:>28} -> {:<28}  {:>10}  {:>12}\n", "from", "to", "busy(us)", "baseline(us)");
  for (const auto& l : links)
    out += fmt::format("# {:>28} -> {:<28}  {:>10.2f}  {:>12.2f}\n", l.from, l.to, l.busy_s * 1e6,
                       l.baseline_busy_s * 1e6);
  return out;
}

void add_comparison_json(nlohmann::ordered_json& j, const gf::Simulation& sim, const std::vector<gf::SweepRow>& base,
                         const std::vector<gf::LinkCost>& links) {
  nlohmann::ordered_json faults = nlohmann::ordered_json::array();
  for (const auto& f : sim.faults()) faults.push_back({{"component", f.component}, {"effect", f.effect}});
  j["failures"] = faults;
  if (base.empty()) return;
  nlohmann::ordered_json cost = nlohmann::ordered_json::array();
  for (const auto& l : links)
    cost.push_back({{"link", l.link},
                    {"from", l.from},
                    {"to", l.to},
                    {"cable", l.cable},
                    {"cables", l.cables},
                    {"lanes", l.lanes},
                    {"busy_us", l.busy_s * 1e6},
                    {"baseline_busy_us", l.baseline_busy_s * 1e6}});
  j["links"] = cost;
  if (!j.contains("results")) return;
  auto& results = j["results"];
  for (size_t i = 0; i < results.size() && i < base.size(); ++i) {
    results[i]["baseline_time_us"] = base[i].time.to_us();
    results[i]["baseline_bus_bw"] = base[i].busbw_gBps;
  }
}

}  // namespace gfcli
