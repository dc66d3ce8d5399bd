// AMD Instinct MI325X platform: the MI300X platform's board (8 OAM modules in an xGMI full mesh, 7
// links per GPU, one to each peer, 128 GB/s bidirectional each) with MI325X modules (256 GB HBM3E,
// 6 TB/s), 8 x 400 GbE RoCE NICs (one per GPU), two AMD EPYC 9654 (96 cores, 2 threads each).
#include "topology/servers/boards.hpp"
#include "topology/servers/servers.hpp"

namespace gf {

ServerTemplate make_mi325x() {
  ServerTemplate t;
  t.name = "mi325x";
  t.description = "AMD Instinct MI325X platform: 8x MI325X, xGMI full mesh (7 links/GPU), 8x 400G RoCE";
  t.source =
      "AMD Instinct MI325X data sheet (256 GB HBM3E, 6 TB/s, 1,307 TFLOPS dense BF16, 7 Infinity Fabric "
      "links of 128 GB/s) and MI325X platform data sheet (8 GPUs on the MI300X platform's OAM baseboard); "
      "1:1 GPU-NIC mapping and host CPUs as the mi300x server: estimate";
  t.gpu = {"MI325X-256GB", "cdna3", Bandwidth::gBps(6000), 1307, "AMD Instinct MI325X data sheet"};
  t.default_fabric = "rail_optimized";
  TemplateBuilder b(t);
  add_amd_oam(b, {.xgmi = "xgmi-mi300x",
                  .pcie = "pcie-gen5-x16",
                  .nic_tech = "roce-400g",
                  .nic_label = "mlx5_",
                  .affinity = {cores(0, 96, 192), cores(96, 96, 192)}});
  return t;
}

}  // namespace gf
