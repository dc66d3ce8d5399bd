#include "report/scenario_trace.hpp"

#include "core/protocol.hpp"

namespace gf {

void trace_scenario(TraceWriter& w, const ScenarioView& v) {
  for (size_t j = 0; j < v.jobs.size(); ++j) {
    const Job& job = v.jobs[j];
    if (job.calls.empty()) continue;
    w.begin_job(*job.calls.front().comm, static_cast<int>(j), job.name);
    for (size_t c = 0; c < job.calls.size(); ++c) {
      const JobCall& call = job.calls[c];
      const Schedule& s = *call.schedule;
      const std::vector<CallSpan>& spans = v.run.jobs[j].calls[c];
      const std::string& label = call.label;
      if (spans.empty()) continue;
      for (size_t rep = 0; rep + 1 < spans.size(); ++rep)
        w.add_call_slice(label, spans[rep].start, spans[rep].duration(), s.algorithm(), to_string(s.protocol()));
      // The last repetition with its transfers: finishes made relative to the call's start, as
      // add_call takes one call's run.
      const CallSpan& last = spans.back();
      ScheduleRun run;
      run.duration = last.duration();
      run.finish = v.run.jobs[j].finish[c];
      for (Time& t : run.finish) t = t - last.start;
      // The routes the run used, when the scenario kept them (ScenarioOptions::keep_routes).
      w.add_call(label, s, run, last.start, job.seed, job.routing, call.routes);
    }
  }
  // The one model every job ran on: its ports' queues over the whole run.
  w.add_ports(v.model.port_timelines(), Time::zero());
}

}  // namespace gf
