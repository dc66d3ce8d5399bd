// gpufabric sweep SPEC.yaml [-j N] [--format F]: the perf command at every point of the file's
// grid, as `perf --set` runs it (docs/sweeps.md).
#include <gpufabric/gpufabric.hpp>
#include <gpufabric/param_sweep.hpp>
#include <gpufabric/sweep_file.hpp>

#include "commands.hpp"
#include "sweep_run.hpp"

namespace gfcli {
namespace {

struct SweepCommand {
  std::string spec, format;
  int64_t jobs = 1;
  CLI::Option* format_opt = nullptr;
};

int run_sweep_file(const SweepCommand& c) {
  const gf::SweepFile f = gf::load_sweep_file(c.spec);
  SweepArgs file;
  file.from_file = true;
  file.file_grid = f.grid;
  file.file_zip = f.zip;
  // The file's perf words parsed by the perf command itself, so they mean what they mean there.
  CLI::App app;
  Command perf = add_perf(app, &file);
  std::vector<std::string> words = {"perf"};
  words.insert(words.end(), f.perf.begin(), f.perf.end());
  if (!f.cluster.empty()) words.insert(words.end(), {"--cluster", f.cluster});
  if (c.jobs != 1) words.insert(words.end(), {"-j", std::to_string(c.jobs)});
  if (!c.format.empty()) words.insert(words.end(), {"--format", c.format});
  std::vector<std::string> reversed(words.rbegin(), words.rend());  // CLI11 takes them last first
  try {
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    throw gf::InputError(f.perf_where, "perf", e.what(), "the words are `gpufabric perf`'s (gpufabric perf --help)");
  }
  return perf.run();
}

}  // namespace

Command add_sweep(CLI::App& root) {
  auto c = std::make_shared<SweepCommand>();
  CLI::App* sub = root.add_subcommand(
      "sweep", "Run perf at every point of a sweep file's grid (cluster keys, algo, model, NCCL_*): one tidy table");
  sub->add_option("spec", c->spec, "Sweep file (YAML: cluster, perf, grid, zip; docs/sweeps.md)")->required();
  sub->add_option("-j,--jobs", c->jobs, "Points run on this many threads at once (default 1); mpirun -n K splits them over ranks too");
  sub->add_option("--format", c->format, "text (default), json or csv");
  return {sub, [c] { return run_sweep_file(*c); }};
}

}  // namespace gfcli
