// NVIDIA GB300 NVL72 compute tray: two GB300 superchips (a Grace CPU and two Blackwell Ultra GPUs
// each, NVLink-C2C 900 GB/s bidirectional) and one ConnectX-8 SuperNIC at 800 Gb/s per GPU. As in
// GB200 NVL72, every GPU's 18 NVLink5 links go to the rack's 18 NVLink Switch chips, so 18 trays
// form one 72-GPU NVLink domain. NIC placement on the Graces' PCIe and the Grace-Grace link are
// estimates, as in gb200-nvl72.
#include "topology/servers/more_servers.hpp"
#include "topology/servers/boards.hpp"

namespace gf {

ServerTemplate make_gb300_nvl72() {
  ServerTemplate t;
  t.name = "gb300-nvl72";
  t.description =
      "NVIDIA GB300 NVL72 compute tray: 4x Blackwell Ultra + 2x Grace (C2C), NVLink5 to the rack's 18 "
      "NVSwitch chips (18 trays = 72 GPUs), 4x ConnectX-8 800G";
  t.source =
      "NVIDIA GB300 NVL72 datasheet (72 GPUs, 1.8 TB/s NVLink per GPU, up to 20 TB HBM3e (279 GB per GPU), "
      "576 TB/s = 8 TB/s per GPU, 360 PFLOPS BF16 with sparsity = 2.5 PF dense per GPU, ConnectX-8 SuperNIC "
      "800 Gb/s per GPU, 72-core Grace, NVLink-C2C 900 GB/s); NIC placement and the Grace-Grace link: estimate";
  t.gpu = {"GB300", "blackwell", Bandwidth::gBps(8000), 2500,
           "NVIDIA GB300 NVL72 datasheet (per-GPU share of the rack figures; BF16 dense = half the sparse figure)"};
  t.default_fabric = "rail_optimized";
  t.scale_up = ScaleUpDomain{18, 18, 18, "nvlink5"};
  TemplateBuilder b(t);
  add_grace_blackwell_tray(b, "ib-xdr");
  return t;
}

}  // namespace gf
