// Text and JSON renderings of `gpufabric topo` results.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "routing/topo_summary.hpp"

namespace gf {

std::string summary_text(const TopoSummary& s);
nlohmann::json summary_json(const TopoSummary& s);

// `topo --path A B`: every equal-cost route (up to a limit) hop by hop.
struct PathReport {
  RouteSample sample;
  std::vector<Path> routes;  // enumerated, possibly fewer than sample.equal_cost
};
std::string path_text(const Cluster& c, const PathReport& r);
nlohmann::json path_json(const Cluster& c, const PathReport& r);

}  // namespace gf
