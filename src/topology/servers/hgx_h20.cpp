// NVIDIA HGX H20 8-GPU: the HGX H100 board (4 NVSwitch gen3, 18 NVLink4 per GPU, 900 GB/s
// bidirectional) with H20: 96 GB HBM3 at 4.0 TB/s and 148 TFLOPS dense BF16, the export-limited
// Hopper. Host as in hgx-h100 (estimate).
#include "topology/servers/boards.hpp"
#include "topology/servers/more_servers.hpp"

namespace gf {

ServerTemplate make_hgx_h20() {
  ServerTemplate t;
  t.name = "hgx-h20";
  t.description = "NVIDIA HGX H20 8-GPU: 8x H20 96GB, 4x NVSwitch gen3 (NV18), 8x ConnectX-7 400G";
  t.source =
      "NVIDIA H20 product brief (96 GB HBM3, 4.0 TB/s, NVLink 900 GB/s, BF16 148 / FP8 296 TFLOPS dense); "
      "host CPUs and NIC placement: estimate (as hgx-h100)";
  t.gpu = {"H20-96GB", "hopper", Bandwidth::gBps(4000), 148, "NVIDIA H20 product brief"};
  t.default_fabric = "rail_optimized";
  TemplateBuilder b(t);
  add_hgx8(b, hgx_h100_board());
  return t;
}

}  // namespace gf
