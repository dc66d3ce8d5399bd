#include "doctor/rules/ring_edges.hpp"

namespace gf {

Schedule inter_server_ring_edges(const Communicator& comm, int channels) {
  Schedule s("ring", comm.nranks, channels, Protocol::Simple);
  for (int ch = 0; ch < channels; ++ch) {
    const std::vector<Rank> order = comm.ring(ch);
    for (size_t i = 0; i < order.size(); ++i) {
      Transfer t;
      t.src = order[i];
      t.dst = order[(i + 1) % order.size()];
      t.channel = static_cast<int16_t>(ch);
      if (comm.node_of[static_cast<size_t>(t.src)] != comm.node_of[static_cast<size_t>(t.dst)]) s.add(t);
    }
  }
  return s;
}

}  // namespace gf
