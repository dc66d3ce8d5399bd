// `gpufabric bom` output: the lines, the totals (their sums), per-GPU figures and every geometry
// assumption, as text, CSV or JSON.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "bom/bom.hpp"

namespace gf {

std::string bom_text(const Bom& b);
std::string bom_csv(const Bom& b);
nlohmann::ordered_json bom_json(const Bom& b);
// "$1,234,567"
std::string dollars(double usd);
// The geometry as one line of assumptions.
std::string geometry_text(const Geometry& g);

}  // namespace gf
