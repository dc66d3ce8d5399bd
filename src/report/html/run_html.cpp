#include "report/html/run_html.hpp"

#include <algorithm>
#include <cstdio>

#include "core/protocol.hpp"
#include "report/html/html_escape.hpp"
#include "report/html/link_heatmaps.hpp"
#include "report/html/svg_bars.hpp"
#include "report/number_text.hpp"

namespace gf::html {

namespace {

std::string td(const std::string& text, bool num = false) {
  return std::string(num ? "<td class=\"num\">" : "<td>") + escape(text) + "</td>";
}

// How many shared links a job's entry lists; the count says how many there are in all.
constexpr size_t kSharedListed = 8;

std::string jobs_section(const ScenarioResult& r, const RunLinks& links) {
  const bool several = r.jobs.size() > 1;
  std::string out =
      "<p class=\"note\">Time per call over its repetitions; busbw = algbw x nccl-tests' factor" +
      std::string(several ? "; alone: the call's mean time with its job alone on the same cluster, model, routing "
                            "and seed; slowdown = mean / alone"
                          : "") +
      ".</p>\n";
  for (size_t j = 0; j < r.jobs.size(); ++j) {
    const ScenarioJobResult& job = r.jobs[j];
    out += "<h3>job " + escape(job.name) + "</h3>\n";
    out += facts_table({{"placement", job.placement},
                        {"ranks", std::to_string(job.nranks) + " (" + std::to_string(job.nnodes) + " servers x " +
                                      std::to_string(job.ppn) + ")"},
                        {"repetitions", std::to_string(job.repeat)},
                        {"start, end", us_text(job.start) + " us, " + us_text(job.end) + " us"}});
    out += "<table class=\"rows\">\n<tr><th>call</th><th>collective</th><th class=\"num\">size</th><th>algorithm</th>"
           "<th class=\"num\">mean (us)</th><th class=\"num\">min (us)</th><th class=\"num\">max (us)</th>";
    if (several) out += "<th class=\"num\">alone (us)</th><th class=\"num\">slowdown</th>";
    out += "<th class=\"num\">algbw (GB/s)</th><th class=\"num\">busbw (GB/s)</th></tr>\n";
    for (size_t c = 0; c < job.calls.size(); ++c) {
      const ScenarioCallResult& k = job.calls[c];
      out += "<tr>" + td(std::to_string(c)) + td(to_string(k.call.kind)) +
             td(binary_size_text(static_cast<double>(k.call.bytes.count())), true) +
             td(k.choice.algorithm + "/" + to_string(k.choice.proto) + " x" + std::to_string(k.choice.channels)) +
             td(us_text(k.mean), true) + td(us_text(k.min), true) + td(us_text(k.max), true);
      if (several) out += td(us_text(k.alone_mean), true) + td(fixed_text(k.slowdown, 2) + "x", true);
      out += td(fixed_text(k.algbw_gBps, 2), true) + td(fixed_text(k.busbw_gBps, 2), true) + "</tr>\n";
    }
    out += "</table>\n";
    if (j < links.jobs.size()) {
      const JobLinks& jl = links.jobs[j];
      out += "<p class=\"shared\" data-job=\"" + std::to_string(j) + "\" data-shared=\"" +
             std::to_string(jl.shared.size()) + "\">Links shared with another job: " +
             std::to_string(jl.shared.size()) + " of the " + std::to_string(jl.used) + " its routes cross";
      if (jl.shared.empty()) {
        out += ".</p>\n";
        continue;
      }
      out += (jl.shared.size() > kSharedListed ? "; the " + std::to_string(kSharedListed) + " most utilised:" : ":") +
             std::string("</p>\n<table class=\"rows\">\n<tr><th>from</th><th>to</th><th class=\"num\">carried</th>"
                         "<th class=\"num\">utilisation</th></tr>\n");
      for (size_t i = 0; i < jl.shared.size() && i < kSharedListed; ++i) {
        const LinkHeat& l = jl.shared[i];
        out += "<tr>" + td(l.from) + td(l.to) + td(binary_size_text(l.bytes), true) +
               td(fixed_text(l.utilisation * 100, 1) + "%", true) + "</tr>\n";
      }
      out += "</table>\n";
    }
  }
  return out;
}

// More bars than this would not be read; the note says how many were left out.
constexpr size_t kMaxBars = 64;

// Where each job's time went, from what the run measured: per job, its span (start to end) split
// into each call's time over its repetitions and the time between calls (gaps); with several
// jobs, per call its mean time split into the time alone and what sharing the cluster added.
std::string breakdown_section(const ScenarioResult& r) {
  BarChart jobs{"bars-jobs", "Each job's span, call by call", {}, false};
  size_t left_out = 0;
  for (const ScenarioJobResult& job : r.jobs) {
    if (jobs.bars.size() == kMaxBars) {
      ++left_out;
      continue;
    }
    Bar b{"job " + job.name, {}};
    double in_calls = 0;
    for (size_t c = 0; c < job.calls.size(); ++c) {
      const ScenarioCallResult& k = job.calls[c];
      double s = 0;
      for (const CallSpan& span : k.spans) s += span.duration().to_s();
      in_calls += s;
      b.segments.push_back({"call " + std::to_string(c) + ": " + std::string(to_string(k.call.kind)) + " " +
                                binary_size_text(static_cast<double>(k.call.bytes.count())),
                            s, static_cast<int>(c % 9)});
    }
    b.segments.push_back({"between calls (gaps)", std::max(0.0, (job.end - job.start).to_s() - in_calls), 9});
    jobs.bars.push_back(std::move(b));
  }
  std::string out =
      "<p class=\"note\">A job's span, from its start to its end, is its calls' times over all repetitions plus "
      "the gaps between calls; bars on one scale.</p>\n" +
      svg_bars(jobs);
  if (r.jobs.size() > 1) {
    BarChart shared{"bars-sharing", "Each call's mean time: alone and what sharing added", {}, false};
    for (const ScenarioJobResult& job : r.jobs)
      for (size_t c = 0; c < job.calls.size(); ++c) {
        if (shared.bars.size() == kMaxBars) {
          ++left_out;
          continue;
        }
        const ScenarioCallResult& k = job.calls[c];
        const double mean = k.mean.to_s(), alone = k.alone_mean.to_s();
        shared.bars.push_back({"job " + job.name + ", call " + std::to_string(c),
                               {{"alone on the cluster", std::min(mean, alone), 0},
                                {"added by sharing", std::max(0.0, mean - alone), 2}}});
      }
    out += "<p class=\"note\">Alone: the call's mean time with its job alone on the same cluster, model, routing and "
           "seed; added by sharing: the mean with every job running, less that (none when sharing cost nothing).</p>\n" +
           svg_bars(shared);
  }
  if (left_out > 0) out += "<p class=\"note\">" + std::to_string(left_out) + " bars past the first " +
                           std::to_string(kMaxBars) + " of a chart are left out.</p>\n";
  return out;
}

std::string heatmap_section(const RunLinks& links) {
  std::string out =
      "<p class=\"note\">One square per directed link, in link order (a server's links side by side), coloured by "
      "its utilisation over the run: wire bytes carried / (catalog bandwidth x makespan). Hover a square for the "
      "link and its figures.</p>\n";
  return out + link_heatmaps(links.tiers);
}

std::string busiest_section(const ScenarioResult& r) {
  std::string out = "<p class=\"note\">" + std::to_string(r.top_links.size()) + " of the " +
                    std::to_string(r.links_used) + " links that carried traffic (gpufabric run's --top).</p>\n";
  out += "<table class=\"rows\">\n<tr><th>from</th><th>to</th><th>tech</th><th class=\"num\">bandwidth (GB/s)</th>"
         "<th class=\"num\">carried</th><th class=\"num\">utilisation</th></tr>\n";
  for (const LinkUse& l : r.top_links)
    out += "<tr>" + td(l.from) + td(l.to) + td(l.tech) + td(fixed_text(l.bandwidth.bytes_per_second() / 1e9, 1), true) +
           td(binary_size_text(l.bytes), true) + td(fixed_text(l.utilisation * 100, 1) + "%", true) + "</tr>\n";
  out += "</table>\n";
  if (!r.model_statistics.empty()) {
    out += "<h3>model statistics (" + escape(r.model) + ")</h3>\n<table class=\"rows\">\n";
    for (const auto& [name, value] : r.model_statistics) out += "<tr>" + td(name) + td(std::to_string(value), true) + "</tr>\n";
    out += "</table>\n";
  }
  return out;
}

}  // namespace

std::string run_html(const ScenarioResult& r, const RunLinks& links, const ReportMeta& meta) {
  std::vector<std::pair<std::string, std::string>> facts = {
      {"scenario", r.name},
      {"description", r.description},
      {"file", r.file},
      {"cluster", r.cluster + ": " + std::to_string(r.servers) + " servers, " + std::to_string(r.gpus) + " GPUs"},
      {"model, routing", r.model + ", " + r.routing},
      {"seed", std::to_string(r.seed)},
      {"makespan", us_text(r.makespan) + " us (" + std::to_string(r.events) + " model events)"},
  };
  for (const std::string& n : r.notes) facts.push_back({"note", n});
  return page("gpufabric run " + r.name, meta,
              {{"run", "The run", facts_table(facts)},
               {"jobs", "Jobs", jobs_section(r, links)},
               {"breakdown", "Time breakdown", breakdown_section(r)},
               {"heatmap", "Link utilisation, tier by tier", heatmap_section(links)},
               {"links", "Most loaded links", busiest_section(r)}});
}

}  // namespace gf::html
