// gpufabric doctor [CLUSTER] [--nodes N] [--fabric KIND] [--fabric-link TECH] [--model M] [--size S]
//                  [--rule NAME ...] [--format text|json] [--html FILE] [--force]
// Looks at a cluster for the bottlenecks of docs/doctor.md and prints each finding with its
// evidence, the busbw a model predicts before and after the fix, and the fix. Exit status 0 when
// nothing is found, 1 when something is (so a provisioning pipeline can gate on it), 2 on bad input.
#include <algorithm>
#include <iostream>
#include <memory>
#include <optional>

#include <gpufabric/gpufabric.hpp>

#include "cluster_args.hpp"
#include "commands.hpp"
#include "report_file.hpp"

namespace gfcli {

namespace {

struct DoctorCliOptions {
  ClusterArgs where;
  std::string model, size;
  std::vector<std::string> rules;
  std::string format = "text";
  std::string html;    // --html FILE: the findings as a page
  bool force = false;  // --force: --html may replace FILE
  CLI::App* app = nullptr;
};

int run_doctor_cmd(const DoctorCliOptions& o) {
  const std::vector<std::string> formats = {"text", "json"};
  if (std::find(formats.begin(), formats.end(), o.format) == formats.end())
    throw gf::InputError({}, "--format", "unknown format '" + o.format + "'", gf::suggest(o.format, formats));
  if (!o.html.empty()) check_new_file(o.html, o.force, "--html");
  gf::DoctorOptions opt;
  std::vector<std::string> names;
  for (const gf::DoctorRule& r : gf::doctor_rules()) names.push_back(r.name);
  for (const std::string& r : o.rules)
    if (std::find(names.begin(), names.end(), r) == names.end())
      throw gf::InputError({}, "--rule", "unknown rule '" + r + "'", gf::suggest(r, names) + " (gpufabric list rules)");
  opt.rules = o.rules;
  if (!o.model.empty()) opt.model = o.model;
  if (!o.size.empty()) {
    try {
      opt.size = gf::parse_size(o.size);
    } catch (const gf::UnitError& e) {
      throw gf::InputError({}, "--size", e.what(), "sizes look like 8, 1K, 128M, 1G");
    }
    if (opt.size.count() <= 0) throw gf::InputError({}, "--size", "must be more than 0 bytes", "e.g. --size 1G");
  }
  // A scenario file: its cluster, and its jobs' layout for the rules about jobs (sharp-trees).
  std::optional<gf::ScenarioSpec> scenario;
  gf::ClusterSpec spec;
  if (gf::is_scenario_file(o.where.name())) {
    scenario = gf::load_scenario_file(o.where.name());
    gf::ClusterOverrides over = o.where.overrides();
    if (!over.nodes) over.nodes = scenario->nodes;
    spec = gf::resolve_cluster(scenario->cluster, over);
    opt.scenario = &*scenario;
  } else {
    spec = o.where.resolve();
  }
  const gf::DoctorReport r = gf::run_doctor(spec, opt);
  if (o.format == "json") std::cout << json_text(gf::doctor_json(r)) << "\n";
  else std::cout << gf::doctor_text(r);
  if (!o.html.empty()) {
    write_file(o.html, gf::html::doctor_html(r, {command_line(*o.app), version_text()}), "--html");
    std::cerr << "gpufabric: wrote " << o.html << " (open it in a browser; it needs no network)\n";
  }
  // A provisioning pipeline stops on a bottleneck, not on a note: info findings (what the model
  // predicts costs this collective nothing measurable) leave the exit status at 0.
  for (const gf::Finding& f : r.findings)
    if (f.severity != gf::Severity::Info) return 1;
  return 0;
}

}  // namespace

Command add_doctor(CLI::App& root) {
  auto o = std::make_shared<DoctorCliOptions>();
  CLI::App* sub = root.add_subcommand(
      "doctor", "Find a cluster's bottlenecks, with evidence, predicted busbw before/after and the fix (exit 1 on any warning or critical finding)");
  o->where.add(sub, true, "Number of servers (replaces the cluster's count)");
  sub->add_option("--model", o->model, "Model for the predictions: analytical, flow or packet (default flow)");
  sub->add_option("--size", o->size, "Message size of the predicted collective (default 1G)");
  sub->add_option("--rule", o->rules, "Only this rule (repeat for several; gpufabric list rules)")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  sub->add_option("--format", o->format, "text or json");
  sub->add_option("--html", o->html, "Also write the findings as one self-contained HTML page");
  sub->add_flag("--force", o->force, "With --html: replace the file if it exists");
  o->app = sub;
  return {sub, [o] { return run_doctor_cmd(*o); }};
}

}  // namespace gfcli
