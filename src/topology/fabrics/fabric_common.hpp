// Helpers shared by the fabric builders: which switch model and link technology a spec resolves
// to, and the radix checks every builder makes.
#pragma once

#include <string>

#include "topology/cluster.hpp"
#include "topology/fabric.hpp"

namespace gf {

struct ResolvedSwitch {
  std::string model;  // switch model name, or "custom"
  int radix = 0;
  Time latency;       // forwarding latency, added to links that enter the switch
  TechId link = 0;    // technology of switch-to-switch and NIC-to-switch links
  std::string link_name;
};

// spec.link (or the NICs' technology), spec.switch_model (or the catalog default for that
// technology) and spec.switch_radix (or the model's radix). Throws InputError at spec.where.
ResolvedSwitch resolve_switch(const FabricSpec& spec, const FabricShape& shape, const LinkCatalog& cat);

// Throws InputError "needs N ports per switch but the switch has R" at spec.where.
void require_radix(const FabricSpec& spec, const std::string& what, int64_t needed, int radix,
                   const std::string& fix);

inline int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

}  // namespace gf
