// The public API of bills of materials, power and cost (docs/bom.md): what `gpufabric bom`,
// `compare` and `design` use.
#pragma once

#include "bom/bom.hpp"
#include "bom/bom_report.hpp"
#include "bom/compare.hpp"
#include "bom/design.hpp"
#include "bom/geometry.hpp"
#include "bom/price_table.hpp"
