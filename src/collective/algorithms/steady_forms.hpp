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
// (NCCL-style: the hops' per-class latencies along the path; later chunks hide theirs). Every
// edge of the form must pay that same latency, so an edge whose class costs `per_step` a step is
// charged ceil(path / per_step) steps (1 when its steps cost nothing).
int steps_for(Time path, Time per_step);
// Per-step latency of a hop between two ranks of one server / of two servers, from `s`'s
// per-class latencies (set by Algorithm::apply_latencies).
Time intra_step(const Schedule& s, const Communicator& comm);
Time inter_step(const Schedule& s);

// NVLS tree heads (nvlstree.cpp): the GPUs of a server that carry the tree across servers, one per
// NVLS channel (kNvlsChannels, whatever number of channels a schedule is built with: the tuner
// builds with one) and never more than the server's GPUs. NCCL takes its heads from the NVLS search
// graph, one GPU:NIC pair per channel (NVIDIA/nccl src/graph/search.cc, "NVLS search only tries to
// find NIC:GPU combinations to compute the heads"; src/graph/connect.cc collects nvlsHeads from
// those channels), so on a 72-GPU NVL72 domain far fewer GPUs than the domain holds reach the
// network. Head j sits at local position nvls_tree_head(comm, heads, j), spread evenly so each sits
// on its own tray and NIC.
// NCCL's NVLS channel count on H100 and B200 (src/transport/nvls.cc NVLS_NCHANNELS_SM90 = 16).
constexpr int kNvlsChannels = 16;
int nvls_tree_heads(const Communicator& comm);
// NCCL's NVLS chunk (NVIDIA/nccl src/transport/nvls.cc, NCCL_NVLS_CHUNKSIZE, default 128 KiB): how
// many pipeline steps NCCL cuts an NVLS or NVLS-tree slice into.
constexpr int64_t kNvlsChunkBytes = 128 * 1024;
int nvls_tree_head(const Communicator& comm, int heads, int j);

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
