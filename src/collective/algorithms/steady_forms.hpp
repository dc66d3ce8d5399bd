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

// NVLS heads (nvls.cpp, nvlstree.cpp): the GPUs of a server or NVLink domain that own the
// all-reduce slices and carry the tree across servers, whatever number of CUDA channels a schedule
// is built with. NCCL takes one head per channel of its NVLS search graph, one GPU:NIC pair each
// (NVIDIA/nccl v2.27.3 src/graph/search.cc: "NVLS search only tries to find NIC:GPU combinations to
// compute the heads"; src/graph/connect.cc collects nvlsHeads from those channels), at most
// min(NCCL_MAX_NVLS_ARITY, GPUs) of them (ncclTopoCompute's maxChannels; src/include/device.h
// NCCL_MAX_NVLS_ARITY = 32), and prefers more (ncclTopoCompareGraphs: "the more the better").
// On MNNVL the search sees the whole clique (src/graph/topo.cc ncclTopoFuseXml), and its NVLink
// budget, (H + 1) x bwIntra <= 18 x 40 GB/s, fits 32 heads at sm100's 20 GB/s: a 64- or 72-GPU
// NVL72 domain has 32 heads, an 8-GPU server 8. Head j sits at local position
// nvls_tree_head(comm, heads, j), spread evenly so each sits on its own GPU and NIC.
constexpr int kNvlsMaxArity = 32;
// CUDA channels this project runs NVLS with (NCCL's NVLS_NCHANNELS_SM90 = 16 in
// src/transport/nvls.cc; Blackwell runs 24 inside one clique and 32 across, not modelled).
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
