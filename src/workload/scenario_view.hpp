// What a scenario's run looked like from the inside, for the writers that draw it (the HTML
// page's link heatmap, the Perfetto timeline): the cluster, its router, the model after the run
// (its carried bytes per link), every job as the engine ran it and the engine's timings. Valid
// only during the ScenarioOptions::on_run call that hands it over.
#pragma once

#include <functional>
#include <span>

#include "engine/job_runner.hpp"
#include "model/model.hpp"
#include "routing/router.hpp"
#include "routing/routing_policy.hpp"
#include "topology/cluster.hpp"

namespace gf {

struct ScenarioView {
  const Cluster& cluster;
  const Router& router;
  const Model& model;
  std::span<const Job> jobs;
  const JobsRun& run;
  RoutingPolicy policy;
};

using ScenarioObserver = std::function<void(const ScenarioView&)>;

}  // namespace gf
