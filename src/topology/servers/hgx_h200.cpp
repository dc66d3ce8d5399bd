// NVIDIA HGX H200 8-GPU: the HGX H100 board with H200 (141 GB HBM3e at 4.8 TB/s; same NVLink4:
// 18 links, 900 GB/s bidirectional; same Hopper tensor cores). Host as in hgx-h100 (estimate).
#include "topology/servers/boards.hpp"
#include "topology/servers/servers.hpp"

namespace gf {

ServerTemplate make_hgx_h200() {
  ServerTemplate t;
  t.name = "hgx-h200";
  t.description = "NVIDIA HGX H200 8-GPU: 8x H200 SXM 141GB, 4x NVSwitch gen3 (NV18), 8x ConnectX-7 400G";
  t.source = "NVIDIA H200 Tensor Core GPU datasheet (141 GB HBM3e, 4.8 TB/s, NVLink 900 GB/s, 989 TFLOPS dense BF16); "
             "host CPUs and NIC placement: estimate (typical OEM build)";
  t.gpu = {"H200-SXM-141GB", "hopper", Bandwidth::gBps(4800), 989, "NVIDIA H200 Tensor Core GPU datasheet"};
  t.default_fabric = "rail_optimized";
  TemplateBuilder b(t);
  add_hgx8(b, hgx_h100_board());
  return t;
}

}  // namespace gf
