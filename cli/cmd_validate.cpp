// gpufabric validate [--dataset NAME]... [--model analytical|flow] [--routing ecmp|spray|adaptive] [--format text|json|markdown]
//                    [--manifest FILE] [--measured DIR] [--check]
// Predicts every measured nccl-tests table listed in validation/datasets.yaml and prints predicted
// vs measured busbw per size, with per-set error statistics. `--format markdown` is what
// docs/accuracy.md holds (scripts/gen_accuracy.sh). accuracy/validate runs and compares;
// report/validation_report prints.
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include <gpufabric/gpufabric.hpp>

#include "commands.hpp"
#include "report_file.hpp"

namespace gfcli {

namespace {

namespace fs = std::filesystem;
using gf::ValidationReport;

// ---------------------------------------------------------------------------------------------

struct ValidateOptions {
  std::vector<std::string> datasets;
  std::string model = gf::default_model_name();
  std::string routing = "ecmp";
  std::string format = "text";
  std::string manifest;
  std::string measured;
  bool check = false;
  std::string html;  // --html FILE: predicted against measured as charts
  bool force = false;
  const CLI::App* app = nullptr;
};

// validation/datasets.yaml in the current folder, else beside the binary's build folder
// (build/cli/gpufabric -> ../../validation), so the command works from the repository root and
// from a build tree.
std::string find_manifest() {
  const fs::path rel = fs::path("validation") / "datasets.yaml";
  if (fs::exists(rel)) return rel.string();
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  for (fs::path p = exe.parent_path(); !ec && !p.empty() && p != p.root_path(); p = p.parent_path())
    if (fs::exists(p / rel)) return (p / rel).string();
  throw gf::InputError({}, "--manifest", "cannot find validation/datasets.yaml",
                       "run from the repository root or pass --manifest PATH");
}

std::string measured_override(const ValidateOptions& o) {
  if (!o.measured.empty()) return o.measured;
  if (const char* env = std::getenv("GPUFABRIC_SHARED_DIR")) return (fs::path(env) / "validation" / "measured").string();
  return "";
}

int run_validate(const ValidateOptions& o) {
  gf::require_model(o.model, {}, "--model");
  if (!o.html.empty()) check_new_file(o.html, o.force, "--html");
  std::string manifest_path = o.manifest.empty() ? find_manifest() : o.manifest;
  gf::ValidationManifest m = gf::load_manifest(manifest_path, measured_override(o));
  if (!fs::is_directory(m.measured_dir))
    throw gf::InputError({}, "--measured", "no measured data at " + m.measured_dir,
                         "check out ../shared beside the repository, set GPUFABRIC_SHARED_DIR or pass --measured DIR");

  std::vector<const gf::DatasetSpec*> chosen;
  for (const auto& want : o.datasets) {
    size_t before = chosen.size();
    for (const auto& d : m.datasets)
      if (d.name == want || d.file == want) chosen.push_back(&d);
    if (chosen.size() == before) {
      std::vector<std::string> names;
      for (const auto& d : m.datasets) names.push_back(d.name);
      throw gf::InputError({}, "--dataset", "no data set '" + want + "'", gf::suggest(want, names));
    }
  }
  if (o.datasets.empty())
    for (const auto& d : m.datasets) chosen.push_back(&d);

  ValidationReport rep;
  rep.model = o.model;
  rep.manifest = o.manifest.empty() ? "validation/datasets.yaml" : o.manifest;
  rep.calibration = m.calibration;
  const gf::RoutingPolicy routing = *gf::parse_routing_policy(o.routing);
  if (routing != gf::RoutingPolicy::Ecmp) rep.model += " (" + o.routing + " routing)";
  for (const auto* d : chosen) rep.results.push_back(gf::validate(*d, o.model, routing));
  if (o.datasets.empty()) {
    std::set<std::string> used;
    for (const auto& d : m.datasets) used.insert(d.file);
    for (const auto& e : fs::directory_iterator(m.measured_dir))
      if (e.is_regular_file() && !used.count(e.path().filename().string()))
        rep.unlisted_files.push_back(e.path().filename().string());
    std::sort(rep.unlisted_files.begin(), rep.unlisted_files.end());
  }

  if (!o.html.empty()) {
    write_file(o.html, gf::html::validate_html(rep, {command_line(*o.app), version_text()}), "--html");
    std::cerr << "gpufabric: wrote " << o.html << " (open it in a browser; it needs no network)\n";
  }
  if (o.format == "json") std::cout << json_text(report_json(rep)) << "\n";
  else if (o.format == "markdown") std::cout << report_markdown(rep);
  else std::cout << report_text(rep);

  if (!o.check) return 0;
  for (const auto& v : rep.results)
    if (!v.error.empty() || v.busbw_ok() == false || v.floor_ok() == false) return 1;
  return 0;
}

}  // namespace

Command add_validate(CLI::App& root) {
  auto o = std::make_shared<ValidateOptions>();
  CLI::App* sub = root.add_subcommand("validate", "Predict measured nccl-tests tables and report the error per data set");
  sub->add_option("--dataset", o->datasets, "Data set name or measured file name (repeatable; default: all)");
  sub->add_option("--model", o->model, "Fidelity level (gpufabric list fidelity)");
  sub->add_option("--routing", o->routing, "Fabric paths: ecmp (default), spray or adaptive")
      ->check(CLI::IsMember(gf::routing_policy_names()));
  sub->add_option("--format", o->format, "text, json or markdown (docs/accuracy.md)")
      ->check(CLI::IsMember({"text", "json", "markdown"}));
  sub->add_option("--manifest", o->manifest, "Data-set manifest (default: validation/datasets.yaml)");
  sub->add_option("--measured", o->measured,
                  "Folder of measured tables (default: the manifest's measured_dir, or $GPUFABRIC_SHARED_DIR/validation/measured)");
  sub->add_flag("--check", o->check, "Exit 1 when a data set misses a target or cannot be predicted");
  sub->add_option("--html", o->html,
                  "Also write one self-contained HTML page: per data set, busbw against size, measured with the "
                  "target's band beside predicted (docs/reports.md)");
  sub->add_flag("--force", o->force, "With --html: replace the file if it exists");
  o->app = sub;
  return {sub, [o] { return run_validate(*o); }};
}

}  // namespace gfcli
