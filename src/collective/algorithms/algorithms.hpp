// What the built-in algorithms of this folder share: chunks.hpp says what their transfers carry,
// patterns.hpp holds the pieces several build with (ring steps, tree all-reduce), and ring's
// latencies serve the algorithms NCCL lacks. Each file defines make_<name>(), listed in registry.inc.
#pragma once

#include <memory>

#include "collective/algorithm.hpp"
#include "collective/chunks.hpp"
#include "collective/nccl_constants.hpp"

namespace gf {

// NCCL's Ring latencies (ring.cpp), also charged to the algorithms NCCL does not have.
const NcclLatencies& ring_latencies();

}  // namespace gf
