// gpufabric run SCENARIO.yaml [--format text|json] [--model M] [--routing P] [--top K] [--html FILE]
//               [--trace FILE [--trace-ranks R] [--trace-links top:N]] [--force]
// Runs a scenario file (docs/scenarios.md): several jobs on one fabric, then per-job collective
// times and busbw and the most loaded links; --html writes the same as a page, --trace a Perfetto
// timeline (docs/reports.md).
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>

#include <gpufabric/gpufabric.hpp>

#include "commands.hpp"
#include "progress.hpp"
#include "report_file.hpp"

namespace gfcli {

namespace {

struct RunOptions {
  std::string scenario;
  std::string format = "text";
  std::string model, routing;
  CLI::Option* model_opt = nullptr;
  CLI::Option* routing_opt = nullptr;
  int top = 10;
  std::string html;    // --html FILE: the run as a page, with the link heatmap
  std::string trace, trace_ranks, trace_links = "top:32";  // --trace FILE: a Perfetto timeline
  bool force = false;  // --force: --html / --trace may replace FILE
  CLI::App* app = nullptr;
};

int run_run(const RunOptions& o) {
  const std::vector<std::string> formats = {"text", "json"};
  if (std::find(formats.begin(), formats.end(), o.format) == formats.end())
    throw gf::InputError({}, "--format", "unknown format '" + o.format + "'", gf::suggest(o.format, formats));
  if (o.top < 0) throw gf::InputError({}, "--top", "must be 0 or more, got " + std::to_string(o.top), "e.g. --top 10");
  gf::ScenarioSpec spec = gf::load_scenario_file(o.scenario);
  gf::ScenarioOptions opt;
  if (o.model_opt->count() > 0) opt.model = o.model;
  if (o.routing_opt->count() > 0) opt.routing = o.routing;
  opt.top_links = o.top;
  if (!o.html.empty()) check_new_file(o.html, o.force, "--html");
  gf::RunLinks links;
  gf::TraceOptions to;
  if (!o.trace.empty()) {
    check_new_file(o.trace, o.force, "--trace");
    if (!o.trace_ranks.empty()) to.ranks = gf::parse_rank_ranges(o.trace_ranks, "--trace-ranks");
    to.top_links = gf::parse_top_links(o.trace_links, "--trace-links");
  } else if (!o.trace_ranks.empty() || o.trace_links != "top:32") {
    throw gf::InputError({}, o.trace_ranks.empty() ? "--trace-links" : "--trace-ranks", "only shapes a --trace timeline",
                         "add --trace FILE");
  }
  // On a terminal, a line follows each of the scenario's runs: the jobs together, then each job
  // alone (the slowdown's baseline).
  Progress progress("gpufabric run");
  opt.tick = [&](const std::string& phase, gf::Time now, size_t events, double done) {
    progress.phase(phase);
    progress.tick(now, events, done);
  };
  opt.keep_routes = !o.trace.empty();
  if (!o.html.empty() || !o.trace.empty())
    opt.on_run = [&](const gf::ScenarioView& v) {
      progress.finish();
      if (!o.html.empty()) links = gf::run_links(v);
      if (o.trace.empty()) return;
      std::ofstream out(o.trace, std::ios::binary);
      gf::TraceWriter w(v.cluster, v.router, to);
      w.stream(out);
      gf::trace_scenario(w, v);
      const size_t events = w.write(out);
      if (!out) throw gf::InputError({}, "--trace", "could not write '" + o.trace + "'", "check the folder exists and is writable");
      std::cerr << "gpufabric: wrote " << o.trace << ": " << events << " trace events"
                << (w.left_out() ? ", " + std::to_string(w.left_out()) + " transfer slices left out (over the size guard; narrow with --trace-ranks)" : "")
              << (w.steps_left_out() ? ", " + std::to_string(w.steps_left_out()) + " step slices left out" : "")
                << "\n";
    };
  gf::ScenarioResult r = gf::run_scenario(spec, opt);
  progress.finish();
  if (o.format == "json") std::cout << json_text(gf::scenario_json(r)) << "\n";
  else std::cout << gf::scenario_text(r);
  if (!o.html.empty()) {
    write_file(o.html, gf::html::run_html(r, links, {command_line(*o.app), version_text()}), "--html");
    std::cerr << "gpufabric: wrote " << o.html << " (open it in a browser; it needs no network)\n";
  }
  return 0;
}

}  // namespace

Command add_run(CLI::App& root) {
  auto o = std::make_shared<RunOptions>();
  CLI::App* sub = root.add_subcommand("run", "Run a scenario file: jobs on one fabric, their collective times and the busiest links");
  sub->add_option("scenario", o->scenario, "Scenario YAML file (see docs/scenarios.md and examples/)")->required();
  sub->add_option("--format", o->format, "text or json");
  o->model_opt = sub->add_option("--model", o->model, "Override the scenario's model: analytical, flow or packet");
  o->routing_opt = sub->add_option("--routing", o->routing, "Override the scenario's routing policy: ecmp, spray or adaptive");
  o->app = sub;
  sub->add_option("--top", o->top, "How many of the most loaded links (and, with the packet model, deepest queues) to list (default 10)");
  sub->add_option("--html", o->html, "Also write the run as one self-contained HTML page: jobs, shared links, link heatmap");
  sub->add_option("--trace", o->trace,
                  "Also write a timeline (Trace Event Format JSON for Perfetto): per job and server, calls, transfers, link counters");
  sub->add_option("--trace-ranks", o->trace_ranks, "With --trace: only these ranks' tracks (of every job), e.g. 0-15,32");
  sub->add_option("--trace-links", o->trace_links, "With --trace: counters for the N busiest links, top:N (default top:32)");
  sub->add_flag("--force", o->force, "With --html or --trace: replace the file if it exists");
  return {sub, [o] { return run_run(*o); }};
}

}  // namespace gfcli
