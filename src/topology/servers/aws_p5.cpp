// AWS p5.48xlarge: 8 H100 SXM on the HGX H100 board (NV18), 32 EFAv2 interfaces of 100 Gb/s
// (4 per GPU, 3,200 Gb/s per instance), two AMD EPYC 7R13 (48 cores, 2 threads each: 192 vCPUs).
#include "topology/servers/boards.hpp"
#include "topology/servers/servers.hpp"

namespace gf {

ServerTemplate make_aws_p5() {
  ServerTemplate t;
  t.name = "aws-p5";
  t.description = "AWS p5.48xlarge: 8x H100 SXM, 4x NVSwitch gen3 (NV18), 32x EFAv2 100G (4 per GPU)";
  t.source = "AWS EC2 P5 instance documentation (8x H100 80GB, 3,200 Gbps EFAv2 over 32 interfaces, 192 vCPUs, "
             "AMD EPYC 7R13); validation/measured/aws-p5-*.txt header; placement of each GPU's 4 EFA interfaces "
             "on its PCIe switch: estimate";
  t.gpu = h100_sxm5_80gb();
  t.default_fabric = "rail_optimized";
  TemplateBuilder b(t);
  Hgx8Board board = hgx_h100_board();
  board.nics_per_gpu = 4;
  board.nic_tech = "efa-100g";
  // EFA device names encode their PCI address (rdmapNNsM); "efa_<n>" is a placeholder in rail order.
  board.nic_label = "efa_";
  board.affinity = {cores(0, 48, 96), cores(48, 48, 96)};
  board.socket_link = "amd-infinity-fabric-socket";
  add_hgx8(b, board);
  return t;
}

}  // namespace gf
