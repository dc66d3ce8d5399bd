// `gpufabric run SCENARIO --html FILE`: the scenario as a page: the run's facts, per job its calls
// (time, busbw, time alone and the slowdown when jobs share the cluster) and the links its routes
// shared with another job, then link utilisation as a heatmap tier by tier (inside servers, the
// servers' NIC links, leaf-spine, spine-core) and the most loaded links.
#pragma once

#include <string>

#include "report/html/html_page.hpp"
#include "report/run_links.hpp"
#include "workload/scenario.hpp"

namespace gf::html {

std::string run_html(const ScenarioResult& r, const RunLinks& links, const ReportMeta& meta);

}  // namespace gf::html
