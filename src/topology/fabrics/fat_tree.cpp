// Fat-tree: leaves filled server by server, pods of leaves under aggregation ("spine") switches,
// and a core tier joining the pods. With R-port switches and o = 1 a full design is the k-ary
// fat-tree of Al-Fares, Loukissas and Vahdat (SIGCOMM 2008): k pods of k/2 edge and k/2
// aggregation switches, (k/2)^2 cores, k^3/4 hosts. Any other NIC count fills pods of
// down2 = R/2 leaves in order (the last pod partial) and gets just enough cores for its pod
// uplinks; fabric.oversubscription applies at the leaves, spine_oversubscription at the
// aggregation tier. tiers: 0 picks 2 tiers while one spine layer reaches every leaf.
//
// Beyond k^3/4 NICs per plane (65,536 for 64-port NDR switches) three tiers cannot hold the
// design. 131,072 DGX H100 GPUs (16,384 servers x 8 NDR NICs) then need planes: 2 (rails 0,2,4,6
// on one 65,536-NIC fat-tree, 1,3,5,7 on another, as large clusters are cabled) or 128-port
// switches; the error says which plane count fits rather than silently adding one.
#include "topology/fabrics/clos.hpp"
#include "topology/fabrics/fabrics.hpp"

namespace gf {

std::unique_ptr<FabricBuilder> make_fat_tree_fabric() {
  return std::make_unique<ClosFabric>(
      ClosStyle{"fat_tree", false, 3}, "3-tier fat-tree (k-ary when full): leaves, pod spines, cores",
      "M. Al-Fares, A. Loukissas, A. Vahdat, A Scalable, Commodity Data Center Network Architecture, SIGCOMM 2008");
}

}  // namespace gf
