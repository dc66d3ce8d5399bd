#include "collective/algorithm.hpp"
#include "collective/algorithms/algorithms.hpp"

namespace gf {

const std::vector<std::unique_ptr<Algorithm>>& algorithm_registry() {
  // Immutable table of stateless algorithms, in the order `gpufabric list algorithms` prints.
  static const std::vector<std::unique_ptr<Algorithm>> kAlgorithms = [] {
    std::vector<std::unique_ptr<Algorithm>> v;
    for (auto make : {make_ring, make_tree, make_nvls, make_nvlstree, make_collnet_direct, make_collnet_chain, make_pat,
                      make_hierarchical, make_rhd, make_direct, make_pairwise, make_sendrecv})
      v.push_back(make());
    return v;
  }();
  return kAlgorithms;
}

const Algorithm* find_algorithm(const std::string& name) {
  for (const auto& a : algorithm_registry())
    if (a->name() == name) return a.get();
  return nullptr;
}

std::vector<std::string> algorithm_names() {
  std::vector<std::string> out;
  for (const auto& a : algorithm_registry()) out.push_back(a->name());
  return out;
}

Bytes piece(Bytes total, int parts, int index) {
  int64_t base = total.count() / parts, extra = total.count() % parts;
  return Bytes(base + (index < extra ? 1 : 0));
}

}  // namespace gf
