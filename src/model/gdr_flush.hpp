// NCCL's GPUDirect RDMA flush: how many times a network step pays its transport's own term.
#pragma once

#include <string>

#include "core/protocol.hpp"

namespace gf {

// Whether NCCL flushes GPUDirect RDMA receives on GPUs of this architecture (the servers'
// ServerTemplate gpu.arch): NVIDIA/nccl v2.30.7 src/graph/paths.cc ncclTopoNeedFlush, "Flush is
// required on Ampere and earlier", compute capability < 9.0 (this project's volta, ampere and ada;
// Turing is indexed as volta). AMD GPUs run RCCL, whose flush rule is not NCCL's: no.
bool arch_flushes_gdr(const std::string& arch);

// 2 where the receiver flushes the step before it tells the GPU, 1 elsewhere: a Simple step
// (net.cc recvProxyProgress: iflush, then wait for it, when `needFlush`, Simple only) received by
// GPUDirect RDMA (`gdr_receive`, model/gdr_receive.hpp: net.cc recvSetup asks ncclTopoNeedFlush
// only when ncclTopoCheckGdr gave the receive GDR) on a GPU whose architecture flushes. NCCL's own
// cost model charges the flush the same way (src/graph/tuning.cc: "Also add the flush extra
// latency", the net plugin's latency added a second time for Simple). A step staged through host
// memory (NCCL's socket transport, EFA without GPUDirect RDMA, a GPU beyond NCCL_NET_GDR_LEVEL)
// lands in a host buffer and has nothing to flush.
int transport_terms_per_step(Protocol p, bool arch_flushes, bool gdr_receive);

}  // namespace gf
