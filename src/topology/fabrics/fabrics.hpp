// Factory functions of the built-in fabric builders, one per file in this folder.
#pragma once

#include <memory>

#include "topology/fabric.hpp"

namespace gf {

std::unique_ptr<FabricBuilder> make_single_switch_fabric();
std::unique_ptr<FabricBuilder> make_full_mesh_fabric();
std::unique_ptr<FabricBuilder> make_leaf_spine_fabric();
std::unique_ptr<FabricBuilder> make_fat_tree_fabric();
std::unique_ptr<FabricBuilder> make_rail_optimized_fabric();
std::unique_ptr<FabricBuilder> make_dragonfly_fabric();
std::unique_ptr<FabricBuilder> make_torus_fabric();

}  // namespace gf
