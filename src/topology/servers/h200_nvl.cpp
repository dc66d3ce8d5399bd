// An 8x H200 NVL PCIe server (NVIDIA MGX class): H200 NVL cards joined by 4-way NVLink bridges,
// two bridge groups of 4 GPUs. A 4-way bridge gives each GPU 900 GB/s bidirectional (18 NVLink4
// links) spread over its 3 peers: 6 links (150 GB/s a direction) to each, NV6 in nvidia-smi.
// GPUs in pairs under 4 PCIe Gen5 switches, each with one ConnectX-7 400G NIC, two switches per
// socket, two Xeon Platinum 8480+ (56 cores, 2 threads each); GPUs 0-3 (one bridge group) on
// socket 0, so the groups meet only across the sockets.
#include "topology/servers/more_servers.hpp"
#include "topology/servers/template_builder.hpp"

namespace gf {

ServerTemplate make_h200_nvl() {
  ServerTemplate t;
  t.name = "h200-nvl";
  t.description = "8x H200 NVL PCIe server: two 4-way NVLink bridge groups (NV6), 4 PCIe Gen5 switches, 4x 400G";
  t.source =
      "NVIDIA H200 NVL product brief (141 GB HBM3e, 4.8 TB/s, 2- or 4-way NVLink bridge 900 GB/s per GPU, "
      "PCIe Gen5 128 GB/s, 835 TFLOPS dense BF16 (1,671 with sparsity)); PCIe layout, CPUs and NICs: estimate "
      "(2-socket Sapphire Rapids MGX build)";
  t.gpu = {"H200-NVL-141GB", "hopper", Bandwidth::gBps(4800), 835, "NVIDIA H200 NVL product brief"};
  t.default_fabric = "rail_optimized";
  TemplateBuilder b(t);
  auto cpus = b.sockets({{{0, cores(0, 56, 112)}}, {{1, cores(56, 56, 112)}}}, "upi-sapphire-rapids");
  const std::string pcie = "pcie-gen5-x16";
  int gpus[8];
  for (int k = 0; k < 4; ++k) {
    int socket = k / 2;
    int sw = b.pcie_switch("pcie" + std::to_string(k), socket);
    b.link(sw, cpus[socket][0], pcie);
    for (int i = 0; i < 2; ++i) {
      gpus[2 * k + i] = b.gpu("gpu" + std::to_string(2 * k + i), socket);
      b.link(gpus[2 * k + i], sw, pcie);
    }
    int nic = b.nic("nic" + std::to_string(k), socket, k, "ib-ndr", "mlx5_" + std::to_string(k));
    b.link(nic, sw, pcie);
  }
  // Each 4-way bridge joins its 4 GPUs pairwise: 18 links per GPU / 3 peers = 6 each.
  for (int group = 0; group < 2; ++group)
    for (int i = 0; i < 4; ++i)
      for (int j = i + 1; j < 4; ++j) b.link(gpus[4 * group + i], gpus[4 * group + j], "nvlink4", 6);
  return t;
}

}  // namespace gf
