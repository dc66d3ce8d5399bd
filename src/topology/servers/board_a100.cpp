// HGX A100 baseboard with its two-level PCIe switch complexes; see boards.hpp.
#include "topology/servers/boards.hpp"

namespace gf {

void add_a100(TemplateBuilder& b, const A100Board& board) {
  // One host bridge per GPU pair, on that pair's NUMA node; sockets grouped by NUMA range. Bridges
  // of one socket are joined by on-die Infinity Fabric ("host-bridge" links), sockets by the
  // socket-to-socket Infinity Fabric.
  std::vector<std::vector<HostBridge>> bridges(2);
  std::array<std::pair<int, int>, 4> where{};  // pair -> (socket, index among that socket's bridges)
  for (int k = 0; k < 4; ++k) {
    int numa = board.pair_numa[k];
    int socket = numa / board.numa_per_socket;
    where[k] = {socket, static_cast<int>(bridges[socket].size())};
    bridges[socket].push_back({numa, cores(numa * board.cores_per_numa, board.cores_per_numa, board.smt_offset)});
  }
  auto cpus = b.sockets(bridges, "amd-infinity-fabric-socket");
  int nvs[6];
  for (int k = 0; k < 6; ++k) nvs[k] = b.nvswitch("nvswitch" + std::to_string(k));
  const std::string pcie = "pcie-gen4-x16";
  for (int k = 0; k < 4; ++k) {
    int numa = board.pair_numa[k];
    int upper = b.pcie_switch("pcie" + std::to_string(k), numa);
    b.link(upper, cpus[where[k].first][where[k].second], pcie);
    for (int i = 0; i < 2; ++i) {
      int g = 2 * k + i;
      int lower = b.pcie_switch("pcie" + std::to_string(k) + (i == 0 ? "a" : "b"), numa);
      b.link(lower, upper, pcie);
      int gpu = b.gpu("gpu" + std::to_string(g), numa);
      b.link(gpu, lower, pcie);
      for (int s : nvs) b.link(gpu, s, "nvlink3", 2);  // 12 NVLinks over 6 chips
    }
    for (int n = 2 * k * board.nics_per_gpu; n < 2 * (k + 1) * board.nics_per_gpu; ++n) {
      std::string label = board.nic_labels.empty() ? "mlx5_" + std::to_string(n) : board.nic_labels[n];
      int nic = b.nic("nic" + std::to_string(n), numa, n, board.nic_tech, label);
      b.link(nic, upper, pcie);
    }
  }
}

A100Board hgx_a100_board() {
  return {.pair_numa = {3, 1, 7, 5},
          .numa_per_socket = 4,
          .cores_per_numa = 16,
          .smt_offset = 128,
          .nics_per_gpu = 1,
          .nic_tech = "ib-hdr",
          .nic_labels = {}};
}

GpuSpec a100_sxm4_80gb() {
  return {"A100-SXM4-80GB", "ampere", Bandwidth::gBps(2039), 312, "NVIDIA A100 Tensor Core GPU datasheet (80GB SXM)"};
}

}  // namespace gf
