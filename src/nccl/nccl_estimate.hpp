// NCCL's closed-form estimate of one collective call (NVIDIA/nccl src/graph/tuning.cc, as
// transcribed in ../shared/validation/README.md sections 1-4): time = latency + bytes / algBw, with
// NCCL's base and per-hop latencies and bandwidth refinements, and the bandwidths themselves taken
// from the communicator's topology instead of NCCL's graph search:
//
//   bwIntra = Communicator::intra_bw            (per GPU, to its server's other GPUs)
//   bwInter = ppn x Communicator::inter_bw      (the server's NICs: on a rail-optimized server
//                                                every channel's ring or tree crosses servers on
//                                                its own NIC, so all of them work at once)
//   busBw   = bwIntra on one server, else min(bwIntra, bwInter)
//   interLat = NCCL's NET figure + the transport's own step latency (EFA: ModelParams), as NCCL
//              adds a net plugin's reported latency
//
// The tuner uses it for communicators whose schedules would be too large to build and run for
// every candidate (tuner.hpp). The per-algorithm formulas live with each algorithm
// (Algorithm::estimate in collective/algorithms/*.cpp); algorithms NCCL does not have return nullopt.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "collective/algorithm.hpp"
#include "collective/collective.hpp"
#include "collective/communicator.hpp"
#include "core/protocol.hpp"
#include "core/units.hpp"

namespace gf {

// The figures every algorithm's Algorithm::estimate() starts from, for this communicator and call.
EstimateInput estimate_input(const Communicator& comm, const CollectiveCall& call);

// `algo`'s NCCL estimate of this call (nullopt where NCCL has no such algorithm or protocol).
std::optional<Time> nccl_estimate(const Communicator& comm, const CollectiveCall& call, const Algorithm& algo,
                                  Protocol p, int channels);

}  // namespace gf
