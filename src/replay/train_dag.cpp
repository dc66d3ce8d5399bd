#include "replay/train_dag.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "replay/replay.hpp"
#include "replay/trace_loader.hpp"
#include "replay/train_chakra.hpp"

namespace gf {

DagStep run_training_dag(const Cluster& cluster, const Router& router, const ModelShape& model,
                         const TrainLayout& layout, const TrainOptions& options, const TrainingGpu& gpu) {
  if (layout.zero == 3 && layout.dp > 1 && layout.overlap_dp)
    throw InputError({}, "--zero",
                     "--step dag does not express ZeRO 3's prefetched gathers and overlapped reduce-scatters "
                     "(`dp` in --overlap) yet",
                     "use --overlap pp (every ZeRO 3 call on the layer's chain), or --zero 0..2, or drop --step dag");
  Trace trace = training_trace(cluster, router, model, layout, options, gpu, /*names=*/false);
  trace.source = "train --step dag";
  finish_trace(trace);
  ReplayOptions ro;
  ro.network_model = options.network_model;
  ro.contention = true;
  const ReplayResult r = run_replay(cluster, router, trace, ro);
  DagStep d;
  d.step_time_s = r.iteration_s;
  d.uncontended_s = r.uncontended_iteration_s;
  d.contention_s = r.iteration_s - r.uncontended_iteration_s;
  d.ranks = r.ranks;
  d.nodes = r.nodes;
  d.slowest_rank = r.slowest_rank;
  const double nr = r.ranks > 0 ? static_cast<double>(r.ranks) : 1.0;
  for (const ReplayCommStats& c : r.comm)
    d.comm.push_back({c.collective, static_cast<double>(c.calls) / nr, c.simulated_s / nr});
  d.notes.push_back(fmt::format("the step as one DAG: {} ranks, {} nodes, replayed on the {} network model", r.ranks,
                                r.nodes, options.network_model));
  for (const std::string& n : r.notes) d.notes.push_back(n);
  return d;
}

}  // namespace gf
