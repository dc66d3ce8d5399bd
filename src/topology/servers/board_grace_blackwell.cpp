// NVIDIA NVL72 compute tray (GB200, GB300): Grace CPUs, Blackwell GPUs on C2C; see boards.hpp.
#include "topology/servers/boards.hpp"

namespace gf {

void add_grace_blackwell_tray(TemplateBuilder& b, const std::string& nic_tech) {
  // Grace has no SMT: 72 cores per CPU, one NUMA node each.
  int cpu[2] = {b.cpu("cpu0", 0, "0-71"), b.cpu("cpu1", 1, "72-143")};
  // The two superchips of a tray run one OS image; the board joins the Graces coherently (estimate:
  // modelled as one NVLink-C2C link).
  b.link(cpu[0], cpu[1], "nvlink-c2c");
  for (int g = 0; g < 4; ++g) {
    int socket = g / 2;
    int gpu = b.gpu("gpu" + std::to_string(g), socket);
    b.link(gpu, cpu[socket], "nvlink-c2c");
  }
  for (int n = 0; n < 4; ++n) {
    int socket = n / 2;
    int nic = b.nic("nic" + std::to_string(n), socket, n, nic_tech, "mlx5_" + std::to_string(n));
    b.link(nic, cpu[socket], "pcie-gen5-x16");
  }
}

}  // namespace gf
