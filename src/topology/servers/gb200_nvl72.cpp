// NVIDIA GB200 NVL72 compute tray: two GB200 superchips, each a Grace CPU joined to two B200-class
// GPUs by NVLink-C2C (900 GB/s bidirectional), and 4 ConnectX-7 400 Gb/s InfiniBand ports (one per
// GPU) on the Graces' PCIe. There is no NVSwitch in the tray: every GPU's 18 NVLink5 links go to
// the rack's 18 NVLink Switch chips (one link to each), so 18 trays form one 72-GPU NVLink domain
// (template.scale_up). The GPUs are not on PCIe: `nvidia-smi topo -m` on a GB200 tray shows SYS
// from every GPU to every NIC (sgl-project/sglang issue #11208), and NCCL reaches the NICs over C2C
// (NCCL_NET_GDR_C2C).
#include "topology/servers/servers.hpp"
#include "topology/servers/boards.hpp"

namespace gf {

ServerTemplate make_gb200_nvl72() {
  ServerTemplate t;
  t.name = "gb200-nvl72";
  t.description = "NVIDIA GB200 NVL72 compute tray: 4x B200 + 2x Grace (C2C), NVLink5 to the rack's 18 NVSwitch "
                  "chips (18 trays = 72 GPUs), 4x ConnectX-7 400G IB";
  t.source = "NVIDIA GB200 NVL72 datasheet (72 GPUs, 18 NVLink Switch chips, 1.8 TB/s NVLink per GPU, 576 TB/s HBM3e "
             "= 8 TB/s per GPU, 360 PFLOPS BF16 with sparsity = 2.5 PF dense per GPU, 72-core Grace, NVLink-C2C "
             "900 GB/s); validation/measured/oci-gb200-*.txt header (4 x 400 Gb/s IB per tray); NIC placement on the "
             "Graces' PCIe and the Grace-Grace link: estimate";
  t.gpu = {"GB200", "blackwell", Bandwidth::gBps(8000), 2500,
           "NVIDIA GB200 NVL72 datasheet (per-GPU share of the rack figures; BF16 dense = half the sparse figure)"};
  t.default_fabric = "rail_optimized";
  t.scale_up = ScaleUpDomain{18, 18, 18, "nvlink5"};
  TemplateBuilder b(t);
  add_grace_blackwell_tray(b, "ib-ndr");
  return t;
}

}  // namespace gf
