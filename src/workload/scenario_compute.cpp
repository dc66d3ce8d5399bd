#include "workload/scenario_compute.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <memory>

#include "core/error.hpp"

namespace gf {

namespace {

bool names_gpu(const Cluster& c, const std::string& name) {
  const NodeId n = c.find_node(name);
  return n != kNoNode && c.node(n).kind == NodeKind::Gpu;
}

// Events in time order, then as written (as plan_events orders them).
std::vector<size_t> time_order(const std::vector<EventSpec>& events) {
  std::vector<size_t> order(events.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return events[a].at < events[b].at; });
  return order;
}

}  // namespace

bool is_compute_event(const EventSpec& e, const Cluster& c) {
  return e.compute.has_value() || (e.kind == EventSpec::Kind::Up && names_gpu(c, e.component));
}

void check_compute_events(const std::vector<EventSpec>& events, const Cluster& c) {
  for (const EventSpec& e : events) {
    if (!e.compute || names_gpu(c, e.component)) continue;
    // As `train --straggler` and topo's components name them: serverS/gpuK.
    std::vector<std::string> names;
    const int64_t per = std::max<int64_t>(1, c.gpus_per_server());
    for (int64_t g = 0; g < c.gpu_count(); ++g) names.push_back(fmt::format("server{}/gpu{}", g / per, g % per));
    const std::string close = closest_match(e.component, names);
    e.places.fail("degrade", "'" + e.component + "' is not a GPU of the cluster: only a GPU has a compute speed",
                  (close.empty() ? "" : "did you mean '" + close + "'? ") + "GPUs are named " + names.front() + " .. " +
                      names.back() + "; a link or NIC takes `bandwidth:`");
  }
  std::map<NodeId, bool> degraded;  // GPUs a `compute:` event has named so far, in time order
  for (size_t i : time_order(events)) {
    const EventSpec& e = events[i];
    if (!is_compute_event(e, c)) continue;
    const NodeId n = c.find_node(e.component);
    if (e.compute) {
      degraded[n] = true;
    } else if (!degraded.count(n)) {
      e.places.fail("up", "'" + e.component + "' is a GPU that no earlier event slowed: there is nothing to bring back",
                    "an `up` of a GPU ends an earlier `{degrade: " + e.component +
                        ", compute: F}`; give that event first (a smaller `at:`), or drop this one");
    }
  }
}

Time compute_overrun(const std::vector<SpeedStep>& steps, Time from, Time work) {
  // Walk the speed's steps from `from`: in a step of fraction f lasting `span`, f x span of the
  // work gets done; each piece p done at f costs p x (1/f - 1) extra.
  double left = static_cast<double>(work.picoseconds());
  double extra = 0;
  double t = static_cast<double>(from.picoseconds());
  double f = 1;
  size_t k = 0;
  while (k < steps.size() && steps[k].at <= from) f = steps[k++].fraction;
  while (left > 0) {
    const double next = k < steps.size() ? static_cast<double>(steps[k].at.picoseconds()) : -1;
    const double piece = next < 0 ? left : std::min(left, (next - t) * f);
    if (f < 1) extra += piece * (1 / f - 1);
    left -= piece;
    if (next < 0 || left <= 0) break;
    t = next;
    f = steps[k++].fraction;
  }
  return Time::ps_rounded(extra);
}

std::vector<Job> jobs_with_slow_gpus(const std::vector<Job>& jobs, const std::vector<const Communicator*>& comms,
                                     const std::vector<EventSpec>& events) {
  std::vector<Job> out = jobs;
  if (comms.empty()) return out;
  const Cluster& c = *comms.front()->cluster;
  // Each GPU's speed over time; two events of one GPU at one instant: the later written wins.
  std::map<NodeId, std::vector<SpeedStep>> speed;
  std::map<NodeId, const EventSpec*> slowest;  // per GPU, the event that slows it most
  for (size_t i : time_order(events)) {
    const EventSpec& e = events[i];
    if (!is_compute_event(e, c)) continue;
    const NodeId n = c.find_node(e.component);
    std::vector<SpeedStep>& s = speed[n];
    const double f = e.compute ? *e.compute : 1.0;
    if (f < 1 && (!slowest.count(n) || f < *slowest[n]->compute)) slowest[n] = &e;
    if (!s.empty() && s.back().at == e.at)
      s.back().fraction = f;
    else
      s.push_back({e.at, f});
  }
  for (size_t j = 0; j < jobs.size(); ++j) {
    const Job& job = jobs[j];
    const Communicator& comm = *comms[j];
    // Per rank: its GPU's speed steps (empty for a GPU that keeps full speed).
    auto ranks = std::make_shared<std::vector<std::vector<SpeedStep>>>(static_cast<size_t>(comm.nranks));
    bool slow = false;
    for (size_t r = 0; r < comm.gpu.size(); ++r) {
      const auto it = speed.find(comm.gpu[r]);
      if (it == speed.end()) continue;
      (*ranks)[r] = it->second;
      slow = slow || std::any_of(it->second.begin(), it->second.end(), [](const SpeedStep& s) { return s.fraction < 1; });
    }
    const bool gaps = std::any_of(job.calls.begin(), job.calls.end(), [](const JobCall& k) { return k.gap > Time::zero(); });
    if (!slow || !gaps) continue;
    // A fraction so small that one gap's overrun leaves Time's range (int64 picoseconds, about
    // 106 days) would end the run as "cannot finish" with a hint about routes; say why instead.
    // Half the range leaves room for the rest of the run.
    Time max_gap = Time::zero();
    for (const JobCall& k : job.calls) max_gap = std::max(max_gap, k.gap);
    for (size_t r = 0; r < comm.gpu.size(); ++r) {
      const auto it = slowest.find(comm.gpu[r]);
      if (it == slowest.end()) continue;
      const double f = *it->second->compute;
      if (static_cast<double>(max_gap.picoseconds()) * (1 / f - 1) < 4.6e18) continue;
      it->second->places.fail("compute",
                              fmt::format("compute: {} would stretch job '{}''s gap of {} us past the time the "
                                          "simulation can hold (about 106 days of simulated time)",
                                          f, job.name, max_gap.to_us()),
                              "give the fraction of its speed the GPU keeps, e.g. 0.5; a GPU that stops is `down:`");
    }
    out[j].gap_delay = [ranks](Time from, Time gap, std::vector<Time>& delay) {
      delay.assign(ranks->size(), Time::zero());
      for (size_t r = 0; r < ranks->size(); ++r)
        if (!(*ranks)[r].empty()) delay[r] = compute_overrun((*ranks)[r], from, gap);
    };
  }
  return out;
}

}  // namespace gf
