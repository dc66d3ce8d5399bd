// Designs side by side (`gpufabric compare`): each design's hardware, power and cost from its
// bill of materials, its fabric's bisection and hop count from the counts, and one collective's
// busbw from the same nccl-tests sweep `gpufabric perf` runs (workload/run_sweep), so a purchase
// can be decided on busbw per dollar.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "bom/bom.hpp"
#include "workload/sweep.hpp"

namespace gf {

struct DesignFigures {
  std::string name;
  ClusterSpec spec;  // the design evaluated
  Bom bom;
  int64_t gpus = 0, switches = 0;
  double bisection_gbps = 0;     // per direction, Gb/s
  int max_switch_hops = 0;       // NIC to NIC
  std::optional<SweepRow> perf;  // the collective at the asked size, when asked
  // busbw (GB/s) per million dollars of the whole bill; 0 when not run or not priced.
  double busbw_per_musd() const;
};

// The figures of one design; `sweep` (one size) runs the collective on all of its GPUs. Throws
// InputError for a design that cannot be built (too large to simulate: kMaxBuildLinks).
DesignFigures evaluate_design(const ClusterSpec& spec, const std::string& name, const PriceTable& prices,
                              const std::optional<SweepOptions>& sweep);

std::string compare_text(const std::vector<DesignFigures>& designs, const std::string& collective_label);
nlohmann::ordered_json compare_json(const std::vector<DesignFigures>& designs, const std::string& collective_label);

}  // namespace gf
