// NVIDIA DGX H100: 8 H100 SXM5 on 4 third-generation NVSwitches (18 NVLink4 per GPU, split 5/4/4/5
// over the four chips), 8 ConnectX-7 400 Gb/s compute NICs, each paired with one GPU under a PCIe
// Gen5 switch, two Xeon 8480C sockets with GPUs 0-3 on socket 0 and 4-7 on socket 1.
#include "topology/servers/servers.hpp"
#include "topology/servers/template_builder.hpp"

namespace gf {

ServerTemplate make_dgx_h100() {
  ServerTemplate t;
  t.name = "dgx-h100";
  t.description = "NVIDIA DGX H100: 8x H100 SXM5, 4x NVSwitch gen3 (NV18), 8x ConnectX-7 NDR 400G";
  t.source = "NVIDIA DGX H100 User Guide (system topology); H100 datasheet (NVLink 900 GB/s, 3.35 TB/s HBM3)";
  t.gpu = {"H100-SXM5-80GB", "hopper", Bandwidth::gBps(3350), 989, "NVIDIA H100 Tensor Core GPU datasheet (SXM5)"};
  t.default_fabric = "rail_optimized";
  TemplateBuilder b(t);
  int cpu[2] = {b.cpu("cpu0", 0, "0-55,112-167"), b.cpu("cpu1", 1, "56-111,168-223")};
  b.link(cpu[0], cpu[1], "upi-sapphire-rapids");
  int nvs[4];
  for (int k = 0; k < 4; ++k) nvs[k] = b.nvswitch("nvswitch" + std::to_string(k));
  const int lanes_to_switch[4] = {5, 4, 4, 5};  // 18 NVLinks per GPU over 4 NVSwitch chips
  for (int g = 0; g < 8; ++g) {
    int numa = g / 4;
    int sw = b.pcie_switch("pcie" + std::to_string(g), numa);
    b.link(sw, cpu[numa], "pcie-gen5-x16");
    int gpu = b.gpu("gpu" + std::to_string(g), numa);
    b.link(gpu, sw, "pcie-gen5-x16");
    for (int k = 0; k < 4; ++k) b.link(gpu, nvs[k], "nvlink4", lanes_to_switch[k]);
    int nic = b.nic("nic" + std::to_string(g), numa, g, "ib-ndr", "mlx5_" + std::to_string(g));
    b.link(nic, sw, "pcie-gen5-x16");
  }
  return t;
}

}  // namespace gf
