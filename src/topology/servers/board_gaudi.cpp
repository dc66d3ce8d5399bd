// Intel Gaudi HLS baseboard: on-chip RoCE all-to-all plus per-chip scale-out ports; see boards.hpp.
#include "topology/servers/boards.hpp"

namespace gf {

void add_gaudi(TemplateBuilder& b, const GaudiBoard& board) {
  std::vector<std::vector<HostBridge>> bridges(2);
  for (int s = 0; s < 2; ++s) bridges[s].assign(2, HostBridge{s, board.affinity[s]});
  auto cpus = b.sockets(bridges, board.socket_link);
  int chips[8];
  int sw = -1;
  for (int g = 0; g < 8; ++g) {
    int socket = g / 4;
    if (g % 2 == 0) {
      sw = b.pcie_switch("pcie" + std::to_string(g / 2), socket);
      b.link(sw, cpus[socket][(g / 2) % 2], board.pcie);
    }
    chips[g] = b.gpu("gpu" + std::to_string(g), socket);
    b.link(chips[g], sw, board.pcie);
    for (int p = 0; p < 3; ++p) {
      // The port is part of the chip: its link to the chip runs at the port's own rate.
      int rail = 3 * g + p;
      int nic = b.nic("nic" + std::to_string(rail), socket, rail, board.roce_tech,
                      "hbl_" + std::to_string(g) + ":" + std::to_string(p));
      b.link(chips[g], nic, board.roce_tech);
    }
  }
  // 21 in-server ports per chip: 3 bonded to each of the other 7 chips.
  for (int i = 0; i < 8; ++i)
    for (int j = i + 1; j < 8; ++j) b.link(chips[i], chips[j], board.roce_tech, 3);
}

}  // namespace gf
