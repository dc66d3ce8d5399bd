// The flows a ring all-reduce puts on the fabric, for rules that reason about them without
// running a model: every channel's ring edge between two servers (Communicator::ring), as the
// executor would route them.
#pragma once

#include "collective/communicator.hpp"
#include "collective/schedule.hpp"

namespace gf {

// A schedule holding one transfer per inter-server ring edge of each of `channels` channels.
Schedule inter_server_ring_edges(const Communicator& comm, int channels);

}  // namespace gf
