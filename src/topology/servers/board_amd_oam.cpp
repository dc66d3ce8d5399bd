// AMD Instinct 8-GPU OAM platform: xGMI full mesh, one NIC per GPU; see boards.hpp.
#include "topology/servers/boards.hpp"

namespace gf {

void add_amd_oam(TemplateBuilder& b, const AmdOamBoard& board) {
  std::vector<std::vector<HostBridge>> bridges(2);
  for (int s = 0; s < 2; ++s) bridges[s].assign(4, HostBridge{s, board.affinity[s]});
  auto cpus = b.sockets(bridges, "amd-infinity-fabric-socket");
  int gpus[8];
  for (int g = 0; g < 8; ++g) {
    int socket = g / 4;
    int sw = b.pcie_switch("pcie" + std::to_string(g), socket);
    b.link(sw, cpus[socket][g % 4], board.pcie);
    gpus[g] = b.gpu("gpu" + std::to_string(g), socket);
    b.link(gpus[g], sw, board.pcie);
    int nic = b.nic("nic" + std::to_string(g), socket, g, board.nic_tech, board.nic_label + std::to_string(g));
    b.link(nic, sw, board.pcie);
  }
  // 7 xGMI links per GPU, one to each peer: no switch, every pair one hop.
  for (int i = 0; i < 8; ++i)
    for (int j = i + 1; j < 8; ++j) b.link(gpus[i], gpus[j], board.xgmi, 1);
}

}  // namespace gf
