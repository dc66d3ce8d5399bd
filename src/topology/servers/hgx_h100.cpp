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
  t.gpu = {"H100-SXM5-80GB", "hopper", Bandwidth::gBps(3350), 989, "NVIDIA H100 Tensor Core GPU datasheet (SXM5)"};
  t.default_fabric = "rail_optimized";
  TemplateBuilder b(t);
  add_hgx8(b, {.nvlink = "nvlink4",
               .lanes_to_switch = {5, 4, 4, 5},
               .gpu_pcie = "pcie-gen5-x16",
               .nic_pcie = "pcie-gen5-x16",
               .uplink_pcie = "pcie-gen5-x16",
               .nics_per_gpu = 1,
               .nic_tech = "ib-ndr",
               .affinity = {cores(0, 56, 112), cores(56, 56, 112)},
               .socket_link = "upi-sapphire-rapids"});
  return t;
}

}  // namespace gf
