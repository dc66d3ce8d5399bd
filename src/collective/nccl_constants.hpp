// NCCL's published cost-model constants used as facts (NVIDIA/nccl src/graph/tuning.cc at NCCL
// 2.30.7, transcribed in ../shared/validation/README.md sections 1-3). Microseconds and GB/s.
#pragma once

#include <array>
#include <string>

#include "core/protocol.hpp"
#include "core/units.hpp"

namespace gf {

struct Communicator;

// Per-GPU caps on LL bandwidth (section 3, llMaxBws) by architecture and node count (1, 2, >2),
// GB/s; and per-channel caps for Ring/LL128 and Tree (perChMaxRingLL128Bws, perChMaxTreeBws).
double nccl_ll_max_bw(const std::string& arch, int nnodes);
double nccl_ring_ll128_per_channel_bw(const std::string& arch);
double nccl_tree_per_channel_bw(const std::string& arch, int nnodes);
// perChMaxTreeLL128Bws and perChMaxNVLSTreeBws (section 3), GB/s per channel.
double nccl_tree_ll128_per_channel_bw(const std::string& arch, int nnodes);
double nccl_nvlstree_per_channel_bw(const std::string& arch, int nnodes);
// treeCorrectionFactor[proto][log2(bytes / 64)] for 64 B .. 256 MiB (section 4); 1 outside.
double nccl_tree_correction(Protocol p, Bytes bytes);

// NVLS efficiency (section 3, nvlsEfficiency): Hopper 0.85, Blackwell 0.74, earlier 0.
double nccl_nvls_efficiency(const std::string& arch);

// Whether the collective library relays a send to another server through the GPU on the
// receiver's rail (PXN): NCCL does by default since 2.12 (NCCL_PXN_DISABLE=0, NCCL_P2P_PXN_LEVEL=2
// "use PXN as much as possible", src/graph/search.cc ncclTopoGetNetDev), for send/recv only;
// RCCL ships it off (ROCm/rccl src/graph/paths.cc, NCCL_PXN_DISABLE defaults to 1). So: NVIDIA
// GPUs joined by NVLink inside their server, unless the cluster was loaded with NCCL_PXN_DISABLE=1.
bool library_uses_pxn(const Communicator& comm);

// Host time one thread spends launching a collective on each further GPU it drives (nccl-tests
// `-g G`: one thread calls the collective for G GPUs inside one NCCL group, so the kernels start one
// after another and the call ends (G-1) launches after a one-GPU-per-process run would). NVIDIA
// names the cause, "the CUDA latency overheads of single process jobs" (NVIDIA/nccl-tests #333);
// the size is FITTED to NVIDIA/nccl-tests #123 (DGX A100, NCCL_ALGO=Ring, 1 channel, -g 2..8, 8 B
// all_reduce): measured minus NCCL's ring/LL latency 6.6 + 2(g-1) x 0.6 us, per extra GPU, is
// 2.2, 2.38, 2.23, 2.35, 2.52, 2.62, 2.67 us for g = 2..8, mean 2.4 us. No data set of
// ../shared/validation was used, so the -g 8 sets stay held out.
inline constexpr double kSingleThreadLaunchPerGpuUs = 2.4;

// Fraction of the scale-up links' usable bandwidth an all-to-all reaches when a transfer never
// leaves the NVLink (or xGMI) domain. NCCL runs an all-to-all as grouped send/recv to every peer,
// scheduled over a few p2p channels per peer in rounds, not as a ring's long streams; NCCL's tuner
// publishes no figure for it. FITTED to the data set gb200-1tray-alltoall (OCI GB200, 4 GPUs on
// one tray, nccl-tests alltoall at 4 and 8 GiB: measured busbw over the prediction at 1.0 is
// 611.52 / 719.90 = 0.849 and 615.32 / 720.85 = 0.854, mean 0.85). The other NVLink-domain
// all-to-all sets (GB200 2 and 16 trays, B300 and MI355X one node) are held out
// (validation/datasets.yaml, docs/accuracy.md). Transfers that cross the network are not
// discounted: their NIC, not the NVLink port, is the bottleneck the network sets already match.
inline constexpr double kAllToAllScaleUpEfficiency = 0.85;

}  // namespace gf
