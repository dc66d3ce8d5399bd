// 8 consumer GPUs (RTX 4090 class) each on its own CPU root port, no PCIe switch and no NVLink:
// two AMD EPYC 7542 (32 cores, 2 threads each) in NPS4, so 8 NUMA nodes of 8 cores and every GPU
// on a different one, hence SYS between every GPU pair. Two dual-port 100 GbE NICs sit on NUMA node
// 5 with GPU6 (each card's two ports are PIX to each other, PHB to the other card and to GPU6).
// Layout, NUMA numbering and core lists follow the validation sample
// rtx4090-8gpu-pcie-no-switch-sys.txt (blog "RTX4090 GPUDirect P2P Unlocked!", 2025-02-07).
#include "topology/servers/servers.hpp"
#include "topology/servers/template_builder.hpp"

namespace gf {

ServerTemplate make_pcie_8gpu_rootport() {
  ServerTemplate t;
  t.name = "pcie-8gpu-rootport";
  t.description = "8x RTX 4090 on CPU root ports (no PCIe switch, all SYS), 2x EPYC 7542 NPS4, 4x 100G RoCE ports";
  t.source = "nvidia-smi topo -m of such a server (validation sample rtx4090-8gpu-pcie-no-switch-sys.txt); "
             "NVIDIA Ada Lovelace architecture white paper (RTX 4090: 1,008 GB/s GDDR6X, 165 TFLOPS dense BF16 "
             "with FP32 accumulate, PCIe Gen4 x16); NIC speed: estimate (the sample names mlx5 devices only)";
  t.gpu = {"RTX-4090-24GB", "ada", Bandwidth::gBps(1008), 165, "NVIDIA Ada Lovelace GPU architecture white paper"};
  t.default_fabric = "leaf_spine";
  TemplateBuilder b(t);
  // NPS4: NUMA node n holds cores 8n..8n+7 and their SMT siblings 64 further on.
  std::vector<std::vector<HostBridge>> bridges(2);
  for (int n = 0; n < 8; ++n) bridges[n / 4].push_back({n, cores(8 * n, 8, 64)});
  auto sockets = b.sockets(bridges, "amd-infinity-fabric-socket");
  auto cpu_of_numa = [&](int n) { return sockets[n / 4][n % 4]; };
  const int gpu_numa[8] = {3, 2, 1, 0, 7, 6, 5, 4};  // as the sample's NUMA Affinity column
  for (int g = 0; g < 8; ++g) {
    int gpu = b.gpu("gpu" + std::to_string(g), gpu_numa[g]);
    b.link(gpu, cpu_of_numa(gpu_numa[g]), "pcie-gen4-x16");
  }
  // A dual-port adapter's two functions sit behind one port of the root complex: modelled as a
  // PCIe switch node per card, so its ports are PIX to each other.
  for (int card = 0; card < 2; ++card) {
    int sw = b.pcie_switch("nic_card" + std::to_string(card), 5);
    b.link(sw, cpu_of_numa(5), "pcie-gen4-x16");
    for (int p = 0; p < 2; ++p) {
      int n = 2 * card + p;
      int nic = b.nic("nic" + std::to_string(n), 5, n, "roce-100g", "mlx5_" + std::to_string(n));
      b.link(nic, sw, "pcie-gen4-x16");
    }
  }
  return t;
}

}  // namespace gf
