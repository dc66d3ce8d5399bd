#include "topology/transport_env.hpp"

namespace gf {

void apply_transport_vars(TransportSettings& t, std::optional<PathType> p2p_level, bool shm_disabled,
                          const NetTransportSettings& net) {
  if (p2p_level) {
    t.p2p_level = *p2p_level;
    t.p2p_level_set = true;  // said in the `# nccl:` transport line as the user's
  }
  if (shm_disabled) t.shm = false;
  if (net.any()) t.net = net;
}

}  // namespace gf
