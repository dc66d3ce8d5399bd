// What the built-in algorithms of this folder share: chunks.hpp says what their transfers carry,
// patterns.hpp holds the pieces several build with (ring steps, tree all-reduce), and ring's
// latencies serve the algorithms NCCL lacks. Each file defines make_<name>(), listed in registry.inc.
#pragma once

#include <memory>

#include "collective/algorithm.hpp"
#include "collective/chunks.hpp"
#include "collective/nccl_constants.hpp"

namespace gf {

// Base of the algorithms the tuner costs only by running their schedule: no closed-form estimate
// here (NCCL has none for them, or none gpufabric carries: PAT), no steady-state form, and the
// channels NCCL's search gives network algorithms. Deriving from it is the declaration.
class RunCostedAlgorithm : public ChunkedAlgorithm {
 public:
  int channels(const Communicator& comm) const final { return nccl_search_channels(comm); }
  std::optional<Time> estimate(const EstimateInput&, Protocol, int) const final { return std::nullopt; }
  int64_t step_transfers(const Communicator&, const CollectiveCall&, int) const final { return kNoSteadyForm; }
};

// NCCL's NVLS bandwidth inside the NVLink domain (tuning.cc), GB/s per GPU: the NVLink bandwidth x
// nvlsEfficiency x (C-1)/C on C channels, twice for all-reduce's two pipelined ops, (ppn-1)/ppn
// for the others. nvls.cpp and nvlstree.cpp start from it.
double nvls_intra_bw(const EstimateInput& in, int channels);

// NCCL's Ring latencies (ring.cpp), also charged to the algorithms NCCL does not have.
const NcclLatencies& ring_latencies();

}  // namespace gf
