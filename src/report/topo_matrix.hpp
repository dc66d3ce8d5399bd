// `nvidia-smi topo -m` rendered from a TopoMatrix (topology/pcie_matrix.hpp): the same text layout
// nvidia-smi prints (tab-separated cells, the affinity columns, the legend and the NIC legend), so
// a user can put the simulated server next to the real one; and a small JSON object of the same.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "topology/pcie_matrix.hpp"

namespace gf {

// nvidia-smi separates cells with tabs; `expand_tabs` turns them into spaces at 8-column stops, as a
// terminal shows them (and as the samples in validation/formats/nvidia-smi-topo/ are stored).
std::string topo_matrix_text(const TopoMatrix& m, bool expand_tabs = false);

// {"server", "gpus": [...], "nics": [{"name", "device"}], "columns": [...],
//  "rows": [{"name", "cells": [...], GPUs also "cpu_affinity", "numa_affinity", "gpu_numa_id"}],
//  "nv_links": family of the NV# cells ("NVLink", "xGMI", ...) when there are any}
nlohmann::json topo_matrix_json(const TopoMatrix& m);

// Tabs to spaces with stops every `stop` columns.
std::string expand_tabs(std::string_view text, int stop = 8);

}  // namespace gf
