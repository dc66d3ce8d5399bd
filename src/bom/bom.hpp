// A bill of materials: every item a cluster needs, counted from the same ClusterCounts that
// `gpufabric topo` prints (topology/count_cluster), priced and powered from a PriceTable, with
// the cable kinds chosen from a Geometry. Totals are sums of the lines, nothing else.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bom/geometry.hpp"
#include "bom/price_table.hpp"
#include "topology/cluster_spec.hpp"

namespace gf {

struct BomLine {
  std::string group;    // "compute", "scale-out", "switches", "nvlink", "cabling"
  std::string item;     // the price table's key: "switch/quantum2-qm9700"
  std::string what;     // "leaf switch", "nic-leaf cable, in row", ...
  std::string reach;    // cables: "<= 5.4 m"; empty otherwise
  double quantity = 0;  // in `unit`s (metres of fibre are fractional)
  PriceUnit unit = PriceUnit::Each;
  bool priced = false;    // the table has the item
  bool included = false;  // counted, but its price and power are inside another line (NICs of a DGX)
  double unit_usd = 0, unit_typical_w = 0, unit_max_w = 0;
  // quantity x unit figures (0 when not priced or included)
  double usd() const { return priced && !included ? quantity * unit_usd : 0; }
  double typical_w() const { return priced && !included ? quantity * unit_typical_w : 0; }
  double max_w() const { return priced && !included ? quantity * unit_max_w : 0; }
};

struct BomTotals {
  double usd = 0, typical_w = 0, max_w = 0;
  int64_t gpus = 0;
  double usd_per_gpu() const { return gpus > 0 ? usd / static_cast<double>(gpus) : 0; }
  double typical_w_per_gpu() const { return gpus > 0 ? typical_w / static_cast<double>(gpus) : 0; }
  double max_w_per_gpu() const { return gpus > 0 ? max_w / static_cast<double>(gpus) : 0; }
};

struct Bom {
  std::string name;
  ClusterCounts counts;
  Geometry geometry;
  int64_t racks = 0, rows = 0;
  std::vector<BomLine> lines;
  std::vector<std::string> unpriced;  // items the table lacks (their lines count 0)
  std::string prices_origin;          // PriceTable::origin()
  // Physical cables and optics, over the cabling lines (for `compare`).
  int64_t cables = 0, transceivers = 0;

  BomTotals totals() const;  // the sum of the lines
};

// Throws InputError for a cluster count_cluster() refuses.
Bom make_bom(const ClusterSpec& spec, const PriceTable& prices);

}  // namespace gf
