// The steady-state form of each pipelined algorithm (what they are and when they are used:
// collective/steady_state.hpp), private to algorithms/: callers reach them through
// Algorithm::step_transfers() and Algorithm::build_steady().
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "collective/algorithm.hpp"
#include "collective/steady_state.hpp"

namespace gf {

// A steady transfer stands for a pipeline whose critical path pays `path` in step latencies
// (NCCL-style: the hops' per-class latencies along the path plus one per further chunk). Every
// edge of the form must pay that same latency, so an edge whose class costs `per_step` a step is
// charged ceil(path / per_step) steps (1 when its steps cost nothing).
int steps_for(Time path, Time per_step);
// Per-step latency of a hop between two ranks of one server / of two servers, from `s`'s
// per-class latencies (set by Algorithm::apply_latencies).
Time intra_step(const Schedule& s, const Communicator& comm);
Time inter_step(const Schedule& s);

// Transfers the step-by-step form of each algorithm would emit (exact counts, from the loops in
// its file), so the choice is made before anything is built.
int64_t ring_step_transfers(const Communicator& comm, const CollectiveCall& call, int channels);
int64_t tree_step_transfers(const Communicator& comm, const CollectiveCall& call, int channels);
int64_t nvlstree_step_transfers(const Communicator& comm, const CollectiveCall& call, int channels);
int64_t collnet_direct_step_transfers(const Communicator& comm, const CollectiveCall& call, int channels);
int64_t collnet_chain_step_transfers(const Communicator& comm, const CollectiveCall& call, int channels);

// The steady-state forms, callable at any size (the algorithms call them above the budget; tests
// call them at small sizes to compare with the step-by-step form).
Schedule steady_ring(const Algorithm& a, const Communicator& comm, const CollectiveCall& call, const AlgorithmOptions& opt);
Schedule steady_tree(const Algorithm& a, const Communicator& comm, const CollectiveCall& call, const AlgorithmOptions& opt);
Schedule steady_nvlstree(const Algorithm& a, const Communicator& comm, const CollectiveCall& call, const AlgorithmOptions& opt);
Schedule steady_collnet_direct(const Algorithm& a, const Communicator& comm, const CollectiveCall& call, const AlgorithmOptions& opt);
Schedule steady_collnet_chain(const Algorithm& a, const Communicator& comm, const CollectiveCall& call, const AlgorithmOptions& opt);

}  // namespace gf
