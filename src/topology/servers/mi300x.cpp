// AMD Instinct MI300X platform: 8 MI300X OAM modules in an xGMI full mesh (7 links per GPU, one to
// each peer, 128 GB/s bidirectional each), 8 x 400 GbE RoCE NICs (one per GPU, ConnectX-7 here),
// two AMD EPYC 9654 (96 cores, 2 threads each).
#include "topology/servers/boards.hpp"
#include "topology/servers/servers.hpp"

namespace gf {

ServerTemplate make_mi300x() {
  ServerTemplate t;
  t.name = "mi300x";
  t.description = "AMD Instinct MI300X platform: 8x MI300X, xGMI full mesh (7 links/GPU), 8x 400G RoCE";
  t.source = "AMD Instinct MI300X data sheet (192 GB HBM3, 5.3 TB/s, 1,307 TFLOPS dense BF16, 7 Infinity Fabric "
             "links of 128 GB/s) and MI300X platform data sheet (8 GPUs, 896 GB/s aggregate xGMI); 1:1 GPU-NIC "
             "mapping as in ROCm's distributed-inference guides; host CPUs and PCIe placement: estimate";
  t.gpu = {"MI300X-192GB", "cdna3", Bandwidth::gBps(5300), 1307, "AMD Instinct MI300X data sheet"};
  // One NIC per GPU, each GPU's NIC on its own rail, as DGX-class clusters do.
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
