#include "collective/p2p_channels.hpp"

#include <algorithm>
#include <bit>

namespace gf {

int p2p_parts_per_peer(const Communicator& comm, int channels) {
  channels = std::max(1, channels);
  // Peers inside the server. NVSwitch: 2 x the NVLink lanes between two GPUs (36 on H100), more
  // than any network count below. A direct mesh (xGMI, NVLink bridges) has one link per pair on
  // the meshes modelled here, so 2. PCIe: 2.
  int parts = comm.nvlink && comm.nvswitch ? channels : 2;
  const bool network_peers = !comm.one_domain && comm.nnodes > 1;
  if (network_peers) {
    const Cluster& c = *comm.cluster;
    // NICs one GPU drives (getLocalNetCountByBw): the server's compute NICs over its GPUs.
    const int nics = std::max(1, static_cast<int>(c.nic_locals().size()) / std::max(1, c.gpus_per_server()));
    int net = 2;
    while (net * comm.nranks > channels * 4 && net > 1) net /= 2;
    net = std::max(nics, net);
    parts = std::min(parts, net);
  }
  return std::min(static_cast<int>(std::bit_ceil(static_cast<unsigned>(parts))), channels);
}

int p2p_channel(int round, int part, int parts, int channels) {
  const long long c = static_cast<long long>(round) * parts + part;
  return static_cast<int>(c % std::max(1, channels));
}

}  // namespace gf
