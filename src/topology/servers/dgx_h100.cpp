// NVIDIA DGX H100: 8 H100 SXM5 on 4 third-generation NVSwitches (18 NVLink4 per GPU, split 5/4/4/5
// over the four chips), 8 ConnectX-7 400 Gb/s compute NICs, each paired with one GPU under a PCIe
// Gen5 switch, two Xeon 8480C sockets (56 cores, 2 threads each) with GPUs 0-3 on socket 0.
#include "topology/servers/boards.hpp"
#include "topology/servers/servers.hpp"

namespace gf {

ServerTemplate make_dgx_h100() {
  ServerTemplate t;
  t.name = "dgx-h100";
  t.description = "NVIDIA DGX H100: 8x H100 SXM5, 4x NVSwitch gen3 (NV18), 8x ConnectX-7 NDR 400G";
  t.source = "NVIDIA DGX H100 User Guide (system topology); H100 datasheet (NVLink 900 GB/s, 3.35 TB/s HBM3)";
  t.gpu = h100_sxm5_80gb();
  t.default_fabric = "rail_optimized";
  TemplateBuilder b(t);
  add_hgx8(b, hgx_h100_board());
  return t;
}

}  // namespace gf
