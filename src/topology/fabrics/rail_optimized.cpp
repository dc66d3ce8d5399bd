// Rail-optimized Clos (NVIDIA DGX SuperPOD): NIC r of every server goes to a leaf of rail r, so
// same-rank GPUs of different servers are one leaf apart; leaves of all rails share the spines.
// A 64-port NDR leaf with 32 down ports serves 32 servers of one rail: 32 DGX H100 (one scalable
// unit) -> 8 leaves + 4 spines, 256 NIC-leaf and 256 leaf-spine cables, as in NVIDIA's DGX
// SuperPOD reference architecture.
// tiers: 0 keeps 2 tiers while the spines can reach every leaf (leaves <= radix: 128 DGX H100 ->
// 32 leaves + 16 spines), then 3: pods hold floor(down2 / rails) leaves per rail (4 SUs of 32
// servers with 64-port switches) under pod spines, and core groups join the pods. A 3-tier plane
// of R-port switches holds R pods; 16,384 DGX H100 need planes: 2 (see fat_tree.cpp).
#include "topology/fabrics/clos.hpp"
#include "topology/fabrics/fabrics.hpp"

namespace gf {

std::unique_ptr<FabricBuilder> make_rail_optimized_fabric() {
  return std::make_unique<ClosFabric>(
      ClosStyle{"rail_optimized", true, 3},
      "rail-aligned Clos: NIC r of every server on a leaf of rail r, rails joined at the spines (SuperPOD)",
      "NVIDIA DGX SuperPOD reference architecture (DGX H100): scalable units of 32 nodes, rail-optimized "
      "leaves, spine and core groups");
}

}  // namespace gf
