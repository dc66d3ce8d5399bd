// NVIDIA DGX B200: 8 B200 on 2 NVSwitch chips (NVLink5, 18 links per GPU, 9 to each chip: 1.8 TB/s
// bidirectional), 8 ConnectX-7 400 Gb/s compute ports (one per GPU), two Xeon Platinum 8570 (56
// cores, 2 threads each).
#include "topology/servers/boards.hpp"
#include "topology/servers/servers.hpp"

namespace gf {

ServerTemplate make_dgx_b200() {
  ServerTemplate t;
  t.name = "dgx-b200";
  t.description = "NVIDIA DGX B200: 8x B200, 2x NVSwitch (NVLink5, NV18), 8x ConnectX-7 400G";
  t.source = "NVIDIA DGX B200 datasheet (1,440 GB HBM3e, 64 TB/s total; 14.4 TB/s NVLink; 8x ConnectX-7 400 Gb/s; "
             "2x Xeon Platinum 8570); HGX B200 spec (36 PFLOPS BF16 with sparsity per 8 GPUs -> 2.25 PF dense each)";
  t.gpu = {"B200-SXM-180GB", "blackwell", Bandwidth::gBps(8000), 2250,
           "NVIDIA DGX B200 / HGX B200 datasheets (8 TB/s HBM3e per GPU; BF16 dense = half the sparse figure)"};
  t.default_fabric = "rail_optimized";
  TemplateBuilder b(t);
  add_hgx8(b, hgx_b200_board());
  return t;
}

}  // namespace gf
