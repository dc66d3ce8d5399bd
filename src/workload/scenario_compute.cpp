#include "workload/scenario_compute.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "core/error.hpp"

namespace gf {

void check_compute_events(const std::vector<EventSpec>& events, const Cluster& c) {
  for (const EventSpec& e : events) {
    if (!e.compute) continue;
    const NodeId n = c.find_node(e.component);
    if (n == kNoNode || c.node(n).kind != NodeKind::Gpu) {
      // As `train --straggler` and topo's components name them: serverS/gpuK.
      std::vector<std::string> names;
      const int64_t per = std::max<int64_t>(1, c.gpus_per_server());
      for (int64_t g = 0; g < c.gpu_count(); ++g) names.push_back(fmt::format("server{}/gpu{}", g / per, g % per));
      const std::string close = closest_match(e.component, names);
      e.places.fail("degrade", "'" + e.component + "' is not a GPU of the cluster: only a GPU has a compute speed",
                    (close.empty() ? "" : "did you mean '" + close + "'? ") + "GPUs are named " + names.front() +
                        " .. " + names.back() + "; a link or NIC takes `bandwidth:`");
    }
    if (e.at != Time::zero())
      e.places.fail("at", "a GPU's compute speed can only change from the start of the run (at: 0)",
                    "each call's delays are fixed before the run (docs/failures.md, \"Slow GPUs in a scenario\"); "
                    "use `at: 0`, or a second scenario for the time after the change");
  }
}

std::vector<Job> jobs_with_slow_gpus(const std::vector<Job>& jobs, const std::vector<const Communicator*>& comms,
                                     const std::vector<EventSpec>& events, std::vector<std::vector<Time>>& delays) {
  // Each slow GPU's fraction; a GPU named twice keeps the last (events in time order are all at 0).
  std::map<NodeId, double> fraction;
  for (const EventSpec& e : events)
    if (e.compute && !comms.empty()) fraction[comms.front()->cluster->find_node(e.component)] = *e.compute;
  std::vector<Job> out = jobs;
  delays.clear();
  // Reserve so the spans handed to the jobs stay valid while more are added.
  size_t total = 0;
  for (const Job& j : jobs) total += j.calls.size() * static_cast<size_t>(std::max(1, j.repeat));
  delays.reserve(total);
  for (size_t j = 0; j < jobs.size(); ++j) {
    const Job& job = jobs[j];
    const Communicator& comm = *comms[j];
    // Per rank: the extra compute time per second of gap, 1/F - 1 (0 for a healthy rank).
    std::vector<double> stretch(static_cast<size_t>(comm.nranks), 0.0);
    bool slow = false;
    for (size_t r = 0; r < comm.gpu.size(); ++r) {
      const auto it = fraction.find(comm.gpu[r]);
      if (it == fraction.end() || it->second >= 1) continue;
      stretch[r] = 1 / it->second - 1;
      slow = true;
    }
    const bool gaps = std::any_of(job.calls.begin(), job.calls.end(), [](const JobCall& c) { return c.gap > Time::zero(); });
    if (!slow || !gaps) continue;
    Job& u = out[j];
    u.calls.clear();
    u.repeat = 1;
    Time before = Time::zero();  // the gap before the call being added (none before the first)
    for (int rep = 0; rep < job.repeat; ++rep)
      for (const JobCall& c : job.calls) {
        JobCall k = c;
        if (before > Time::zero()) {
          std::vector<Time>& d = delays.emplace_back(stretch.size(), Time::zero());
          for (size_t r = 0; r < stretch.size(); ++r)
            d[r] = Time::ps_rounded(static_cast<double>(before.picoseconds()) * stretch[r]);
          k.rank_delay = d;
        }
        before = c.gap;
        u.calls.push_back(k);
      }
  }
  return out;
}

void fold_unrolled(JobsRun& run, const std::vector<Job>& plain, const std::vector<Job>& ran) {
  for (size_t j = 0; j < plain.size(); ++j) {
    const size_t n = plain[j].calls.size();
    if (ran[j].calls.size() == n) continue;  // not unrolled
    JobRun& jr = run.jobs[j];
    std::vector<std::vector<CallSpan>> calls(n);
    std::vector<std::vector<Time>> finish(n);
    for (size_t u = 0; u < jr.calls.size(); ++u) {
      calls[u % n].insert(calls[u % n].end(), jr.calls[u].begin(), jr.calls[u].end());
      finish[u % n] = std::move(jr.finish[u]);  // the last repetition's wins
    }
    jr.calls = std::move(calls);
    jr.finish = std::move(finish);
  }
}

}  // namespace gf
