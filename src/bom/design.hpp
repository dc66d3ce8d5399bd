// `gpufabric design`: every buildable design for N GPUs of one server over a grid of fabric kinds,
// link technologies, oversubscriptions and planes; each costed from its bill of materials and
// evaluated with one collective on the analytical model (the same sweep `perf --model analytical`
// runs), then the Pareto front of cost against busbw; the best few again on the flow model.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "bom/compare.hpp"

namespace gf {

struct DesignQuery {
  int64_t gpus = 0;
  std::string server;              // a built-in server (gpufabric list presets)
  std::vector<std::string> kinds;  // empty: rail_optimized and fat_tree
  std::vector<std::string> links;  // empty: the server's own NIC technology
  std::vector<double> oversubscription{1};
  std::vector<int> planes{1};
  std::optional<double> budget_usd;            // designs above it are listed, not ranked
  std::string objective = "busbw_per_dollar";  // or "busbw", "cost"
  SweepOptions sweep;                          // one size; model "analytical" unless told
  // The best this many ranked designs run again on the flow model (contention, ECMP collisions
  // charged); 0: none.
  int flow_top = 0;
};

struct DesignCandidate {
  std::string label;  // "rail_optimized ib-ndr 1:1 x1"
  std::string kind, link;
  double oversubscription = 1;
  int planes = 1;
  std::string refused;  // why it cannot be built ("" when it can)
  bool over_budget = false;
  bool pareto = false;           // on the cost / busbw front among the buildable, in-budget designs
  std::optional<SweepRow> flow;  // the same collective on the flow model (DesignQuery::flow_top)
  std::optional<DesignFigures> figures;
};

// Throws InputError for a bad query (unknown server, kind, link or objective; no GPUs).
std::vector<DesignCandidate> search_designs(const DesignQuery& q, const PriceTable& prices);

std::string design_text(const DesignQuery& q, const std::vector<DesignCandidate>& c);
nlohmann::ordered_json design_json(const DesignQuery& q, const std::vector<DesignCandidate>& c);

}  // namespace gf
