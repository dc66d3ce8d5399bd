// An 8x A40 PCIe server (the usual 4U build): GPUs in pairs under 4 PCIe Gen4 switches, each pair
// joined by A40's 2-way NVLink bridge (112.5 GB/s bidirectional: a bridge, not the A100's NVLink
// to NVSwitch), one 100 GbE RoCE NIC per switch, two switches per socket, two Xeon Gold 6348
// (28 cores, 2 threads each). A GPU reaches its bridged partner over NVLink (the bridge is one
// bonded link here), the other pair of its socket through the CPU (PHB) and the other socket
// across UPI (SYS).
#include "topology/servers/more_servers.hpp"
#include "topology/servers/template_builder.hpp"

namespace gf {

ServerTemplate make_a40_8gpu() {
  ServerTemplate t;
  t.name = "a40-8gpu";
  t.description = "8x A40 PCIe server: GPU pairs on 4 PCIe Gen4 switches, each pair NVLink-bridged, 4x 100G RoCE";
  t.source =
      "NVIDIA A40 datasheet (48 GB GDDR6, 696 GB/s, 149.7 TFLOPS dense BF16 (299.4 with sparsity), "
      "PCIe Gen4 x16, NVLink 112.5 GB/s bidirectional over a 2-way bridge); PCIe layout, CPUs and NICs: "
      "estimate (typical 2-socket Ice Lake build, as pcie-8gpu)";
  t.gpu = {"A40-48GB", "ampere", Bandwidth::gBps(696), 149.7, "NVIDIA A40 datasheet"};
  t.default_fabric = "leaf_spine";
  TemplateBuilder b(t);
  auto cpus = b.sockets({{{0, cores(0, 28, 56)}}, {{1, cores(28, 28, 56)}}}, "upi-skylake");
  const std::string pcie = "pcie-gen4-x16";
  for (int k = 0; k < 4; ++k) {
    int socket = k / 2;
    int sw = b.pcie_switch("pcie" + std::to_string(k), socket);
    b.link(sw, cpus[socket][0], pcie);
    int pair[2];
    for (int i = 0; i < 2; ++i) {
      pair[i] = b.gpu("gpu" + std::to_string(2 * k + i), socket);
      b.link(pair[i], sw, pcie);
    }
    b.link(pair[0], pair[1], "nvlink3-bridge");
    int nic = b.nic("nic" + std::to_string(k), socket, k, "roce-100g", "mlx5_" + std::to_string(k));
    b.link(nic, sw, pcie);
  }
  return t;
}

}  // namespace gf
