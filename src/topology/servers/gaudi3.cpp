// Intel Gaudi 3 server (HLS-Gaudi3 baseboard): 8 Gaudi 3, each with 24 on-chip 200 GbE RoCE ports:
// 21 in an all-to-all (3 to each of the 7 others), 3 per chip out (24 scale-out ports per server,
// rails 0..23). Two Xeon Platinum 8580 (60 cores, 2 threads each).
#include "topology/servers/boards.hpp"
#include "topology/servers/servers.hpp"

namespace gf {

ServerTemplate make_gaudi3() {
  ServerTemplate t;
  t.name = "gaudi3";
  t.description = "Intel Gaudi 3 server: 8x Gaudi 3, on-chip 200GbE RoCE all-to-all (3 ports per pair), 24x 200G out";
  t.source = "Intel Gaudi 3 AI accelerator white paper (24 x 200 GbE per chip, 21 all-to-all + 3 scale-out on the "
             "HLS-Gaudi3 baseboard; 128 GB HBM2e at 3.7 TB/s; 1,835 TFLOPS BF16 MME; PCIe Gen5 x16 host link); "
             "host CPUs and PCIe switch layout: estimate";
  t.gpu = {"Gaudi3-128GB", "gaudi", Bandwidth::gBps(3700), 1835, "Intel Gaudi 3 AI accelerator white paper"};
  // Intel's reference scale-out wiring is not modelled; a leaf-spine carries the 24 ports per server.
  t.default_fabric = "leaf_spine";
  TemplateBuilder b(t);
  add_gaudi(b, {.roce_tech = "gaudi3-roce-200g",
                .pcie = "pcie-gen5-x16",
                .affinity = {cores(0, 60, 120), cores(60, 60, 120)},
                .socket_link = "upi-sapphire-rapids"});
  return t;
}

}  // namespace gf
