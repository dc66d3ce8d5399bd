#include "topology/fabric.hpp"
#include "topology/fabrics/fabrics.hpp"

namespace gf {

const std::vector<std::unique_ptr<FabricBuilder>>& fabric_registry() {
  // Immutable after first use: a table of stateless builders, not simulation state.
  static const std::vector<std::unique_ptr<FabricBuilder>> kBuilders = [] {
    std::vector<std::unique_ptr<FabricBuilder>> v;
    v.push_back(make_single_switch_fabric());
    v.push_back(make_full_mesh_fabric());
    v.push_back(make_leaf_spine_fabric());
    v.push_back(make_fat_tree_fabric());
    v.push_back(make_rail_optimized_fabric());
    v.push_back(make_dragonfly_fabric());
    v.push_back(make_torus_fabric());
    return v;
  }();
  return kBuilders;
}

const FabricBuilder& find_fabric(const std::string& kind, const SourceLocation& where) {
  std::vector<std::string> names;
  for (const auto& b : fabric_registry()) {
    if (b->name() == kind) return *b;
    names.push_back(b->name());
  }
  throw InputError(where, "fabric.kind", "unknown fabric kind '" + kind + "'", suggest(kind, names));
}

}  // namespace gf
