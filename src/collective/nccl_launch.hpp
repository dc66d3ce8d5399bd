// How many of its channels, and how many threads per channel, NCCL launches one call with once the
// algorithm and protocol are chosen: small calls run on fewer channels than the communicator has.
// NVIDIA/nccl 2.30.7 (commit 5067397c) src/enqueue.cc topoGetAlgoInfo, after the cost table:
//
//   nc = comm->nChannels; nt = maxThreads[algo][proto]; thr = threadThresholds[algo][proto]
//   Ring, Tree, CollNet chain:   while (nBytes < nc * nt * thr && nc >= 2) nc--;
//   then (all but NVLS, NVLS tree, CollNet direct):
//                                while (nBytes < nc * nt * thr && nt % 128 == 0) nt /= 2;
//
// nBytes is the call's largest buffer (ncclFuncMaxSendRecvCount: count x type size, times nranks
// for all-gather and reduce-scatter), which is nccl-tests' printed size, CollectiveCall::bytes.
// NVLS and NVLS tree take the NVLS channels whatever the size; PAT's maxThreads is never set
// (ncclTopoTuneModel sets Ring, Tree, CollNet and NVLS only), so nothing is cut; CollNet direct
// has a loop of its own over its heads, not modelled here (its channels stay as they are).
//
// The constants (src/graph/tuning.cc ncclTopoTuneModel; src/include/comm.h; src/include/device.h):
//   threadThresholds: LL 8, LL128 8, Simple 64 (NCCL_*_THREAD_THRESHOLD); Ring/LL x nRanks;
//                     CollNet chain Simple 512
//   maxThreads:       LL 512 (NCCL_LL_MAX_NTHREADS), LL128 640 (NCCL_LL128_MAX_NTHREADS),
//                     Simple 512 (NCCL_SIMPLE_MAX_NTHREADS; Ring 256 when the ring graph's
//                     bwIntra x nChannels <= PCI_BW = 12 GB/s), CollNet 640 (NCCL_MAX_NTHREADS)
// NCCL_NTHREADS, NCCL_LL128_NTHREADS and NCCL_THREAD_THRESHOLDS, which override these, are not read.
#pragma once

#include <cstdint>
#include <string>

#include "collective/collective.hpp"
#include "collective/communicator.hpp"
#include "core/protocol.hpp"

namespace gf {

// One (algorithm, protocol)'s row of the rule above; the default cuts nothing (NVLS, PAT,
// algorithms NCCL lacks).
struct NcclLaunchRule {
  bool cuts = false;
  int64_t thread_threshold = 0;  // bytes per thread per channel (threadThresholds)
  int max_threads = 0;           // threads per channel before the cut (maxThreads)
};

struct NcclLaunch {
  int channels = 1;
  // Threads per channel after the cut, before NCCL adds Simple's sync warps. Not charged by any
  // model (they cost no channel-level bandwidth here); kept so the rule is checked whole.
  int threads = 0;
};

// The rule for NCCL's ring and tree (and CollNet chain: collnet = true, Simple only).
// `nranks` scales Ring/LL's threshold; `pci_ring` is bwIntra x nChannels <= 12 GB/s (256 threads).
NcclLaunchRule nccl_ring_launch_rule(Protocol p, int nranks, bool pci_ring);
NcclLaunchRule nccl_tree_launch_rule(Protocol p);
NcclLaunchRule nccl_collnet_chain_launch_rule();

// Channels and threads NCCL launches a call of `nbytes` (CollectiveCall::bytes) with, starting
// from the `channels` the algorithm's graph has.
NcclLaunch nccl_launch(int64_t nbytes, int channels, const NcclLaunchRule& rule);

// The row of a registry algorithm, by its NCCL_ALGO spelling, as NCCL's tables are indexed by
// algorithm: "ring" (threshold x nranks under LL; 256 Simple threads where the ring graph's
// bandwidth per GPU, NVLink or PCIe in a server and the NIC share with one GPU per server, is at
// most PCI_BW), "tree", "collnet_chain"; any other name cuts nothing.
NcclLaunchRule nccl_launch_rule(const std::string& algorithm, Protocol p, const Communicator& comm);

// Channels the chosen (algorithm, protocol), with `channels` in its graph, runs this call on.
// The tuner's choice carries this count; the estimate that ranked the candidates keeps the whole
// graph's, as NCCL's cost table does.
int launch_channels(const Communicator& comm, const CollectiveCall& call, const std::string& algorithm, Protocol p,
                    int channels);

}  // namespace gf
