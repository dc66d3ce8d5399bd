// Two-tier folded Clos, not rail-aligned: NICs fill leaves in server-then-rail order, so a
// server's NICs share a leaf; every leaf spreads its uplinks evenly over every spine.
// Rules (clos.cpp): a leaf of radix R keeps up = floor(R / (1 + o)) ports for uplinks and
// down = min(R - up, round(o x up)) for NICs; leaves = ceil(NICs / down); spines = the fewest S
// (from ceil(leaves x up / R)) for which every leaf sends the same number of cables to every
// spine, uplinks rounded up to a multiple of S where the leaf has spare ports, and no spine needs
// more than R ports. A spine needs a port per leaf at least, so more than R leaves is an error
// pointing at fat_tree.
#include "topology/fabrics/clos.hpp"
#include "topology/fabrics/fabrics.hpp"

namespace gf {

std::unique_ptr<FabricBuilder> make_leaf_spine_fabric() {
  return std::make_unique<ClosFabric>(
      ClosStyle{"leaf_spine", false, 2},
      "2-tier Clos: NICs fill leaves server by server, every leaf joins every spine",
      "seed 000 (GPU Networking Basics, Part 1: leaf-spine); C. Clos, Bell System Technical Journal 1953");
}

}  // namespace gf
