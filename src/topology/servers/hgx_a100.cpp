// NVIDIA HGX A100 8-GPU: the DGX A100 baseboard (6 NVSwitch gen2, NV12) in an OEM server. The host
// here mirrors the DGX A100 (two EPYC 7742 in NPS4, one HDR port per GPU); OEM builds differ.
#include "topology/servers/boards.hpp"
#include "topology/servers/servers.hpp"

namespace gf {

ServerTemplate make_hgx_a100() {
  ServerTemplate t;
  t.name = "hgx-a100";
  t.description = "NVIDIA HGX A100 8-GPU: 8x A100 SXM4 80GB, 6x NVSwitch gen2 (NV12), 8x HDR 200G";
  t.source = "NVIDIA HGX A100 datasheet; A100 datasheet (80GB SXM: 2,039 GB/s, 312 TFLOPS dense BF16); "
             "host CPUs, NUMA layout and NICs: estimate (as DGX A100)";
  t.gpu = a100_sxm4_80gb();
  t.default_fabric = "rail_optimized";
  TemplateBuilder b(t);
  add_a100(b, hgx_a100_board());
  return t;
}

}  // namespace gf
