// NVIDIA HGX H100 8-GPU: the DGX H100 baseboard as OEMs ship it. The host (CPUs, NICs) is the
// OEM's choice; this one follows the common reference build: two Xeon 8480+ and one ConnectX-7
// NDR per GPU on the GPU's PCIe switch.
#include "topology/servers/boards.hpp"
#include "topology/servers/servers.hpp"

namespace gf {

ServerTemplate make_hgx_h100() {
  ServerTemplate t;
  t.name = "hgx-h100";
  t.description = "NVIDIA HGX H100 8-GPU: 8x H100 SXM5, 4x NVSwitch gen3 (NV18), 8x ConnectX-7 400G";
  t.source = "NVIDIA HGX H100 datasheet; H100 datasheet (SXM5: 3.35 TB/s, 989 TFLOPS dense BF16); "
             "host CPUs and NIC placement: estimate (typical OEM build)";
  t.gpu = h100_sxm5_80gb();
  t.default_fabric = "rail_optimized";
  TemplateBuilder b(t);
  add_hgx8(b, hgx_h100_board());
  return t;
}

}  // namespace gf
