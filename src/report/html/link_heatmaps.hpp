// Link utilisation as heatmaps, one per fabric tier (report/run_links.hpp's tiers), for the pages
// that have per-link loads: `run --html` (the scenario's) and `perf --html` (one size's call).
#pragma once

#include <string>
#include <vector>

#include "report/run_links.hpp"

namespace gf::html {

// One heatmap per non-empty tier (ids heat-inside, heat-nic, heat-leaf-spine, heat-spine-core,
// heat-other), one cell per directed link, each cell's tooltip its link, utilisation and bytes.
std::string link_heatmaps(const std::vector<std::vector<LinkHeat>>& tiers);

}  // namespace gf::html
