// AMD Instinct MI355X platform as Oracle Cloud ships it (BM.GPU.MI355X, "Pollara" shape): 8
// MI355X in an xGMI full mesh (7 links per GPU, 153.6 GB/s bidirectional each), 8 AMD Pensando
// Pollara 400 AI NICs (400 Gb/s RoCE, one per GPU), two AMD EPYC 9575F (64 cores, 2 threads each).
#include "topology/servers/boards.hpp"
#include "topology/servers/servers.hpp"

namespace gf {

ServerTemplate make_mi355x() {
  ServerTemplate t;
  t.name = "mi355x";
  t.description = "AMD Instinct MI355X (OCI Pollara shape): 8x MI355X, xGMI full mesh (7 links/GPU), 8x Pollara 400G RoCE";
  t.source = "validation/measured/oci-mi355x-*.txt header (8 x MI355X XGMI full mesh, 8 x Pollara 400 = 3.2 Tb/s); "
             "AMD Instinct MI355X data sheet (288 GB HBM3E, 8 TB/s, 2.5 PFLOPS dense BF16, 7 Infinity Fabric links "
             "of 153.6 GB/s); host CPU (EPYC 9575F, as AMD's MI355X MLPerf systems) and PCIe placement: estimate";
  t.gpu = {"MI355X-288GB", "cdna4", Bandwidth::gBps(8000), 2500, "AMD Instinct MI355X data sheet"};
  t.default_fabric = "rail_optimized";
  TemplateBuilder b(t);
  // The Pollara RDMA devices are named by the ionic driver; "ionic_<n>" is a placeholder in rail order.
  add_amd_oam(b, {.xgmi = "xgmi-mi355x",
                  .pcie = "pcie-gen5-x16",
                  .nic_tech = "roce-400g",
                  .nic_label = "ionic_",
                  .affinity = {cores(0, 64, 128), cores(64, 64, 128)}});
  return t;
}

}  // namespace gf
