#include "report/scenario_report.hpp"

#include <cstdio>

#include "core/protocol.hpp"
#include "report/number_text.hpp"
#include "report/table.hpp"

namespace gf {

namespace {

std::string algorithm_text(const TunerChoice& c) {
  return c.algorithm + "/" + to_string(c.proto) + " x" + std::to_string(c.channels);
}

// One character per `group` buckets of `series` (their mean), from ' ' (none) to '@' (the row's peak).
std::string sparkline(const std::vector<double>& series, size_t group) {
  std::vector<double> cols;
  for (size_t i = 0; i < series.size(); i += group) {
    const size_t end = std::min(series.size(), i + group);
    double sum = 0;
    for (size_t j = i; j < end; ++j) sum += series[j];
    cols.push_back(sum / static_cast<double>(end - i));
  }
  const double top = cols.empty() ? 0 : *std::max_element(cols.begin(), cols.end());
  static constexpr char kLevels[] = " .:-=+*#%@";
  std::string line;
  for (double v : cols) line += kLevels[top > 0 ? static_cast<size_t>(std::lround(v / top * 9)) : 0];
  return line;
}

}  // namespace

std::string scenario_text(const ScenarioResult& r) {
  std::string out = "# scenario " + r.name + (r.description.empty() ? "" : ": " + r.description) + "\n";
  out += "# cluster " + r.cluster + ": " + std::to_string(r.servers) + " servers, " + std::to_string(r.gpus) +
         " GPUs; model " + r.model + ", routing " + r.routing + ", seed " + std::to_string(r.seed) + "\n";
  out += "# makespan " + us_text(r.makespan) + " us (" + with_commas(static_cast<int64_t>(r.events)) + " model events)\n";
  for (const std::string& n : r.notes) out += "# note: " + n + "\n";
  out += "\n";
  const bool several = r.jobs.size() > 1;  // then each call's time alone and the slowdown are shown
  std::vector<std::string> head = {"job", "call", "collective", ">size", "placement", ">ranks", ">reps", ">start_us",
                                   ">mean_us", ">min_us", ">max_us"};
  if (several) head.insert(head.end(), {">alone_us", ">slowdown"});
  head.insert(head.end(), {">algbw_GBps", ">busbw_GBps", "algorithm"});
  TextTable jobs(head);
  for (const ScenarioJobResult& j : r.jobs)
    for (size_t c = 0; c < j.calls.size(); ++c) {
      const ScenarioCallResult& k = j.calls[c];
      std::vector<std::string> row = {j.name, std::to_string(c), to_string(k.call.kind),
                                      binary_size_text(static_cast<double>(k.call.bytes.count())), j.placement,
                                      std::to_string(j.nranks), std::to_string(k.spans.size()),
                                      c == 0 ? us_text(j.start) : "", us_text(k.mean), us_text(k.min), us_text(k.max)};
      if (several) row.insert(row.end(), {us_text(k.alone_mean), fixed_text(k.slowdown, 2) + "x"});
      row.insert(row.end(), {fixed_text(k.algbw_gBps, 2), fixed_text(k.busbw_gBps, 2), algorithm_text(k.choice)});
      jobs.add(row);
    }
  out += std::string("Jobs (time per call over its repetitions; busbw = algbw x nccl-tests factor") +
         (several ? "; alone_us: the call's mean time with its job alone on the cluster, slowdown = mean / alone" : "") +
         ")\n" + jobs.render() + "\n";
  if (r.event_lines.empty()) {
    TextTable ends({"job", ">start_us", ">end_us"});
    for (const ScenarioJobResult& j : r.jobs) ends.add({j.name, us_text(j.start), us_text(j.end)});
    out += ends.render() + "\n";
  } else {
    // Events: what each did, then each job's end beside the run without them, and its fate.
    out += "Events (nccl_on_failure: " + r.nccl_on_failure + "; without events the run ends at " +
           us_text(r.baseline_makespan) + " us)\n";
    for (const std::string& l : r.event_lines) out += "  " + l + "\n";
    out += "\n";
    TextTable ends({"job", ">start_us", ">end_us", ">no_events_end_us", "outcome"});
    for (const ScenarioJobResult& j : r.jobs)
      ends.add({j.name, us_text(j.start), us_text(j.end), j.outcome ? us_text(j.outcome->baseline_end) : "", j.outcome ? j.outcome->text() : ""});
    out += ends.render();
    for (const ScenarioJobResult& j : r.jobs)
      if (j.outcome && j.outcome->kind == JobEventOutcome::Kind::Aborted) {
        out += "# job '" + j.name + "' aborts: what the table shows after the abort is the run as if its link had come "
               "back then; a real job restarts from its checkpoint (gpufabric goodput costs that)\n";
        break;
      }
    out += "\n";
  }
  out += "Most loaded links (" + std::to_string(r.top_links.size()) + " of " +
         with_commas(static_cast<int64_t>(r.links_used)) +
         " that carried traffic; utilisation = bytes / (bandwidth x makespan))\n";
  TextTable links({"from", "to", "tech", ">bandwidth_GBps", ">carried", ">utilisation"});
  for (const LinkUse& l : r.top_links)
    links.add({l.from, l.to, l.tech, fixed_text(l.bandwidth.bytes_per_second() / 1e9, 1), binary_size_text(l.bytes),
               fixed_text(l.utilisation * 100, 1) + "%"});
  out += links.render();
  if (!r.model_statistics.empty()) {  // the packet model's counters (drops, pauses, ...)
    TextTable stats({"statistic", ">value"});
    for (const auto& [name, value] : r.model_statistics) stats.add({name, with_commas(value)});
    out += "\nModel statistics (" + r.model + ")\n" + stats.render();
  }
  if (!r.queues.empty()) {
    const Time bucket = r.queues.front().queue.bucket;
    // Up to 48 characters per row: each the mean of `group` buckets, on the row's own scale.
    const size_t buckets = r.queues.front().queue.series.size();
    const size_t group = std::max<size_t>(1, (buckets + 47) / 48);
    TextTable queues({"from", "to", ">max_queue", ">mean_queue", ">pauses_in", ">ecn_marks", ">drops", "over_time"});
    for (const QueueUse& u : r.queues) {
      const PortQueueReport& q = u.queue;
      queues.add({u.from, u.to, binary_size_text(static_cast<double>(q.max_queue)), binary_size_text(q.mean_queue),
                  with_commas(q.pauses), with_commas(q.ecn_marks), with_commas(q.drops), "|" + sparkline(q.series, group) + "|"});
    }
    out += "\nDeepest egress queues (" + std::to_string(r.queues.size()) +
           "; over_time: mean depth, each character " + fixed_text(bucket.to_s() * 1e6 * static_cast<double>(group), 1) +
           " us, scaled to the row's own peak; pauses_in: PFC pauses the port received)\n" + queues.render();
  }
  return out;
}

nlohmann::json scenario_json(const ScenarioResult& r) {
  nlohmann::json j;
  j["scenario"] = {{"name", r.name}, {"description", r.description}, {"file", r.file}};
  j["cluster"] = {{"name", r.cluster}, {"servers", r.servers}, {"gpus", r.gpus}};
  j["model"] = r.model;
  j["routing"] = r.routing;
  j["seed"] = r.seed;
  j["makespan_us"] = r.makespan.to_s() * 1e6;
  j["events"] = r.events;
  if (!r.notes.empty()) j["notes"] = r.notes;
  if (!r.event_lines.empty())
    j["scenario_events"] = {{"nccl_on_failure", r.nccl_on_failure},
                            {"no_events_makespan_us", r.baseline_makespan.to_s() * 1e6},
                            {"events", r.event_lines}};
  nlohmann::json jobs = nlohmann::json::array();
  for (const ScenarioJobResult& job : r.jobs) {
    nlohmann::json calls = nlohmann::json::array();
    for (const ScenarioCallResult& k : job.calls) {
      nlohmann::json reps = nlohmann::json::array();
      for (const CallSpan& s : k.spans) reps.push_back({{"start_us", s.start.to_s() * 1e6}, {"time_us", s.duration().to_s() * 1e6}});
      calls.push_back({{"collective", to_string(k.call.kind)},
                       {"size", k.call.bytes.count()},
                       {"type", k.call.type.name},
                       {"algorithm", k.choice.algorithm},
                       {"protocol", to_string(k.choice.proto)},
                       {"channels", k.choice.channels},
                       {"mean_us", k.mean.to_s() * 1e6},
                       {"min_us", k.min.to_s() * 1e6},
                       {"max_us", k.max.to_s() * 1e6},
                       {"algbw_GBps", k.algbw_gBps},
                       {"busbw_GBps", k.busbw_gBps},
                       {"repetitions", reps}});
      if (r.jobs.size() > 1) {
        calls.back()["alone_mean_us"] = k.alone_mean.to_s() * 1e6;
        calls.back()["slowdown"] = k.slowdown;
      }
    }
    jobs.push_back({{"name", job.name},
                    {"placement", job.placement},
                    {"ranks", job.nranks},
                    {"nodes", job.nnodes},
                    {"ranks_per_node", job.ppn},
                    {"repeat", job.repeat},
                    {"start_us", job.start.to_s() * 1e6},
                    {"end_us", job.end.to_s() * 1e6},
                    {"calls", calls}});
    if (job.outcome) {
      static const char* kKinds[] = {"unaffected", "degraded", "stalled", "aborted"};
      const JobEventOutcome& o = *job.outcome;
      nlohmann::json oj = {{"kind", kKinds[static_cast<int>(o.kind)]},
                           {"text", o.text()},
                           {"no_events_end_us", o.baseline_end.to_s() * 1e6}};
      if (!o.first_stall.is_infinite()) {
        oj["first_stall_us"] = o.first_stall.to_s() * 1e6;
        oj["cause"] = o.cause;
      }
      if (o.kind == JobEventOutcome::Kind::Stalled) oj["stall_us"] = o.stall.to_s() * 1e6;
      if (o.kind == JobEventOutcome::Kind::Aborted) oj["abort_at_us"] = o.abort_at.to_s() * 1e6;
      jobs.back()["outcome"] = oj;
    }
  }
  j["jobs"] = jobs;
  nlohmann::json links = nlohmann::json::array();
  for (const LinkUse& l : r.top_links)
    links.push_back({{"link", l.link},
                     {"from", l.from},
                     {"to", l.to},
                     {"tech", l.tech},
                     {"cable", l.cable},
                     {"cables", l.cables},
                     {"lanes", l.lanes},
                     {"bandwidth_GBps", l.bandwidth.bytes_per_second() / 1e9},
                     {"bytes", l.bytes},
                     {"utilisation", l.utilisation}});
  j["links_used"] = r.links_used;
  j["top_links"] = links;
  nlohmann::json stats = nlohmann::json::object();
  for (const auto& [name, value] : r.model_statistics) stats[name] = value;
  j["model_statistics"] = stats;
  nlohmann::json queues = nlohmann::json::array();
  for (const QueueUse& u : r.queues) {
    const PortQueueReport& q = u.queue;
    queues.push_back({{"link", q.link},
                      {"from", u.from},
                      {"to", u.to},
                      {"max_queue_bytes", q.max_queue},
                      {"mean_queue_bytes", q.mean_queue},
                      {"pauses_received", q.pauses},
                      {"ecn_marks", q.ecn_marks},
                      {"drops", q.drops},
                      {"bucket_us", q.bucket.to_s() * 1e6},
                      {"queue_bytes", q.series}});
  }
  j["queues"] = queues;
  return j;
}

}  // namespace gf
