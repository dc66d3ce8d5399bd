#include "sweep_run.hpp"

#include <iostream>

#include "commands.hpp"
#include "guard.hpp"
#include "mpi_ranks.hpp"
#include "progress.hpp"

namespace gfcli {
namespace {

// `KEY=V1,V2,...` as an axis. Values are YAML scalars, so a value holding a comma (a list) is
// for a sweep file, not for --set.
gf::SweepAxis parse_set(const std::string& kv) {
  const size_t eq = kv.find('=');
  if (eq == std::string::npos || eq == 0)
    throw gf::InputError({}, "--set", "'" + kv + "' is not KEY=V1,V2,...", "e.g. --set fabric.oversubscription=1,2,4");
  gf::SweepAxis a;
  a.key = kv.substr(0, eq);
  a.where = {"--set", 0, 0};
  const std::string list = kv.substr(eq + 1);
  size_t start = 0;
  for (;;) {
    const size_t comma = list.find(',', start);
    a.values.push_back(list.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (a.values.back().empty())
      throw gf::InputError({}, "--set", "'" + kv + "' has an empty value", "e.g. --set servers=2,4,8");
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return a;
}

}  // namespace

void SweepArgs::add(CLI::App* sub) {
  sub->add_option("--set", sets,
                  "Sweep a key over values, KEY=V1,V2,... (repeatable): a cluster YAML key path (servers, "
                  "fabric.oversubscription, fabric.link, fabric.kind, ...) or algo, proto, model, routing, seed, "
                  "NCCL_*; prints one row per (point, size) (docs/sweeps.md)");
  sub->add_flag("--zip", zip, "With --set: the lists advance together (equal lengths) instead of a full grid");
  sub->add_option("-j,--jobs", jobs, "With --set: points run on this many threads at once (default 1)");
}

int run_param_perf(const SweepArgs& a, const ClusterArgs& where, int64_t gpus_per_node, const gf::SweepOptions& base,
                   const std::string& format) {
  if (a.jobs < 1 || a.jobs > 1024)
    throw gf::InputError({}, "-j", "threads must be from 1 to 1024, got " + std::to_string(a.jobs), "e.g. -j 2");
  if (a.zip && a.sets.empty()) throw gf::InputError({}, "--zip", "zips --set lists, and none was given", "add --set KEY=V1,V2");
  std::vector<gf::SweepAxis> axes;
  for (const std::string& kv : a.sets) axes.push_back(parse_set(kv));
  gf::ParamSweepRequest req;
  req.cluster = where.name();
  req.over = where.overrides();
  req.gpus_per_node = gpus_per_node;
  req.options = base;
  req.options.compare_choices = false;  // the table has no note column to show a faster choice in
  if (a.from_file) {
    std::vector<gf::SweepAxis> grid = a.file_grid;
    if (!a.zip) grid.insert(grid.end(), axes.begin(), axes.end());
    req.grid = gf::ParamGrid::combined(grid, a.zip ? axes : a.file_zip);
    if (a.zip && !a.file_zip.empty())
      throw gf::InputError({}, "--zip", "the sweep file has a zip: map already", "put the keys in its zip: map");
  } else {
    req.grid = a.zip ? gf::ParamGrid::zipped(axes) : gf::ParamGrid::full(axes);
  }

  MpiRanks mpi;
  // Every rank checks the whole grid, so a bad value fails at once everywhere; only rank 0 says so.
  std::optional<gf::ParamSweep> sweep;
  try {
    sweep.emplace(std::move(req));
  } catch (const gf::InputError&) {
    if (mpi.rank() == 0) throw;
    return kBadInput;
  }
  // Ranks take every K-th point of the longest-first order, so each gets long and short ones;
  // within a rank, -j threads take its points one by one as they come free.
  std::vector<size_t> mine;
  for (size_t k = static_cast<size_t>(mpi.rank()); k < sweep->order().size(); k += static_cast<size_t>(mpi.size()))
    mine.push_back(sweep->order()[k]);
  Progress progress("gpufabric sweep");
  std::optional<gf::ParamPointError> error;
  std::vector<gf::ParamPointResult> results;
  if (!mine.empty())
    results = sweep->run(static_cast<int>(a.jobs), mine, &error,
                         [&](size_t done, size_t total, const gf::ParamPointResult& last) {
                           if (mpi.rank() != 0) return;
                           // The simulated time of the point's calls, one per size, added to the line.
                           gf::Time simulated = gf::Time::zero();
                           for (const gf::SweepRow& row : last.rows) simulated = simulated + row.time;
                           progress.end_run(0, simulated);
                           progress.update(done, total, "points");
                         });
  else
    results.resize(sweep->size());
  progress.finish();
  const std::vector<std::string> parts = mpi.gather(gf::encode_param_results(results, error));
  if (mpi.rank() != 0) return 0;
  if (mpi.size() > 1) {
    results.assign(sweep->size(), {});
    error.reset();
    for (const std::string& p : parts)
      if (auto e = gf::decode_param_results(p, results); e && (!error || e->point < error->point)) error = e;
  }
  if (error) gf::throw_point_error(*error);
  const gf::ParamSweepTable table = sweep->table(std::move(results));
  if (format == "json") std::cout << json_text(gf::param_sweep_json(table)) << "\n";
  else if (format == "csv") std::cout << gf::param_sweep_csv(table);
  else std::cout << gf::param_sweep_text(table);
  return 0;
}

}  // namespace gfcli
