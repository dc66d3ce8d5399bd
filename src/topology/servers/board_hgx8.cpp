// NVSwitch baseboard with one PCIe switch per GPU (DGX/HGX H100 and later); see boards.hpp.
#include "topology/servers/boards.hpp"

namespace gf {

void add_hgx8(TemplateBuilder& b, const Hgx8Board& board) {
  // Four host bridges per socket, one per GPU's switch: nvidia-smi reports NODE between them.
  std::vector<std::vector<HostBridge>> bridges(2);
  for (int s = 0; s < 2; ++s) bridges[s].assign(4, HostBridge{s, board.affinity[s]});
  auto cpus = b.sockets(bridges, board.socket_link);
  std::vector<int> nvs;
  for (size_t k = 0; k < board.lanes_to_switch.size(); ++k) nvs.push_back(b.nvswitch("nvswitch" + std::to_string(k)));
  for (int g = 0; g < 8; ++g) {
    int socket = g / 4;
    int sw = b.pcie_switch("pcie" + std::to_string(g), socket);
    b.link(sw, cpus[socket][g % 4], board.uplink_pcie);
    int gpu = b.gpu("gpu" + std::to_string(g), socket);
    b.link(gpu, sw, board.gpu_pcie);
    for (size_t k = 0; k < nvs.size(); ++k) b.link(gpu, nvs[k], board.nvlink, board.lanes_to_switch[k]);
    for (int p = 0; p < board.nics_per_gpu; ++p) {
      int n = g * board.nics_per_gpu + p;
      int nic = b.nic("nic" + std::to_string(n), socket, n, board.nic_tech, board.nic_label + std::to_string(n));
      b.link(nic, sw, board.nic_pcie);
    }
  }
}

Hgx8Board hgx_h100_board() {
  return {.nvlink = "nvlink4",
          .lanes_to_switch = {5, 4, 4, 5},
          .gpu_pcie = "pcie-gen5-x16",
          .nic_pcie = "pcie-gen5-x16",
          .uplink_pcie = "pcie-gen5-x16",
          .nics_per_gpu = 1,
          .nic_tech = "ib-ndr",
          .affinity = {cores(0, 56, 112), cores(56, 56, 112)},
          .socket_link = "upi-sapphire-rapids"};
}

Hgx8Board hgx_b200_board() {
  Hgx8Board board = hgx_h100_board();
  board.nvlink = "nvlink5";
  board.lanes_to_switch = {9, 9};
  return board;
}

GpuSpec h100_sxm5_80gb() {
  return {"H100-SXM5-80GB", "hopper", Bandwidth::gBps(3350), 989, "NVIDIA H100 Tensor Core GPU datasheet (SXM5)"};
}

}  // namespace gf
