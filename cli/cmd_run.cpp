// gpufabric run SCENARIO.yaml [--format text|json] [--model M] [--routing P] [--top K]
// Runs a scenario file (docs/scenarios.md): several jobs on one fabric, then per-job collective
// times and busbw and the most loaded links.
#include <iostream>
#include <memory>
#include <optional>

#include <gpufabric/gpufabric.hpp>

#include "commands.hpp"

namespace gfcli {

namespace {

struct RunOptions {
  std::string scenario;
  std::string format = "text";
  std::string model, routing;
  CLI::Option* model_opt = nullptr;
  CLI::Option* routing_opt = nullptr;
  int top = 10;
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
  gf::ScenarioResult r = gf::run_scenario(spec, opt);
  if (o.format == "json") std::cout << json_text(gf::scenario_json(r)) << "\n";
  else std::cout << gf::scenario_text(r);
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
  sub->add_option("--top", o->top, "How many of the most loaded links (and, with the packet model, deepest queues) to list (default 10)");
  return {sub, [o] { return run_run(*o); }};
}

}  // namespace gfcli
