// Factory functions of the built-in fabric builders, one per file in this folder.
#pragma once

#include <memory>

#include "topology/fabric.hpp"

namespace gf {

std::unique_ptr<FabricBuilder> make_single_switch_fabric();

}  // namespace gf
