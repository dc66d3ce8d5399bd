// A generic 8-GPU PCIe server without NVLink (L40S class): GPUs in pairs under 4 PCIe Gen4
// switches, each switch also holding one 200 GbE RoCE NIC, two switches per socket on that
// socket's root complex, two Xeon Platinum 8380 (40 cores, 2 threads each). So a GPU sees its pair
// as PIX, the other pair of its socket as PHB and the other socket as SYS, the pattern of the
// validation sample pcie-8gpu-pix-phb-sys-no-nic.txt (NVIDIA/nccl issue #1439).
#include "topology/servers/servers.hpp"
#include "topology/servers/template_builder.hpp"

namespace gf {

ServerTemplate make_pcie_8gpu() {
  ServerTemplate t;
  t.name = "pcie-8gpu";
  t.description = "Generic 8x L40S PCIe server: GPU pairs on 4 PCIe Gen4 switches (PIX/PHB/SYS), 4x 200G RoCE, no NVLink";
  t.source = "NVIDIA L40S datasheet (48 GB GDDR6, 864 GB/s, 362 TFLOPS dense BF16, PCIe Gen4 x16, no NVLink); "
             "PCIe layout after the nvidia-smi sample of NVIDIA/nccl issue #1439; CPUs and NICs: estimate "
             "(typical 2-socket Ice Lake build with ConnectX-6 Dx 200GbE)";
  t.gpu = {"L40S-48GB", "ada", Bandwidth::gBps(864), 362, "NVIDIA L40S datasheet"};
  t.default_fabric = "leaf_spine";
  TemplateBuilder b(t);
  // Ice Lake UPI: NCCL uses its Skylake-class inter-socket figure for every Intel CPU before
  // Sapphire Rapids.
  auto cpus = b.sockets({{{0, cores(0, 40, 80)}}, {{1, cores(40, 40, 80)}}}, "upi-skylake");
  const std::string pcie = "pcie-gen4-x16";
  for (int k = 0; k < 4; ++k) {
    int socket = k / 2;
    int sw = b.pcie_switch("pcie" + std::to_string(k), socket);
    b.link(sw, cpus[socket][0], pcie);
    for (int i = 0; i < 2; ++i) {
      int gpu = b.gpu("gpu" + std::to_string(2 * k + i), socket);
      b.link(gpu, sw, pcie);
    }
    int nic = b.nic("nic" + std::to_string(k), socket, k, "roce-200g", "mlx5_" + std::to_string(k));
    b.link(nic, sw, pcie);
  }
  return t;
}

}  // namespace gf
