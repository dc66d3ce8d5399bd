// Google Cloud A3 Mega (a3-megagpu-8g): 8 H100 SXM on the HGX H100 board (NV18), 8 GPU NICs of
// 200 Gb/s carrying GPUDirect-TCPXO (TCP offload with a GPU-direct data path, not RDMA), two Xeon Platinum 8481C (52 cores, 2 threads
// each: 208 vCPUs).
#include "topology/servers/boards.hpp"
#include "topology/servers/servers.hpp"

namespace gf {

ServerTemplate make_gcp_a3_mega() {
  ServerTemplate t;
  t.name = "gcp-a3-mega";
  t.description = "Google Cloud A3 Mega: 8x H100 SXM, 4x NVSwitch gen3 (NV18), 8x 200G NICs with TCPXO (no RDMA)";
  t.source = "Google Cloud accelerator-optimized machine family documentation (a3-megagpu-8g: 8x H100 80GB, "
             "8 GPU NICs of 200 Gbps with GPUDirect-TCPXO, 208 vCPUs, Sapphire Rapids); "
             "validation/measured/gcp-a3mega-*.txt header; one NIC per GPU switch: estimate";
  t.gpu = h100_sxm5_80gb();
  // Each of the 8 GPU NICs is on its own VPC network: GPU i talks to GPU i of other VMs on NIC i.
  t.default_fabric = "rail_optimized";
  TemplateBuilder b(t);
  Hgx8Board board = hgx_h100_board();
  board.nic_tech = "tcpxo-200g";
  // gVNIC interfaces are not RDMA devices; "eth_<n>" is a placeholder name in rail order.
  board.nic_label = "eth_";
  board.affinity = {cores(0, 52, 104), cores(52, 52, 104)};
  add_hgx8(b, board);
  return t;
}

}  // namespace gf
