// Intel Gaudi 2 server (HLS-Gaudi2 baseboard): 8 Gaudi 2, each with 24 on-chip 100 GbE RoCE ports:
// 21 form an all-to-all inside the server (3 to each of the 7 others), 3 per chip go out (24
// scale-out ports per server, rails 0..23). Two Xeon Platinum 8380 (40 cores, 2 threads each).
#include "topology/servers/boards.hpp"
#include "topology/servers/servers.hpp"

namespace gf {

ServerTemplate make_gaudi2() {
  ServerTemplate t;
  t.name = "gaudi2";
  t.description = "Intel Gaudi 2 server: 8x Gaudi 2, on-chip 100GbE RoCE all-to-all (3 ports per pair), 24x 100G out";
  t.source = "Intel Gaudi 2 AI accelerator white paper and HLS-Gaudi2 server spec (24 x 100 GbE per chip, 21 "
             "all-to-all + 3 scale-out; 96 GB HBM2E at 2.45 TB/s; PCIe Gen4 x16 host link); BF16 MME 432 TFLOPS "
             "as listed in Intel's Gaudi 3 white paper comparison; host CPUs and PCIe switch layout: estimate";
  t.gpu = {"Gaudi2-96GB", "gaudi", Bandwidth::gBps(2450), 432, "Intel Gaudi 2 / Gaudi 3 white papers"};
  // Intel's reference scale-out wiring is not modelled; a leaf-spine carries the 24 ports per server.
  t.default_fabric = "leaf_spine";
  TemplateBuilder b(t);
  add_gaudi(b, {.roce_tech = "gaudi2-roce-100g",
                .pcie = "pcie-gen4-x16",
                .affinity = {cores(0, 40, 80), cores(40, 40, 80)},
                .socket_link = "upi-skylake"});
  return t;
}

}  // namespace gf
